// bench:latency's world and operations: the example screens of examples/ and the main mutations,
// each sent as a client with persisted documents sends it (its documentId from the generated
// manifest), by one of CLIENTS viewers so that concurrent clients are distinct users (a user's
// identical reads in flight are shared, which would hide calls). The world is seeded straight on
// the emulator, not through the delay.
import * as documents from '../src/generated/graphql';

/** Concurrent clients at most, each a viewer of its own. */
export const CLIENTS = 8;
const PEERS = 10;
const PASSWORD = 'bench-pass';

interface Viewer {
  id: number;
  name: string;
  token: string;
  /** A group the viewer owns with `kickable` in it (KickMembers), and the peer a ban hits (DisableUsers). */
  ownGroup: number;
  kickable: number;
  bannable: number;
  /** The global ID of the viewer's conversation with the first peer (Refetch of a home row). */
  conversationGlobalId?: string;
}

export interface World {
  appId: string;
  adminToken: string;
  peers: number[];
  groupId: number;
  viewers: Viewer[];
  /** A raw REST call on the emulator (not through the delay), acting as a user when `actAs` is given. */
  rest<T>(method: string, path: string, body: unknown, actAs?: number): Promise<T>;
}

export async function seedWorld(emulatorUrl: string, appId: string, adminToken: string): Promise<World> {
  async function rest<T>(method: string, path: string, body: unknown, actAs?: number): Promise<T> {
    const headers: Record<string, string> = { 'content-type': 'application/json', app_id: appId };
    if (actAs !== undefined) Object.assign(headers, { 'access-token': adminToken, user_id: String(actAs) });
    const res = await fetch(`${emulatorUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const reply = (await res.json()) as { code: number; data: T; message: string };
    if (reply.code !== 200) throw new Error(`${method} ${path}: ${reply.code} ${reply.message}`);
    return reply.data;
  }
  const user = async (name: string) => {
    const id = (await rest<{ user_id: number }>('POST', '/user/register/v2', { username: name, password: PASSWORD })).user_id;
    await rest('PUT', `/user/nickname?nick_name=${encodeURIComponent(name.toUpperCase())}`, undefined, id);
    return id;
  };
  const text = (from: number, to: number, type: 1 | 2, content: string) =>
    rest('PUT', '/message/send', { content_type: 0, content, targets: [to], type }, from);

  const run = Date.now().toString(36);
  const peers: number[] = [];
  for (let i = 0; i < PEERS; i++) peers.push(await user(`peer${i}-${run}`));
  const viewers: Viewer[] = [];
  for (let k = 0; k < CLIENTS; k++) {
    const name = `viewer${k}-${run}`;
    const id = await user(name);
    const { token } = await rest<{ token: string }>('POST', '/token/id', { user_id: id, password: PASSWORD });
    const bannable = await user(`bannable${k}-${run}`);
    const kickable = peers[PEERS - 1]!;
    const own = await rest<{ group_id: number }>('POST', '/group/create', { name: `own ${k}`, type: 0, user_list: [kickable] }, id);
    viewers.push({ id, name, token, ownGroup: own.group_id, kickable, bannable });
  }
  // One group of every peer and viewer, with an announcement and messages; the home list of each
  // viewer: five people and this group.
  const group = await rest<{ group_id: number }>(
    'POST',
    '/group/create',
    { name: 'bench latency group', type: 0, user_list: [...peers.slice(1), ...viewers.map((v) => v.id)] },
    peers[0],
  );
  await rest('POST', '/group/announcement/edit', { group_id: group.group_id, title: 'Welcome', content: 'Be kind.' }, peers[0]);
  for (const viewer of viewers) {
    for (let p = 1; p <= 5; p++) await text(peers[p]!, viewer.id, 1, `hello from ${p}`);
  }
  await text(peers[1]!, group.group_id, 2, 'hello group');
  return { appId, adminToken, peers, groupId: group.group_id, viewers, rest };
}

/** One operation as a client sends it. */
export interface Request {
  documentId: string;
  variables: Record<string, unknown>;
  headers: Record<string, string>;
}

export interface Operation {
  name: string;
  kind: 'screen' | 'mutation';
  /** The request client `k` sends. */
  request(world: World, k: number): Request;
  /** Puts the world back after a sample (untimed, on the emulator directly). */
  after?(world: World, k: number): Promise<unknown>;
}

type Doc = { __meta__?: { hash?: string } };

function request(document: unknown, variables: Record<string, unknown>, headers: Record<string, string>): Request {
  const hash = (document as Doc).__meta__?.hash;
  if (!hash) throw new Error('a generated document without its documentId (npm run codegen)');
  return { documentId: hash, variables, headers };
}

const as = (viewer: Viewer) => ({ 'access-token': viewer.token });
const asAdmin = (world: World) => ({ 'access-token': world.adminToken });
const viewer = (world: World, k: number) => world.viewers[k]!;

/** An operation client `k` sends as its viewer (or, `admin`, with the admin token). */
function op(
  name: string,
  kind: Operation['kind'],
  document: unknown,
  variables: (w: World, k: number) => Record<string, unknown>,
  options: { admin?: boolean; headers?: Record<string, string>; after?: Operation['after'] } = {},
): Operation {
  return {
    name,
    kind,
    request: (w, k) => request(document, variables(w, k), { ...(options.admin ? asAdmin(w) : as(viewer(w, k))), ...options.headers }),
    ...(options.after ? { after: options.after } : {}),
  };
}

const none = () => ({});

export const operations: Operation[] = [
  op('Me', 'screen', documents.MeDocument, none),
  op('ChatHome', 'screen', documents.ChatHomeDocument, none),
  op('Conversation', 'screen', documents.ConversationDocument, (w) => ({ with: String(w.peers[1]) })),
  op('GroupScreen', 'screen', documents.GroupScreenDocument, (w) => ({ id: String(w.groupId) })),
  op('GroupActions', 'screen', documents.GroupActionsDocument, (w) => ({ id: String(w.groupId) })),
  // A bare ID: the gateway tells a group from a user by asking.
  op('Refetch user', 'screen', documents.RefetchDocument, (w) => ({ id: String(w.peers[1]) })),
  op('Refetch conversation', 'screen', documents.RefetchDocument, (w, k) => ({ id: viewer(w, k).conversationGlobalId }), {
    headers: { 'x-id-format': 'global' },
  }),
  op('Users (admin)', 'screen', documents.UsersDocument, () => ({ first: 50 }), { admin: true }),
  op('ChatFileDownload', 'screen', documents.ChatFileDownloadDocument, () => ({ fileKey: 'bench/file.txt' })),
  {
    name: 'LogIn',
    kind: 'mutation',
    request: (w, k) => request(documents.LogInDocument, { username: viewer(w, k).name, password: PASSWORD, deviceGuid: `bench-${k}` }, {}),
  },
  op('SetNickname', 'mutation', documents.SetNicknameDocument, (_w, k) => ({ nickName: `Viewer ${k}` })),
  op('SendText', 'mutation', documents.SendTextDocument, (w) => ({ to: String(w.peers[1]), targetType: 'USER', content: 'bench' })),
  op('MarkRead', 'mutation', documents.MarkReadDocument, (w) => ({ conversationId: String(w.peers[1]) })),
  op('CreateGroup', 'mutation', documents.CreateGroupDocument, (w, k) => ({
    name: `made by ${k}`,
    userIds: [String(w.peers[1]), String(w.peers[2])],
  })),
  op(
    'KickMembers',
    'mutation',
    documents.KickMembersDocument,
    (w, k) => ({ groupId: String(viewer(w, k).ownGroup), userIds: [String(viewer(w, k).kickable)] }),
    {
      // The member comes back for the next sample.
      after: (w, k) =>
        w.rest('POST', '/group/invite', { group_id: viewer(w, k).ownGroup, user_list: [viewer(w, k).kickable] }, viewer(w, k).id),
    },
  ),
  op('DisableUsers (admin)', 'mutation', documents.DisableUsersDocument, (w, k) => ({ userIds: [String(viewer(w, k).bannable)] }), {
    admin: true,
  }),
];
