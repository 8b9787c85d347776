// One refusal shape: a refusal the user can act on is a userError with a code and an input path,
// per-entry failures of batch writes included (the entry's code also in results), and the rank
// rules (20011-20013) of group mutations; Group.viewerCan… agree with what the mutations do.
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, useGroupsStack } from '../../helpers/groups-stack';

const g = useGroupsStack();
let owner: TestUser;
beforeAll(async () => {
  owner = await g.user();
});

interface UserError {
  code: string;
  field: string[];
  message: string;
}

describe('batch writes', () => {
  it('report an existing member in inviteToGroup as a userError on its entry, the code also in results', async () => {
    const [member, fresh] = await Promise.all([g.user(), g.user()]);
    const groupId = await g.group(owner, { members: [member] });
    const data = await g.data<{
      inviteToGroup: { ok: boolean; userErrors: UserError[]; results: { userId: string; success: boolean; code: string | null }[] };
    }>(
      owner,
      `mutation($g: ID!, $u: [ID!]!) { inviteToGroup(input: { groupId: $g, userIds: $u }) {
        ok userErrors { code field message } results { userId success code } } }`,
      { g: String(groupId), u: [String(fresh.id), String(member.id)] },
    );
    expect(data.inviteToGroup.ok).toBe(false);
    expect(data.inviteToGroup.results).toEqual([
      { userId: String(fresh.id), success: true, code: null },
      { userId: String(member.id), success: false, code: 'ALREADY_MEMBER' },
    ]);
    expect(data.inviteToGroup.userErrors).toEqual([
      { code: 'ALREADY_MEMBER', field: ['input', 'userIds', '1'], message: expect.stringContaining('already a member') },
    ]);
  });

  it('give each failed entry its own index, a repeated ID included', async () => {
    const [a] = await Promise.all([g.user()]);
    const groupId = await g.group(owner, { members: [a!] });
    const data = await g.data<{ addGroupAdmins: { userErrors: UserError[]; results: { code: string | null }[] } }>(
      owner,
      `mutation { addGroupAdmins(input: { groupId: "${groupId}", userIds: ["${owner.id}", "${a!.id}", "${a!.id}"] }) {
        userErrors { code field } results { code } } }`,
    );
    expect(data.addGroupAdmins.results.map((r) => r.code)).toEqual(['NOT_ALLOWED', null, 'NOT_ALLOWED']);
    expect(data.addGroupAdmins.userErrors).toEqual([
      { code: 'NOT_ALLOWED', field: ['input', 'userIds', '0'] },
      { code: 'NOT_ALLOWED', field: ['input', 'userIds', '2'] },
    ]);
  });

  it('kickGroupMembers answers the group, its members after the kick, and the removed member IDs', async () => {
    const [a, b] = await Promise.all([g.user(), g.user()]);
    const groupId = await g.group(owner, { members: [a!, b!] });
    const data = await g.data<{ kickGroupMembers: unknown }>(
      owner,
      `mutation { kickGroupMembers(input: { groupId: "${groupId}", userIds: ["${a!.id}"] }) {
        ok userErrors { code } removedUserIds removedMemberIds group { id members(first: 10) { nodes { id userId } } } } }`,
    );
    expect(data.kickGroupMembers).toEqual({
      ok: true,
      userErrors: [],
      removedUserIds: [String(a!.id)],
      removedMemberIds: [`${groupId}:${a!.id}`],
      group: {
        id: String(groupId),
        members: {
          nodes: [
            { id: `${groupId}:${owner.id}`, userId: String(owner.id) },
            { id: `${groupId}:${b!.id}`, userId: String(b!.id) },
          ],
        },
      },
    });
  });

  it('leaveGroup answers the group and the acting user as removed; the owner leaving is a userError', async () => {
    const [a] = await Promise.all([g.user()]);
    const groupId = await g.group(owner, { members: [a!] });
    const left = await g.data<{ leaveGroup: unknown }>(
      a!,
      `mutation { leaveGroup(groupId: "${groupId}") { ok removedUserIds removedMemberIds group { id } } }`,
    );
    expect(left.leaveGroup).toEqual({
      ok: true,
      removedUserIds: [String(a!.id)],
      removedMemberIds: [`${groupId}:${a!.id}`],
      group: { id: String(groupId) },
    });
    const stays = await g.data<{ leaveGroup: unknown }>(
      owner,
      `mutation { leaveGroup(groupId: "${groupId}") { ok userErrors { code field } removedUserIds } }`,
    );
    expect(stays.leaveGroup).toEqual({ ok: false, userErrors: [{ code: 'OWNER_CANNOT_LEAVE', field: ['groupId'] }], removedUserIds: [] });
  });
});

describe('rank rules of group mutations', () => {
  it("a non-admin's kickGroupMembers is a payload with a userError NOT_GROUP_ADMIN, no GraphQL error, no change", async () => {
    const [a, b] = await Promise.all([g.user(), g.user()]);
    const groupId = await g.group(owner, { members: [a!, b!] });
    const reply = await g.gql<{ kickGroupMembers: unknown }>(
      a!,
      `mutation { kickGroupMembers(input: { groupId: "${groupId}", userIds: ["${b!.id}"] }) {
        ok userErrors { code field } results { userId } removedUserIds group { id } } }`,
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.kickGroupMembers).toEqual({
      ok: false,
      userErrors: [{ code: 'NOT_GROUP_ADMIN', field: ['input', 'groupId'] }],
      results: null,
      removedUserIds: [],
      group: null,
    });
    expect(g.endpoints()).toEqual(['DELETE /group/kick']);
  });

  it("an outsider's change to its own membership is a userError NOT_A_MEMBER on the group ID", async () => {
    const outsider = await g.user();
    const groupId = await g.group(owner);
    const data = await g.data<{ setGroupDisplayName: unknown }>(
      outsider,
      `mutation { setGroupDisplayName(input: { groupId: "${groupId}", displayName: "x" }) { ok userErrors { code field } } }`,
    );
    expect(data.setGroupDisplayName).toEqual({ ok: false, userErrors: [{ code: 'NOT_A_MEMBER', field: ['input', 'groupId'] }] });
  });
});

interface Flags {
  viewerCanAdminister: boolean;
  viewerCanKick: boolean;
  viewerCanUpdate: boolean;
  viewerCanInvite: boolean;
}

const FLAGS = 'query($id: ID!) { group(id: $id) { viewerCanAdminister viewerCanKick viewerCanUpdate viewerCanInvite } }';

describe('Group.viewerCan… agree with the mutations', () => {
  /** What each mutation does for the user: ok, or a userError (never a GraphQL error). */
  async function outcomes(as: TestUser, groupId: number, victim: TestUser, invitee: TestUser) {
    const run = async (name: string, query: string) => {
      const reply = await g.gql<Record<string, { ok: boolean; userErrors: UserError[] }>>(as, query);
      expect(reply.errors).toBeUndefined();
      const payload = reply.data![name]!;
      expect(payload.ok).toBe(payload.userErrors.length === 0);
      return payload.ok;
    };
    return {
      kick: await run(
        'kickGroupMembers',
        `mutation { kickGroupMembers(input: { groupId: "${groupId}", userIds: ["${victim.id}"] }) { ok userErrors { code } } }`,
      ),
      update: await run(
        'updateGroup',
        `mutation { updateGroup(input: { groupId: "${groupId}", name: "renamed" }) { ok userErrors { code } } }`,
      ),
      invite: await run(
        'inviteToGroup',
        `mutation { inviteToGroup(input: { groupId: "${groupId}", userIds: ["${invitee.id}"] }) { ok userErrors { code } } }`,
      ),
      administer: await run(
        'updateGroup',
        `mutation { updateGroup(input: { groupId: "${groupId}", readAck: true }) { ok userErrors { code } } }`,
      ),
    };
  }

  for (const memberRights of [false, true]) {
    for (const who of ['owner', 'admin', 'member', 'outsider'] as const) {
      it(`for the ${who}${memberRights ? ' (members may invite and modify)' : ''}`, async () => {
        const [admin, member, outsider, victim, invitee] = await Promise.all([g.user(), g.user(), g.user(), g.user(), g.user()]);
        const groupId = await g.group(owner, { members: [member, victim], admins: [admin] });
        if (memberRights) {
          await g.data(owner, `mutation { updateGroup(input: { groupId: "${groupId}", memberInvite: true, memberModify: true }) { ok } }`);
        }
        const as = { owner, admin, member, outsider }[who];
        const flags = (await g.data<{ group: Flags }>(as, FLAGS, { id: String(groupId) })).group;
        const done = await outcomes(as, groupId, victim, invitee);
        expect(done).toEqual({
          kick: flags.viewerCanKick,
          update: flags.viewerCanUpdate,
          invite: flags.viewerCanInvite,
          administer: flags.viewerCanAdminister,
        });
        const expected = { owner: true, admin: true, member: memberRights, outsider: false }[who];
        expect(flags.viewerCanUpdate).toBe(expected);
        expect(flags.viewerCanKick).toBe(who === 'owner' || who === 'admin');
      });
    }
  }

  it('cost nothing beyond the shared reads: four flags of one group read the profile, joined groups, admin list and settings once', async () => {
    const [admin] = await Promise.all([g.user()]);
    const groupId = await g.group(owner, { admins: [admin!] });
    await g.data(admin!, FLAGS, { id: String(groupId) });
    const counts = new Map<string, number>();
    for (const e of g.endpoints()) counts.set(e, (counts.get(e) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({
      'POST /group/info/batch': 1,
      'GET /user/profile': 1,
      'GET /group/user_joined': 1,
      'GET /group/admin_list': 1,
      // Started beside the rank so that the flags take one round trip: needless for an admin (speculative).
      'GET /group/settings': 1,
    });
  });
});
