// Group.hideMemberInfo (4.54): read with the group's settings, set through updateGroup (written
// first), and what it hides: the other members' displayName and joinedAt answer null, without an
// error, for a member below admin, and so does their role (issue 42: a rank is a detail); admins
// and the owner see them.
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, useGroupsStack } from '../../helpers/groups-stack';

const g = useGroupsStack();
let owner: TestUser;
beforeAll(async () => {
  owner = await g.user();
});

/** A group whose owner, admin and member each set a display name; hide_member_info as asked. */
async function namedGroup(hide: boolean) {
  const [admin, member] = await Promise.all([g.user(), g.user()]);
  const groupId = await g.group(owner, { members: [member], admins: [admin] });
  for (const [u, name] of [
    [owner, 'Olive'],
    [admin, 'Ada'],
    [member, 'Mo'],
  ] as const) {
    await g.emu.ok('PUT', '/group/display_name', { token: u.token, body: { group_id: groupId, value: name } });
  }
  if (hide) await g.emu.ok('PUT', '/group/settings/hide_member_info', { token: owner.token, body: { group_id: groupId, value: true } });
  return { groupId, admin, member };
}

type Members = {
  group: { members: { nodes: { userId: string; displayName: string | null; joinedAt: string | null; role: string | null }[] } };
};
const MEMBERS = (groupId: number) => `{ group(id: "${groupId}") { members(first: 10) { nodes { userId displayName joinedAt role } } } }`;

describe('hideMemberInfo', () => {
  it('reads false by default and true once updateGroup sets it with PUT /group/settings/hide_member_info', async () => {
    const groupId = await g.group(owner);
    expect(await g.data(owner, `{ group(id: "${groupId}") { hideMemberInfo } }`)).toEqual({ group: { hideMemberInfo: false } });

    const data = await g.data<{ updateGroup: unknown }>(
      owner,
      `mutation { updateGroup(input: { groupId: "${groupId}", hideMemberInfo: true }) { ok updated group { hideMemberInfo } } }`,
    );
    expect(data.updateGroup).toEqual({ ok: true, updated: ['hideMemberInfo'], group: { hideMemberInfo: true } });
    expect(g.callsTo('PUT /group/settings/hide_member_info')[0]?.body).toEqual({ group_id: groupId, value: true });
    expect((await g.info(groupId)).hide_member_info).toBe(true);
  });

  it('is written before the other settings of the same updateGroup', async () => {
    const groupId = await g.group(owner);
    const data = await g.data<{ updateGroup: { updated: string[] } }>(
      owner,
      `mutation { updateGroup(input: { groupId: "${groupId}", name: "quiet", readAck: true, hideMemberInfo: true }) { updated } }`,
    );
    expect(data.updateGroup.updated).toEqual(['hideMemberInfo', 'name', 'readAck']);
    expect(g.endpoints()).toEqual(['PUT /group/settings/hide_member_info', 'PUT /group/info/name', 'PUT /group/settings/enable_read_ack']);
  });

  it('is refused to a plain member as a userError NOT_GROUP_ADMIN on the field, leaving the setting off', async () => {
    const member = await g.user();
    const groupId = await g.group(owner, { members: [member] });
    const data = await g.data<{ updateGroup: unknown }>(
      member,
      `mutation { updateGroup(input: { groupId: "${groupId}", hideMemberInfo: true }) { ok userErrors { code field } } }`,
    );
    expect(data.updateGroup).toEqual({ ok: false, userErrors: [{ code: 'NOT_GROUP_ADMIN', field: ['input', 'hideMemberInfo'] }] });
    expect((await g.info(groupId)).hide_member_info).toBe(false);
  });
});

describe('what hideMemberInfo hides', () => {
  it("answers a plain member the others' displayName and joinedAt as null, without an error; its own entry stays whole", async () => {
    const { groupId, admin, member } = await namedGroup(true);
    const reply = await g.gql<Members>(member, MEMBERS(groupId));
    expect(reply.errors).toBeUndefined();
    const byId = new Map(reply.data!.group.members.nodes.map((n) => [n.userId, n]));
    expect(byId.get(String(owner.id))).toMatchObject({ displayName: null, joinedAt: null, role: null });
    expect(byId.get(String(admin.id))).toMatchObject({ displayName: null, joinedAt: null, role: null });
    expect(byId.get(String(member.id))).toMatchObject({ displayName: 'Mo', role: 'MEMBER' });
    expect(byId.get(String(member.id))!.joinedAt).toEqual(expect.any(String));
  });

  it('hides them in a look-up by user ID too (member, membersByIds)', async () => {
    const { groupId, member } = await namedGroup(true);
    const data = await g.data<{ group: { member: unknown; membersByIds: unknown[] } }>(
      member,
      `{ group(id: "${groupId}") { member(userId: "${owner.id}") { displayName joinedAt } membersByIds(userIds: ["${owner.id}"]) { displayName } } }`,
    );
    expect(data.group).toEqual({ member: { displayName: null, joinedAt: null }, membersByIds: [{ displayName: null }] });
  });

  it('hides nothing from an admin or the owner', async () => {
    const { groupId, admin } = await namedGroup(true);
    for (const viewer of [admin, owner]) {
      const data = await g.data<Members>(viewer, MEMBERS(groupId));
      expect(data.group.members.nodes.map((n) => n.displayName).sort()).toEqual(['Ada', 'Mo', 'Olive']);
      expect(data.group.members.nodes.map((n) => n.role).sort()).toEqual(['ADMIN', 'MEMBER', 'OWNER']);
      expect(data.group.members.nodes.every((n) => typeof n.joinedAt === 'string')).toBe(true);
    }
  });

  it('hides nothing while off: a plain member reads every name', async () => {
    const { groupId, member } = await namedGroup(false);
    const data = await g.data<Members>(member, MEMBERS(groupId));
    expect(data.group.members.nodes.map((n) => n.displayName).sort()).toEqual(['Ada', 'Mo', 'Olive']);
  });
});
