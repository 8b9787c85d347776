// Reads of users: `me` and `user(id)` with profile, settings, devices, push tags and online state
// (lazy, one REST call per endpoint), another user through the admin token, and the user list.
import { describe, expect, it } from 'vitest';
import { useStack } from '../../helpers/stack';
import { expectFieldError, loginOnDevice, seenCalls, seenEndpoints, tokenOf } from '../../helpers/users';

const stack = useStack();

const EVERYTHING = `
  id username nickName avatar description email mobile publicInfo privateInfo
  settings {
    id userId user { id } authMode authQuestion authAnswer autoDownload groupConfirm noPush noPushDetail
    noPushStartHour noPushEndHour silenceStartTime silenceEndTime noSounds vibratory pushNickName pushToken
  }
  devices { nodes { deviceSn platform userAgent user { id } } }
  pushTags
  online`;

describe('me', () => {
  it('reads profile, settings, devices, push tags and online state with one REST call per endpoint', async () => {
    const u = await stack.emu.user();
    const token = await loginOnDevice(stack, u, 'phone-1');
    await stack.emu.ok('PUT', '/user/nickname', { token, query: { nick_name: 'Ann' } });
    await stack.emu.ok('POST', '/user/push/tag', { token, body: { tags: ['news', 'vip'] } });
    stack.emu.server.resetCalls();

    const reply = await stack.gql(`{ me { ${EVERYTHING} } }`, {}, { 'access-token': token });
    expect(reply.errors).toBeUndefined();
    const settings = stack.emu.server.state.users.get(u.id)!.settingsId;
    expect(reply.data?.me).toEqual({
      id: String(u.id),
      username: u.name,
      nickName: 'Ann',
      avatar: '',
      description: '',
      email: '',
      mobile: '',
      publicInfo: '',
      privateInfo: '',
      settings: {
        id: String(settings),
        userId: String(u.id),
        user: { id: String(u.id) },
        authMode: 'NONE',
        authQuestion: '',
        authAnswer: '',
        autoDownload: true,
        groupConfirm: false,
        noPush: false,
        noPushDetail: false,
        noPushStartHour: 0,
        noPushEndHour: 0,
        silenceStartTime: 0,
        silenceEndTime: 0,
        noSounds: false,
        vibratory: true,
        pushNickName: '',
        pushToken: '',
      },
      devices: { nodes: [{ deviceSn: 1, platform: 'ANDROID', userAgent: 'Mozilla/5.0 (Linux; Android 14)', user: { id: String(u.id) } }] },
      pushTags: ['news', 'vip'],
      online: true,
    });
    expect(seenEndpoints(stack)).toEqual([
      'GET /user/device/list',
      'GET /user/online_status',
      'GET /user/profile',
      'GET /user/push/tag',
      'GET /user/settings',
    ]);
  });

  it('makes no REST call for fields that are not selected', async () => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql('{ me { pushTags } }', {}, tokenOf(u));
    expect(reply.data).toEqual({ me: { pushTags: [] } });
    expect(seenEndpoints(stack)).toEqual(['GET /user/push/tag']);
  });
});

describe('user(id)', () => {
  it('reads another user as that user through the admin token (user_id header on every call)', async () => {
    const u = await stack.emu.user();
    await loginOnDevice(stack, u, 'laptop', 'Mozilla/5.0 (Windows NT 10.0)');
    stack.emu.server.resetCalls();

    const reply = await stack.gql(
      'query($id: ID!) { user(id: $id) { id username settings { userId vibratory } devices { nodes { deviceSn platform } } pushTags online } }',
      { id: String(u.id) },
      { 'access-token': stack.emu.adminToken },
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data?.user).toEqual({
      id: String(u.id),
      username: u.name,
      settings: { userId: String(u.id), vibratory: true },
      devices: { nodes: [{ deviceSn: 1, platform: 'WINDOWS' }] },
      pushTags: [],
      online: true,
    });
    // Beside the caller proof (the caller's own profile, no user_id: issue 42, a user_id header only with the admin token).
    const [proof, ...calls] = seenCalls(stack);
    expect(proof).toEqual({ endpoint: 'GET /user/profile' });
    expect(calls.map((c) => c.endpoint).sort()).toEqual([
      'GET /user/device/list',
      'GET /user/online_status',
      'GET /user/profile',
      'GET /user/push/tag',
      'GET /user/settings',
    ]);
    expect(calls.every((c) => c.user_id === String(u.id))).toBe(true);
  });

  it('reads whether the user exists with the GET /user/profile its profile fields share: one call beside the caller proof', async () => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql(`{ user(id: "${u.id}") { id username } }`, {}, { 'access-token': stack.emu.adminToken });
    expect(reply).toEqual({ data: { user: { id: String(u.id), username: u.name } } });
    // The proof (no user_id: the admin token acting as no one) tells the admin token before a user_id is sent.
    expect(seenCalls(stack)).toEqual([{ endpoint: 'GET /user/profile' }, { endpoint: 'GET /user/profile', user_id: String(u.id) }]);
  });

  it("answers a user token reading another user's private fields null, with no error and no call carrying a user_id (issue 42)", async () => {
    const [a, b] = [await stack.emu.user(), await stack.emu.user()];
    stack.emu.server.resetCalls();
    const reply = await stack.gql(
      'query($id: ID!) { user(id: $id) { id nickName email } me { username } }',
      { id: String(b.id) },
      tokenOf(a),
    );
    expect(reply).toEqual({ data: { user: { id: String(b.id), nickName: null, email: null }, me: { username: a.name } } });
    expect(seenCalls(stack).filter((c) => c.user_id !== undefined)).toEqual([]);
  });
});

describe('users', () => {
  const PAGE = `query($first: Int, $after: String) {
    users(first: $first, after: $after) { nodes { id username status } pageInfo { hasNextPage endCursor } totalCount }
  }`;
  type Page = {
    users: {
      nodes: { id: string; username: string; status: string }[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
      totalCount: null;
    };
  };
  const admin = () => ({ 'access-token': stack.emu.adminToken });

  it('pages through every user with page_num/page_size until hasNextPage is false', async () => {
    await Promise.all([stack.emu.user(), stack.emu.user(), stack.emu.user()]);
    const all = [...stack.emu.server.state.users.all()].sort((x, y) => x.id - y.id);
    const seen: string[] = [];
    let after: string | null = null;
    let more = true;
    let pages = 0;
    stack.emu.server.resetCalls();
    do {
      const reply: Awaited<ReturnType<typeof stack.gql<Page>>> = await stack.gql<Page>(PAGE, { first: 2, after }, admin());
      expect(reply.errors).toBeUndefined();
      const page = reply.data!.users;
      expect(page.totalCount).toBeNull();
      seen.push(...page.nodes.map((n) => n.id));
      after = page.pageInfo.endCursor;
      more = page.pageInfo.hasNextPage;
      pages++;
    } while (more);
    expect(seen).toEqual(all.map((x) => String(x.id)));
    expect(seenCalls(stack)).toEqual(
      Array.from({ length: pages }, (_, i) => ({ endpoint: 'GET /user/list', query: { page_num: String(i + 1), page_size: '2' } })),
    );
  });

  it('shows the status and reads users lazily, one profile per user selected', async () => {
    const u = await stack.emu.user();
    await stack.emu.ok('PUT', '/user/disable', { token: stack.emu.adminToken, body: { list: [u.id] } });
    const count = stack.emu.server.state.users.size;
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ users: { nodes: { id: string; status: string; user: { username: string } }[] } }>(
      '{ users(first: 200) { nodes { id status user { username } } } }',
      {},
      admin(),
    );
    const mine = reply.data?.users.nodes.find((n) => n.id === String(u.id));
    expect(mine).toEqual({ id: String(u.id), status: 'BANNED', user: { username: u.name } });
    // One profile per user, and the caller proof (the admin token's own, no user_id).
    expect(seenEndpoints(stack)).toEqual(['GET /user/list', ...Array(count + 1).fill('GET /user/profile')]);
  });

  it('refuses a user token with FORBIDDEN on the list; the connection is non-null, so the answer has no data', async () => {
    const u = await stack.emu.user();
    const reply = await stack.gql('{ users { nodes { id } } me { username } }', {}, tokenOf(u));
    expect(reply.data).toBeNull();
    expectFieldError(reply, ['users'], { code: 'FORBIDDEN', upstreamCode: 10010, endpoint: 'GET /user/list' });
  });

  it("resumes right after any edge, whatever the page size: a page inside the service's pages reads two of them", async () => {
    await Promise.all([stack.emu.user(), stack.emu.user(), stack.emu.user(), stack.emu.user()]);
    const all = [...stack.emu.server.state.users.all()].sort((x, y) => x.id - y.id).map((x) => String(x.id));
    const EDGES =
      'query($first: Int, $after: String) { users(first: $first, after: $after) { edges { cursor node { id } } pageInfo { hasPreviousPage } } }';
    type Edges = { users: { edges: { cursor: string; node: { id: string } }[]; pageInfo: { hasPreviousPage: boolean } } };
    const first = await stack.gql<Edges>(EDGES, { first: 2 }, admin());
    expect(first.data!.users.pageInfo.hasPreviousPage).toBe(false);
    stack.emu.server.resetCalls();
    const next = await stack.gql<Edges>(EDGES, { first: 3, after: first.data!.users.edges[0]!.cursor }, admin());
    expect(next.errors).toBeUndefined();
    expect(next.data!.users.edges.map((e) => e.node.id)).toEqual(all.slice(1, 4));
    expect(next.data!.users.pageInfo.hasPreviousPage).toBe(true);
    expect(seenCalls(stack)).toEqual([
      { endpoint: 'GET /user/list', query: { page_num: '1', page_size: '3' } },
      { endpoint: 'GET /user/list', query: { page_num: '2', page_size: '3' } },
    ]);
  });

  it.each([
    ['a page size above 200', { first: 201 }, 'first'],
    ['a page size below 1', { first: 0 }, 'first'],
    ['a cursor that is not one', { after: 'abc' }, 'after'],
  ])('refuses %s before any REST call', async (_what, vars, field) => {
    stack.emu.server.resetCalls();
    const reply = await stack.gql(PAGE, vars, admin());
    expect(reply.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(stack.emu.server.calls).toHaveLength(0);
  });
});
