// Members of a group: the member list (one call whatever its size), admins, members by user ID
// (one POST /group/members/display_name per group), and the member and role mutations.
import { beforeAll, describe, expect, it } from 'vitest';
import { EXISTENCE_READ, type TestUser, useGroupsStack } from '../../helpers/groups-stack';
import { onlyError } from '../../helpers/stack';

const g = useGroupsStack();
let owner: TestUser;
beforeAll(async () => {
  owner = await g.user();
});

const users = (n: number) => Promise.all(Array.from({ length: n }, () => g.user()));

const setDisplayName = (u: TestUser, groupId: number, value: string) =>
  g.emu.ok('PUT', '/group/display_name', { token: u.token, body: { group_id: groupId, value } });

interface MemberNode {
  userId: string;
  displayName: string;
  joinedAt: string;
  bannedUntil: string | null;
  user: { id: string };
}

const MEMBERS = `query($id: ID!, $first: Int, $after: String) { group(id: $id) {
  members(first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { userId displayName joinedAt bannedUntil user { id } } } } }`;

type MembersReply = {
  group: { members: { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: MemberNode[] } };
};

describe('Group.members', () => {
  for (const size of [5, 40]) {
    it(`reads ${size} members with display names and users in one GET /group/member_list, which also says the group exists`, async () => {
      const members = await users(size - 1);
      const groupId = await g.group(owner, { members });
      await setDisplayName(members[0]!, groupId, 'first member');
      const data = await g.data<MembersReply>(owner, MEMBERS, { id: String(groupId), first: 50 });
      // The member list answers for the group's existence: no batch read before it.
      expect(g.endpoints()).toEqual(['GET /group/member_list']);
      expect(g.callsTo('GET /group/member_list')[0]?.query).toEqual({ group_id: String(groupId), limit: '50' });
      const { nodes, totalCount } = data.group.members;
      expect(totalCount).toBe(size);
      expect(nodes.map((n) => n.userId)).toEqual([owner.id, ...members.map((m) => m.id)].map(String));
      expect(nodes[1]).toMatchObject({ displayName: 'first member', bannedUntil: null, user: { id: String(members[0]!.id) } });
      expect(Date.parse(nodes[0]!.joinedAt)).toBeGreaterThan(0);
    });
  }

  it('pages with first and after, each read starting a page behind at the service cursor the page before ended at', async () => {
    const groupId = await g.group(owner, { members: await users(7) });
    const read = async (after: string | null) => {
      const page = await g.data<MembersReply>(owner, MEMBERS, { id: String(groupId), first: 3, after });
      return { page: page.group.members, query: g.callsTo('GET /group/member_list')[0]?.query };
    };
    const one = await read(null);
    expect(one.query).toEqual({ group_id: String(groupId), limit: '3' });
    expect(one.page.nodes).toHaveLength(3);
    expect(one.page.pageInfo.hasNextPage).toBe(true);
    // The second page reads the first again: the members it holds lead up to the anchor.
    const two = await read(one.page.pageInfo.endCursor);
    expect(two.query).toEqual({ group_id: String(groupId), limit: '6' });
    expect(two.page.nodes).toHaveLength(3);
    // The third starts at the service's cursor after the first page.
    const serviceCursor = (await g.emu.rest('GET', '/group/member_list', { token: owner.token, query: { group_id: groupId, limit: 3 } }))
      .cursor;
    const three = await read(two.page.pageInfo.endCursor);
    expect(three.query).toEqual({ group_id: String(groupId), limit: '6', cursor: serviceCursor });
    expect(three.page.nodes).toHaveLength(2);
    expect(three.page.pageInfo).toEqual({ hasNextPage: false, endCursor: expect.any(String) });
    const ids = [one, two, three].flatMap((p) => p.page.nodes.map((n) => n.userId));
    expect(new Set(ids).size).toBe(8);
  });

  it('refuses first outside 1-1000 before reading the members: only the group existence read is made', async () => {
    const groupId = await g.group(owner);
    const reply = await g.gql(owner, MEMBERS, { id: String(groupId), first: 0 });
    expect(onlyError(reply)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'first' });
    expect(g.endpoints()).toEqual(EXISTENCE_READ);
  });

  it('fails for a non-member (FORBIDDEN): the connection is non-null, so its group is null, and a sibling still reads', async () => {
    const stranger = await g.user();
    const groupId = await g.group(owner, { name: 'closed' });
    const reply = await g.gql<{ group: null; named: { name: string } }>(
      stranger,
      `{ group(id: "${groupId}") { name members { totalCount } } named: group(id: "${groupId}") { name } }`,
    );
    expect(reply.data).toEqual({ group: null, named: { name: 'closed' } });
    expect(onlyError(reply)).toMatchObject({
      path: ['group', 'members'],
      extensions: { code: 'FORBIDDEN', upstreamCode: 20011, endpoint: 'GET /group/member_list' },
    });
  });
});

describe('group(id:) asking for its members alone', () => {
  it('answers a missing group as null, told by the member list alone (one call)', async () => {
    const reply = await g.gql(owner, MEMBERS, { id: '987654321', first: 5 });
    expect(reply).toEqual({ data: { group: null } });
    expect(g.endpoints()).toEqual(['GET /group/member_list']);
  });

  it('fails the members for a non-member (FORBIDDEN), the group answered by the batch and then nulled by the non-null connection', async () => {
    const stranger = await g.user();
    const groupId = await g.group(owner, { name: 'closed' });
    const reply = await g.gql<{ group: null }>(stranger, `{ group(id: "${groupId}") { id members { totalCount } } }`);
    expect(reply.data).toEqual({ group: null });
    expect(onlyError(reply)).toMatchObject({ path: ['group', 'members'], extensions: { code: 'FORBIDDEN', upstreamCode: 20011 } });
  });
});

describe('Group.member and Group.membersByIds', () => {
  it('read members by user ID with one POST /group/members/display_name per group', async () => {
    const [a, b, c, outsider] = await users(4);
    const one = await g.group(owner, { members: [a!, b!, c!] });
    const two = await g.group(owner, { members: [a!] });
    await setDisplayName(a!, one, 'alpha');
    await setDisplayName(b!, one, 'beta');
    const data = await g.data<{
      one: { member: { displayName: string } | null; none: null; membersByIds: { userId: string; displayName: string }[] };
      two: { member: { userId: string } };
    }>(
      owner,
      `query($one: ID!, $two: ID!, $a: ID!, $b: ID!, $c: ID!, $x: ID!) {
        one: group(id: $one) { member(userId: $a) { displayName } none: member(userId: $x) { userId } membersByIds(userIds: [$b, $x, $c]) { userId displayName } }
        two: group(id: $two) { member(userId: $a) { userId } } }`,
      { one: String(one), two: String(two), a: String(a!.id), b: String(b!.id), c: String(c!.id), x: String(outsider!.id) },
    );
    expect(data.one).toEqual({
      member: { displayName: 'alpha' },
      none: null,
      membersByIds: [
        { userId: String(b!.id), displayName: 'beta' },
        { userId: String(c!.id), displayName: '' },
      ],
    });
    expect(data.two.member).toEqual({ userId: String(a!.id) });
    const calls = g.callsTo('POST /group/members/display_name');
    expect(g.endpoints()).toEqual(['POST /group/info/batch', 'POST /group/members/display_name', 'POST /group/members/display_name']);
    expect(calls.map((c) => c.body)).toEqual([
      { group_id: one, user_list: [a!.id, outsider!.id, b!.id, c!.id] },
      { group_id: two, user_list: [a!.id] },
    ]);
  });

  it('refuses more than 1000 user IDs before reading members: only the group existence read is made', async () => {
    const groupId = await g.group(owner);
    const reply = await g.gql(owner, `query($ids: [ID!]!) { group(id: "${groupId}") { membersByIds(userIds: $ids) { userId } } }`, {
      ids: Array.from({ length: 1001 }, (_, i) => String(i + 1)),
    });
    expect(onlyError(reply)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'userIds' });
    expect(g.endpoints()).toEqual(EXISTENCE_READ);
  });
});

describe('admins', () => {
  it('adds admins with POST /group/admin/add, lists them with GET /group/admin_list, and removes them', async () => {
    const [a, b] = await users(2);
    const groupId = await g.group(owner, { members: [a!, b!] });
    const added = await g.data<{
      addGroupAdmins: { ok: boolean; results: { userId: string; success: boolean; reason: string | null; user: { id: string } }[] };
    }>(
      owner,
      `mutation($g: ID!, $u: [ID!]!) { addGroupAdmins(input: { groupId: $g, userIds: $u }) { ok results { userId success reason user { id } } } }`,
      { g: String(groupId), u: [String(a!.id), String(b!.id)] },
    );
    expect(added.addGroupAdmins).toEqual({
      ok: true,
      results: [
        { userId: String(a!.id), success: true, reason: null, user: { id: String(a!.id) } },
        { userId: String(b!.id), success: true, reason: null, user: { id: String(b!.id) } },
      ],
    });
    expect(g.endpoints()).toEqual(['POST /group/admin/add']);
    expect(g.callsTo('POST /group/admin/add')[0]?.body).toEqual({ group_id: groupId, user_list: [a!.id, b!.id] });

    const listed = await g.data<{ group: { admins: { nodes: { userId: string }[] } } }>(
      owner,
      `{ group(id: "${groupId}") { admins { nodes { userId } } } }`,
    );
    expect(listed.group.admins.nodes.map((m) => m.userId)).toEqual([String(a!.id), String(b!.id)]);
    expect(g.callsTo('GET /group/admin_list')[0]?.query).toEqual({ group_id: String(groupId) });

    const removed = await g.data<{ removeGroupAdmins: { ok: boolean; group: { admins: { nodes: { userId: string }[] } } } }>(
      owner,
      `mutation { removeGroupAdmins(input: { groupId: "${groupId}", userIds: ["${a!.id}"] }) { ok group { admins { nodes { userId } } } } }`,
    );
    expect(removed.removeGroupAdmins).toEqual({ ok: true, group: { admins: { nodes: [{ userId: String(b!.id) }] } } });
    expect(g.endpoints()).toEqual(['DELETE /group/admin/remove', 'GET /group/admin_list']);
    expect(g.callsTo('DELETE /group/admin/remove')[0]?.body).toEqual({ group_id: groupId, user_list: [a!.id] });
  });

  it('answers a per-user failure with ok false and the reason', async () => {
    const [a] = await users(1);
    const groupId = await g.group(owner, { members: [a!] });
    const data = await g.data<{ addGroupAdmins: { ok: boolean; results: { success: boolean; reason: string }[] } }>(
      owner,
      `mutation { addGroupAdmins(input: { groupId: "${groupId}", userIds: ["${a!.id}", "${owner.id}"] }) { ok results { success reason } } }`,
    );
    expect(data.addGroupAdmins.ok).toBe(false);
    expect(data.addGroupAdmins.results[0]?.success).toBe(true);
    expect(data.addGroupAdmins.results[1]).toMatchObject({ success: false, reason: expect.stringContaining('owner') });
  });

  it('refuses an empty user list before any REST call', async () => {
    const reply = await g.gql(owner, 'mutation { addGroupAdmins(input: { groupId: "1", userIds: [] }) { ok } }');
    expect(onlyError(reply)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.userIds' });
    expect(g.endpoints()).toEqual([]);
  });

  it('answers a non-owner with a userError NOT_GROUP_OWNER, not a GraphQL error', async () => {
    const [a] = await users(1);
    const groupId = await g.group(owner, { members: [a!] });
    const data = await g.data<{ removeGroupAdmins: unknown }>(
      a!,
      `mutation { removeGroupAdmins(input: { groupId: "${groupId}", userIds: ["${owner.id}"] }) { ok userErrors { code field } results { userId } } }`,
    );
    expect(data.removeGroupAdmins).toEqual({
      ok: false,
      userErrors: [{ code: 'NOT_GROUP_OWNER', field: ['input', 'groupId'] }],
      results: null,
    });
  });
});

describe('setGroupDisplayName', () => {
  it("sets the acting member's display name with PUT /group/display_name and answers the member", async () => {
    const [a] = await users(1);
    const groupId = await g.group(owner, { members: [a!] });
    const data = await g.data<{
      setGroupDisplayName: { ok: boolean; member: { userId: string; displayName: string }; group: { id: string } };
    }>(
      a!,
      `mutation { setGroupDisplayName(input: { groupId: "${groupId}", displayName: "Al" }) { ok member { userId displayName } group { id } } }`,
    );
    expect(data.setGroupDisplayName).toEqual({
      ok: true,
      member: { userId: String(a!.id), displayName: 'Al' },
      group: { id: String(groupId) },
    });
    expect(g.endpoints()).toEqual(['PUT /group/display_name', 'GET /user/profile', 'POST /group/members/display_name']);
    expect(g.callsTo('PUT /group/display_name')[0]?.body).toEqual({ group_id: groupId, value: 'Al' });
  });

  it('makes exactly one REST call when only ok is selected', async () => {
    const groupId = await g.group(owner);
    await g.data(owner, `mutation { setGroupDisplayName(input: { groupId: "${groupId}", displayName: "x" }) { ok } }`);
    expect(g.endpoints()).toEqual(['PUT /group/display_name']);
  });

  it('reports a non-member as the userError NOT_A_MEMBER', async () => {
    const stranger = await g.user();
    const groupId = await g.group(owner);
    const reply = await g.gql(
      stranger,
      `mutation { setGroupDisplayName(input: { groupId: "${groupId}", displayName: "x" }) { ok group { id } userErrors { code } } }`,
    );
    expect(reply).toEqual({ data: { setGroupDisplayName: { ok: false, group: null, userErrors: [{ code: 'NOT_A_MEMBER' }] } } });
    expect(g.endpoints()).toEqual(['PUT /group/display_name']);
  });
});

describe('kickGroupMembers, leaveGroup and transferGroup', () => {
  it('kicks members with DELETE /group/kick; the member count reads fewer', async () => {
    const [a, b] = await users(2);
    const groupId = await g.group(owner, { members: [a!, b!] });
    const data = await g.data<{ kickGroupMembers: { ok: boolean; group: { memberCount: number } } }>(
      owner,
      `mutation { kickGroupMembers(input: { groupId: "${groupId}", userIds: ["${a!.id}"] }) { ok group { memberCount } } }`,
    );
    expect(data.kickGroupMembers).toEqual({ ok: true, group: { memberCount: 2 } });
    expect(g.callsTo('DELETE /group/kick')[0]?.body).toEqual({ group_id: groupId, user_list: [a!.id] });
    expect((await g.info(groupId)).count).toBe(2);
  });

  it('leaves with DELETE /group/leave as the acting user', async () => {
    const [a] = await users(1);
    const groupId = await g.group(owner, { members: [a!] });
    const data = await g.data<{ leaveGroup: { ok: boolean } }>(a!, `mutation { leaveGroup(groupId: "${groupId}") { ok } }`);
    expect(data.leaveGroup.ok).toBe(true);
    expect(g.endpoints()).toEqual(['DELETE /group/leave']);
    expect(g.callsTo('DELETE /group/leave')[0]?.query).toEqual({ group_id: String(groupId) });
    expect((await g.info(groupId)).count).toBe(1);
  });

  it('reports the owner leaving as the userError OWNER_CANNOT_LEAVE (transfer first)', async () => {
    const groupId = await g.group(owner);
    const reply = await g.gql(owner, `mutation { leaveGroup(groupId: "${groupId}") { ok userErrors { field code message } } }`);
    expect(reply).toEqual({
      data: { leaveGroup: { ok: false, userErrors: [{ field: ['groupId'], code: 'OWNER_CANNOT_LEAVE', message: expect.any(String) }] } },
    });
    expect((await g.info(groupId)).owner_id).toBe(owner.id);
  });

  it('transfers ownership with PUT /group/transfer; the group reads the new owner', async () => {
    const [a] = await users(1);
    const groupId = await g.group(owner, { members: [a!] });
    const data = await g.data<{ transferGroup: { ok: boolean; result: { userId: string; success: boolean }; group: { ownerId: string } } }>(
      owner,
      `mutation { transferGroup(input: { groupId: "${groupId}", newOwnerId: "${a!.id}" }) { ok result { userId success } group { ownerId } } }`,
    );
    expect(data.transferGroup).toEqual({ ok: true, result: { userId: String(a!.id), success: true }, group: { ownerId: String(a!.id) } });
    expect(g.callsTo('PUT /group/transfer')[0]?.body).toEqual({ group_id: groupId, new_owner: a!.id });
    expect((await g.info(groupId)).owner_id).toBe(a!.id);
  });

  it('reports a transfer to a non-member as the userError NOT_A_MEMBER naming the new owner', async () => {
    const stranger = await g.user();
    const groupId = await g.group(owner);
    const reply = await g.gql(
      owner,
      `mutation { transferGroup(input: { groupId: "${groupId}", newOwnerId: "${stranger.id}" }) { ok userErrors { field code } } }`,
    );
    expect(reply).toEqual({
      data: { transferGroup: { ok: false, userErrors: [{ field: ['input', 'newOwnerId'], code: 'NOT_A_MEMBER' }] } },
    });
  });

  for (const [mutation, endpoint] of [
    ['kickGroupMembers', 'DELETE /group/kick'],
    ['transferGroup', 'PUT /group/transfer'],
  ] as const) {
    it(`${mutation} makes exactly one REST call (${endpoint}) when only ok is selected`, async () => {
      const [a] = await users(1);
      const groupId = await g.group(owner, { members: [a!] });
      const args = mutation === 'kickGroupMembers' ? `userIds: ["${a!.id}"]` : `newOwnerId: "${a!.id}"`;
      await g.data(owner, `mutation { ${mutation}(input: { groupId: "${groupId}", ${args} }) { ok } }`);
      expect(g.endpoints()).toEqual([endpoint]);
    });
  }
});
