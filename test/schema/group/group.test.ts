// The Group type and the group queries: summary fields batched into one POST /group/info/batch,
// record fields from GET /group/info once per group, laziness, errors on one field alone; and
// the mutations on a group as a whole (create, dissolve, name/avatar/description/ext).
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, useGroupsStack } from '../../helpers/groups-stack';
import { onlyError } from '../../helpers/stack';

const g = useGroupsStack();
let owner: TestUser;
beforeAll(async () => {
  owner = await g.user();
});

const UNKNOWN_GROUP = '999999999';

describe('groups(ids)', () => {
  let ids: number[];
  beforeAll(async () => {
    ids = [];
    for (let i = 0; i < 50; i++) ids.push(await g.group(owner, { name: `group ${i}` }));
  });

  it('reads the summary fields of 50 groups with exactly one POST /group/info/batch', async () => {
    const data = await g.data<{ groups: { id: string; name: string; ownerId: string; memberCount: number }[] }>(
      owner,
      'query($ids: [ID!]!) { groups(ids: $ids) { id name ownerId memberCount } }',
      { ids: ids.map(String) },
    );
    expect(g.endpoints()).toEqual(['POST /group/info/batch']);
    expect(g.callsTo('POST /group/info/batch')[0]?.body).toEqual({ group_list: ids });
    expect(data.groups).toHaveLength(50);
    expect(data.groups[7]).toEqual({ id: String(ids[7]), name: 'group 7', ownerId: String(owner.id), memberCount: 1 });
  });

  it('adds one GET /group/info per distinct group for a field outside the summary', async () => {
    const repeated = [...ids, ...ids.slice(0, 10)];
    const data = await g.data<{ groups: { name: string; description: string }[] }>(
      owner,
      'query($ids: [ID!]!) { groups(ids: $ids) { name description } }',
      { ids: repeated.map(String) },
    );
    expect(data.groups).toHaveLength(60);
    expect(g.callsTo('POST /group/info/batch')).toHaveLength(1);
    expect(g.callsTo('POST /group/info/batch')[0]?.body).toEqual({ group_list: ids });
    const infos = g.callsTo('GET /group/info');
    expect(infos.map((c) => c.query.group_id).sort()).toEqual(ids.map(String).sort());
    expect(g.endpoints()).toHaveLength(51);
  });

  it('answers an empty list without a REST call', async () => {
    expect(await g.data(owner, '{ groups(ids: []) { id name } }')).toEqual({ groups: [] });
    expect(g.endpoints()).toEqual([]);
  });

  it('refuses more than 1000 IDs before any REST call', async () => {
    const reply = await g.gql(owner, 'query($ids: [ID!]!) { groups(ids: $ids) { name } }', {
      ids: Array.from({ length: 1001 }, (_, i) => String(i + 1)),
    });
    expect(onlyError(reply)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'ids' });
    expect(g.endpoints()).toEqual([]);
  });

  it('answers an unknown group as null with one NOT_FOUND at its index, with the service answer of GET /group/info', async () => {
    const reply = await g.gql<{ groups: ({ id: string; name: string | null } | null)[] }>(
      owner,
      'query($ids: [ID!]!) { groups(ids: $ids) { id name } }',
      { ids: [String(ids[0]), UNKNOWN_GROUP] },
    );
    expect(reply.data?.groups).toEqual([{ id: String(ids[0]), name: 'group 0' }, null]);
    expect(reply.errors).toHaveLength(1);
    expect(onlyError(reply)).toMatchObject({
      path: ['groups', 1],
      extensions: { code: 'NOT_FOUND', upstreamCode: 20001, endpoint: 'GET /group/info' },
    });
    expect(g.endpoints().sort()).toEqual(['GET /group/info', 'POST /group/info/batch']);
  });
});

describe('group(id)', () => {
  let member: TestUser;
  let groupId: number;
  beforeAll(async () => {
    member = await g.user();
    groupId = await g.group(owner, { members: [member], name: 'the group' });
  });

  it('answers its id after one POST /group/info/batch, the read that says the group exists', async () => {
    expect(await g.data(owner, `{ group(id: "${groupId}") { id } }`)).toEqual({ group: { id: String(groupId) } });
    expect(g.endpoints()).toEqual(['POST /group/info/batch']);
    expect(g.callsTo('POST /group/info/batch')[0]?.body).toEqual({ group_list: [groupId] });
  });

  it('reads every field of the Group record, converted', async () => {
    await g.emu.ok('PUT', '/group/info/ext', { token: owner.token, body: { group_id: groupId, value: '{"k":1}' } });
    const record = await g.info(groupId);
    const data = await g.data<{ group: Record<string, unknown> }>(
      member,
      `{ group(id: "${groupId}") {
          id name avatar ownerId owner { id } capacity memberCount type status applyApproval msgMuteMode msgPushMode
          description ext createdAt updatedAt } }`,
    );
    expect(data.group).toEqual({
      id: String(groupId),
      name: 'the group',
      avatar: '',
      ownerId: String(owner.id),
      owner: { id: String(owner.id) },
      capacity: 500,
      memberCount: 2,
      type: 'PRIVATE',
      status: 'NORMAL',
      applyApproval: 'ADMIN_CONFIRM',
      msgMuteMode: 'NONE',
      msgPushMode: 'ALL',
      description: '',
      ext: '{"k":1}',
      createdAt: new Date(Number(record.created_at)).toISOString(),
      updatedAt: new Date(Number(record.updated_at)).toISOString(),
    });
    expect(g.endpoints().sort()).toEqual(['GET /group/info', 'POST /group/info/batch']);
    expect(g.callsTo('GET /group/info')[0]?.query).toEqual({ group_id: String(groupId) });
  });

  it('refuses a malformed ID before any REST call', async () => {
    const reply = await g.gql(owner, '{ group(id: "abc") { name } }');
    expect(onlyError(reply)?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(g.endpoints()).toEqual([]);
  });
});

describe('joinedGroups and publicGroups', () => {
  it("lists the acting user's groups with GET /group/user_joined", async () => {
    const user = await g.user();
    const a = await g.group(user, { name: 'a' });
    const b = await g.group(owner, { members: [user], name: 'b' });
    const data = await g.data<{ me: { joinedGroups: { nodes: { id: string; name: string }[] } } }>(
      user,
      '{ me { joinedGroups { nodes { id name } } } }',
    );
    expect(data.me.joinedGroups.nodes).toEqual([
      { id: String(a), name: 'a' },
      { id: String(b), name: 'b' },
    ]);
    expect(g.endpoints()).toEqual(['GET /group/user_joined', 'POST /group/info/batch']);
    expect(g.callsTo('GET /group/user_joined')[0]?.headers.user_id).toBeUndefined();
  });

  it("reads another user's groups as that user (admin token + user_id header)", async () => {
    const user = await g.user();
    const a = await g.group(user);
    const data = await g.data<{ group: { owner: { joinedGroups: { nodes: { id: string }[] } } } }>(
      'admin',
      `{ group(id: "${a}") { owner { joinedGroups { nodes { id } } } } }`,
    );
    expect(data.group.owner.joinedGroups.nodes).toEqual([{ id: String(a) }]);
    expect(g.callsTo('GET /group/user_joined')[0]?.headers.user_id).toBe(String(user.id));
  });

  it('lists public groups with GET /group/public_list', async () => {
    const room = await g.group(owner, { type: 2, name: 'room' });
    const data = await g.data<{ publicGroups: { id: string; type: string }[] }>(owner, '{ publicGroups { id type } }');
    expect(data.publicGroups).toContainEqual({ id: String(room), type: 'CHATROOM' });
    expect(data.publicGroups.every((p) => p.type === 'CHATROOM')).toBe(true);
    expect(g.endpoints()).toEqual(['GET /group/public_list', 'POST /group/info/batch']);
  });
});

describe('createGroup', () => {
  it('creates the group with POST /group/create and answers it from the reply alone', async () => {
    const a = await g.user();
    const b = await g.user({ confirm: true });
    const data = await g.data<{ createGroup: { ok: boolean; group: Record<string, unknown> } }>(
      owner,
      `mutation($in: CreateGroupInput!) { createGroup(input: $in) {
          ok group { id name avatar description type memberCount ownerId historyVisible createdAt } } }`,
      { in: { name: 'new', avatar: 'http://x/a.png', description: 'd', type: 'CHATROOM', userIds: [String(a.id), String(b.id)] } },
    );
    // The created record primes the request's loaders: its fields cost no further call.
    expect(g.endpoints()).toEqual(['POST /group/create']);
    expect(g.callsTo('POST /group/create')[0]?.body).toEqual({
      name: 'new',
      avatar: 'http://x/a.png',
      description: 'd',
      type: 2,
      user_list: [a.id, b.id],
    });
    const { group } = data.createGroup;
    expect(data.createGroup.ok).toBe(true);
    expect(group).toMatchObject({ name: 'new', avatar: 'http://x/a.png', description: 'd', type: 'CHATROOM', ownerId: String(owner.id) });
    // a joined at once; b asked to confirm invitations.
    expect(group.memberCount).toBe(2);
    const record = await g.info(Number(group.id));
    expect(record).toMatchObject({ name: 'new', type: 2, owner_id: owner.id, count: 2 });
  });

  it('creates an empty group from an empty input', async () => {
    const data = await g.data<{ createGroup: { ok: boolean } }>(owner, 'mutation { createGroup(input: {}) { ok } }');
    expect(data.createGroup.ok).toBe(true);
    expect(g.callsTo('POST /group/create')[0]?.body).toEqual({});
  });

  it('refuses an empty userIds list before any REST call', async () => {
    const reply = await g.gql(owner, 'mutation { createGroup(input: { userIds: [] }) { ok } }');
    expect(onlyError(reply)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.userIds' });
    expect(g.endpoints()).toEqual([]);
  });

  it('reports an unknown invitee as NOT_FOUND on the mutation', async () => {
    const reply = await g.gql(owner, 'mutation { createGroup(input: { userIds: ["12345"] }) { ok } }');
    expect(reply.data?.createGroup ?? null).toBeNull();
    expect(onlyError(reply)?.extensions).toMatchObject({ code: 'NOT_FOUND', upstreamCode: 10000, endpoint: 'POST /group/create' });
  });
});

describe('dissolveGroup', () => {
  it('dissolves with DELETE /group/destroy; the group then reads DISSOLVED', async () => {
    const groupId = await g.group(owner);
    const data = await g.data<{ dissolveGroup: { ok: boolean; group: { status: string } } }>(
      owner,
      `mutation { dissolveGroup(groupId: "${groupId}") { ok group { status } } }`,
    );
    expect(data.dissolveGroup).toEqual({ ok: true, group: { status: 'DISSOLVED' } });
    expect(g.endpoints()).toEqual(['DELETE /group/destroy', 'POST /group/info/batch']);
    expect(g.callsTo('DELETE /group/destroy')[0]?.query).toEqual({ group_id: String(groupId) });
    expect((await g.info(groupId)).status).toBe(1);
  });

  it('makes exactly one REST call when only ok is selected', async () => {
    const groupId = await g.group(owner);
    await g.data(owner, `mutation { dissolveGroup(groupId: "${groupId}") { ok } }`);
    expect(g.endpoints()).toEqual(['DELETE /group/destroy']);
  });

  it('answers a member who is not the owner with a userError NOT_GROUP_OWNER on groupId', async () => {
    const member = await g.user();
    const groupId = await g.group(owner, { members: [member] });
    const data = await g.data<{ dissolveGroup: unknown }>(
      member,
      `mutation { dissolveGroup(groupId: "${groupId}") { ok userErrors { code field } } }`,
    );
    expect(data.dissolveGroup).toEqual({ ok: false, userErrors: [{ code: 'NOT_GROUP_OWNER', field: ['groupId'] }] });
    expect((await g.info(groupId)).status).toBe(0);
  });
});

describe('updateGroup: the group information', () => {
  const setters = [
    { mutation: 'setGroupName', arg: 'name', endpoint: 'PUT /group/info/name', field: 'name' },
    { mutation: 'setGroupAvatar', arg: 'avatar', endpoint: 'PUT /group/info/avatar', field: 'avatar' },
    { mutation: 'setGroupDescription', arg: 'description', endpoint: 'PUT /group/info/description', field: 'description' },
    { mutation: 'setGroupExt', arg: 'ext', endpoint: 'PUT /group/info/ext', field: 'ext' },
  ] as const;

  for (const s of setters) {
    it(`${s.arg} (formerly ${s.mutation}) sends ${s.endpoint} with the value, and the group reads it back`, async () => {
      const groupId = await g.group(owner);
      const data = await g.data<Record<string, { ok: boolean; group: Record<string, string> }>>(
        owner,
        `mutation($v: String!) { updateGroup(input: { groupId: "${groupId}", ${s.arg}: $v }) { ok group { ${s.field} } } }`,
        { v: `new ${s.arg}` },
      );
      expect(data.updateGroup).toEqual({ ok: true, group: { [s.field]: `new ${s.arg}` } });
      expect(g.endpoints()[0]).toBe(s.endpoint);
      expect(g.callsTo(s.endpoint)[0]?.body).toEqual({ group_id: groupId, value: `new ${s.arg}` });
    });
  }

  it('makes exactly one REST call when only ok is selected', async () => {
    const groupId = await g.group(owner);
    await g.data(owner, `mutation { updateGroup(input: { groupId: "${groupId}", name: "x" }) { ok } }`);
    expect(g.endpoints()).toEqual(['PUT /group/info/name']);
  });

  it('answers a plain member with a userError NOT_GROUP_ADMIN on the setting when members may not modify the group', async () => {
    const member = await g.user();
    const groupId = await g.group(owner, { members: [member] });
    const data = await g.data<{ updateGroup: unknown }>(
      member,
      `mutation { updateGroup(input: { groupId: "${groupId}", name: "x" }) { ok updated userErrors { code field } group { id } } }`,
    );
    expect(data.updateGroup).toEqual({
      ok: false,
      updated: [],
      userErrors: [{ code: 'NOT_GROUP_ADMIN', field: ['input', 'name'] }],
      group: { id: String(groupId) },
    });
  });
});

describe('upstream errors of group mutations', () => {
  // Every mutation on a group, pointed at an unknown group ($G), beside a sibling that succeeds.
  const calls: [string, string][] = [
    ['dissolveGroup(groupId: $G)', 'DELETE /group/destroy'],
    ['updateGroup(input: { groupId: $G, name: "n" })', 'PUT /group/info/name'],
    ['updateGroup(input: { groupId: $G, avatar: "a" })', 'PUT /group/info/avatar'],
    ['updateGroup(input: { groupId: $G, description: "d" })', 'PUT /group/info/description'],
    ['updateGroup(input: { groupId: $G, ext: "e" })', 'PUT /group/info/ext'],
    ['setGroupDisplayName(input: { groupId: $G, displayName: "d" })', 'PUT /group/display_name'],
    ['addGroupAdmins(input: { groupId: $G, userIds: ["1"] })', 'POST /group/admin/add'],
    ['removeGroupAdmins(input: { groupId: $G, userIds: ["1"] })', 'DELETE /group/admin/remove'],
    ['kickGroupMembers(input: { groupId: $G, userIds: ["1"] })', 'DELETE /group/kick'],
    ['leaveGroup(groupId: $G)', 'DELETE /group/leave'],
    ['transferGroup(input: { groupId: $G, newOwnerId: "1" })', 'PUT /group/transfer'],
    ['applyToGroup(input: { groupId: $G })', 'POST /group/apply'],
    ['handleGroupApplication(input: { groupId: $G, applicantId: "1", approval: true })', 'PUT /group/apply/handle'],
    ['inviteToGroup(input: { groupId: $G, userIds: ["1"] })', 'POST /group/invite'],
    ['handleGroupInvitation(input: { groupId: $G, inviterId: "1", approval: true })', 'PUT /group/invite/handle'],
    ['banGroupMembers(input: { groupId: $G, userIds: ["1"], durationMinutes: 1 })', 'POST /group/ban'],
    ['unbanGroupMembers(input: { groupId: $G, userIds: ["1"] })', 'POST /group/unban'],
    ['banAllGroupMembers(input: { groupId: $G, durationMinutes: 1 })', 'POST /group/settings/ban_all'],
    ['unbanAllGroupMembers(groupId: $G)', 'POST /group/settings/unban_all'],
    ['blockGroupUsers(input: { groupId: $G, userIds: ["1"] })', 'POST /group/block'],
    ['unblockGroupUsers(input: { groupId: $G, userIds: ["1"] })', 'DELETE /group/unblock'],
    ['publishAnnouncement(input: { groupId: $G, title: "t", content: "c" })', 'POST /group/announcement/edit'],
    ['deleteAnnouncement(input: { groupId: $G, announcementId: "1" })', 'DELETE /group/announcement/delete'],
    ['recordGroupFile(input: { groupId: $G, name: "n", size: 1, url: "u" })', 'POST /group/file/upload'],
    ['renameGroupFile(input: { groupId: $G, fileId: "1", name: "n" })', 'PUT /group/file/update_name'],
    ['deleteGroupFiles(input: { groupId: $G, fileIds: ["1"] })', 'DELETE /group/file/delete'],
    ['updateGroup(input: { groupId: $G, msgMuteMode: NONE })', 'PUT /group/msg/mute_mode'],
    ['updateGroup(input: { groupId: $G, msgPushMode: ALL })', 'PUT /group/msg/push_mode'],
    ['updateGroup(input: { groupId: $G, memberInvite: true })', 'PUT /group/settings/allow_member_invitation'],
    ['updateGroup(input: { groupId: $G, memberModify: true })', 'PUT /group/settings/allow_member_modify'],
    ['updateGroup(input: { groupId: $G, readAck: true })', 'PUT /group/settings/enable_read_ack'],
    ['updateGroup(input: { groupId: $G, historyVisible: true })', 'PUT /group/settings/history_visible'],
    ['updateGroup(input: { groupId: $G, applyApproval: AGREE_ALL })', 'PUT /group/settings/require_admin_approval'],
  ];

  let groupId: number;
  beforeAll(async () => {
    groupId = await g.group(owner);
  });

  for (const [call, endpoint] of calls) {
    const name = call.slice(0, call.indexOf('('));
    it(`${name} on an unknown group fails alone with NOT_FOUND from ${endpoint}`, async () => {
      const reply = await g.gql<{ failed: null; sibling: { ok: boolean } }>(
        owner,
        `mutation($G: ID!, $real: ID!) { failed: ${call} { ok } sibling: updateGroup(input: { groupId: $real, ext: "still works" }) { ok } }`,
        { G: UNKNOWN_GROUP, real: String(groupId) },
      );
      expect(reply.data).toEqual({ failed: null, sibling: { ok: true } });
      expect(reply.errors).toHaveLength(1);
      expect(onlyError(reply)).toMatchObject({ path: ['failed'], extensions: { code: 'NOT_FOUND', upstreamCode: 20001, endpoint } });
      expect(g.endpoints()).toEqual([endpoint, 'PUT /group/info/ext']);
    });
  }
});
