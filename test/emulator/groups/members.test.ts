// Members and roles: admins (4.1-4.3), transfer (4.50), leave (4.34), kick (4.33), the member
// list and display names (4.35, 4.36, 4.18), mute and push modes (4.37, 4.38).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, GroupSummary, Member, OperationResult } from '../../../src/rest/records';
import { as, type GroupsWorld, startGroupsWorld, type TestUser } from '../../helpers/groups-world';

let w: GroupsWorld;
beforeAll(async () => {
  w = await startGroupsWorld();
});
afterAll(() => w.emu.stop());

const adminIds = async (g: number) =>
  (await w.emu.ok<Member[]>('GET', '/group/admin_list', { token: w.emu.adminToken, query: { group_id: g } })).map((m) => m.user_id);
const memberIds = async (g: number) =>
  (await w.emu.ok<Member[]>('GET', '/group/member_list', { token: w.emu.adminToken, query: { group_id: g } })).map((m) => m.user_id);
const ok = (user_id: number): OperationResult => ({ user_id, result: 'success', reason: '' });
const fail = (user_id: number, reason: RegExp) => ({ user_id, result: 'fail', reason: expect.stringMatching(reason) });

describe('POST /group/admin/add, DELETE /group/admin/remove, GET /group/admin_list (4.1-4.3)', () => {
  it('lets the owner promote members, one result per user', async () => {
    const owner = await w.user();
    const [a, b] = [await w.user(), await w.user()];
    const stranger = await w.user();
    const g = await w.group(owner, { members: [a, b] });
    w.tick();
    const results = await w.emu.ok<OperationResult[]>(
      'POST',
      '/group/admin/add',
      as(owner, {
        body: { group_id: g, user_list: [a.id, stranger.id, owner.id, a.id] },
      }),
    );
    expect(results).toEqual([ok(a.id), fail(stranger.id, /not a member/), fail(owner.id, /owner/), fail(a.id, /already an admin/)]);
    expect(await adminIds(g)).toEqual([a.id]);
    expect((await w.info(g)).updated_at).toBe(w.now());
  });

  it('refuses admins and members with 20013, changing nothing', async () => {
    const owner = await w.user();
    const [admin, member] = [await w.user(), await w.user()];
    const g = await w.group(owner, { members: [member], admins: [admin] });
    const body = { group_id: g, user_list: [member.id] };
    expect(await w.code('POST', '/group/admin/add', as(admin, { body }))).toBe(20013);
    expect(await w.code('POST', '/group/admin/add', as(member, { body }))).toBe(20013);
    expect(await w.code('DELETE', '/group/admin/remove', as(admin, { body: { group_id: g, user_list: [admin.id] } }))).toBe(20013);
    expect(await adminIds(g)).toEqual([admin.id]);
  });

  it('lets the owner demote admins; a non-admin is a fail item', async () => {
    const owner = await w.user();
    const [a, b, m] = [await w.user(), await w.user(), await w.user()];
    const g = await w.group(owner, { members: [m], admins: [a, b] });
    const results = await w.emu.ok<OperationResult[]>(
      'POST',
      '/group/admin/remove',
      as(owner, { body: { group_id: g, user_list: [b.id, m.id] } }),
    );
    expect(results).toEqual([ok(b.id), fail(m.id, /not an admin/)]);
    expect(await adminIds(g)).toEqual([a.id]);
    expect(await memberIds(g)).toEqual([owner.id, m.id, a.id, b.id]);
  });

  it('shows admins (not the owner) as members to members; 20011 to others', async () => {
    const owner = await w.user();
    const [admin, member, stranger] = [await w.user(), await w.user(), await w.user()];
    const g = await w.group(owner, { members: [member], admins: [admin] });
    const list = await w.emu.ok<Member[]>('GET', '/group/admin_list', as(member, { query: { group_id: g } }));
    expect(list).toEqual([{ user_id: admin.id, display_name: '', expired_time: 0, join_time: w.now() }]);
    expect(await w.code('GET', '/group/admin_list', as(stranger, { query: { group_id: g } }))).toBe(20011);
    expect(await w.code('GET', '/group/admin_list', as(member, { query: { group_id: 99 } }))).toBe(20001);
  });

  // The vendor's connector adds admins so (upstream notes): "the group's administrator" has the owner's rights.
  it('lets the admin token with this group_id header add and remove admins, as the owner may', async () => {
    const owner = await w.user();
    const [a, b] = [await w.user(), await w.user()];
    const g = await w.group(owner, { members: [a, b] });
    const asGroup = (body: object) => ({ token: w.emu.adminToken, groupId: g, body: { group_id: g, ...body } });
    expect(await w.emu.ok('POST', '/group/admin/add', asGroup({ user_list: [a.id, b.id] }))).toEqual([ok(a.id), ok(b.id)]);
    expect(await adminIds(g)).toEqual([a.id, b.id]);
    expect(await w.emu.ok('DELETE', '/group/admin/remove', asGroup({ user_list: [b.id] }))).toEqual([ok(b.id)]);
    expect(await adminIds(g)).toEqual([a.id]);
    // A user_id header beside it does not lower it to that user's rank.
    const withUser = { ...asGroup({ user_list: [b.id] }), userId: b.id };
    expect(await w.emu.ok('POST', '/group/admin/add', withUser)).toEqual([ok(b.id)]);
  });

  it('gives the group_id header nothing for another group, nor with a user token', async () => {
    const owner = await w.user();
    const [admin, member] = [await w.user(), await w.user()];
    const g = await w.group(owner, { members: [member], admins: [admin] });
    const other = await w.group(owner);
    const body = { group_id: g, user_list: [member.id] };
    expect(await w.code('POST', '/group/admin/add', { token: w.emu.adminToken, groupId: other, body })).toBe(20013);
    expect(await w.code('POST', '/group/admin/add', as(admin, { groupId: g, body }))).toBe(20013);
    expect(await w.code('POST', '/group/admin/add', as(member, { groupId: g, body }))).toBe(20013);
    expect(await adminIds(g)).toEqual([admin.id]);
  });

  it('still lets the bare admin token (the app) promote in any group', async () => {
    const owner = await w.user();
    const member = await w.user();
    const g = await w.group(owner, { members: [member] });
    const byApp = await w.emu.ok<OperationResult[]>('POST', '/group/admin/add', {
      token: w.emu.adminToken,
      body: { group_id: g, user_list: [member.id] },
    });
    expect(byApp).toEqual([ok(member.id)]);
  });
});

describe('PUT /group/transfer (4.50)', () => {
  it('hands ownership to a member; the old owner stays as a plain member', async () => {
    const owner = await w.user();
    const [admin, member] = [await w.user(), await w.user()];
    const g = await w.group(owner, { members: [member], admins: [admin] });
    w.tick();
    const result = await w.emu.ok<OperationResult>('PUT', '/group/transfer', as(owner, { body: { group_id: g, new_owner: admin.id } }));
    expect(result).toEqual(ok(admin.id));
    const info = await w.info(g);
    expect(info).toMatchObject({ owner_id: admin.id, count: 3, updated_at: w.now() });
    expect(await adminIds(g)).toEqual([]);
    expect(await memberIds(g)).toContain(owner.id);
    // The old owner lost the owner's rights, the new one has them.
    expect(await w.code('POST', '/group/admin/add', as(owner, { body: { group_id: g, user_list: [member.id] } }))).toBe(20013);
    expect(await w.code('POST', '/group/admin/add', as(admin, { body: { group_id: g, user_list: [member.id] } }))).toBe(200);
    expect(await w.code('DELETE', '/group/leave', as(owner, { query: { group_id: g } }))).toBe(200);
  });

  it('lets the admin token with this group_id header transfer, as the owner may', async () => {
    const owner = await w.user();
    const member = await w.user();
    const g = await w.group(owner, { members: [member] });
    const reply = await w.emu.ok('PUT', '/group/transfer', {
      token: w.emu.adminToken,
      groupId: g,
      body: { group_id: g, new_owner: member.id },
    });
    expect(reply).toEqual(ok(member.id));
    expect((await w.info(g)).owner_id).toBe(member.id);
  });

  it('refuses non-owners (20013), non-member targets (20005) and the owner itself (10002)', async () => {
    const owner = await w.user();
    const [admin, stranger] = [await w.user(), await w.user()];
    const g = await w.group(owner, { admins: [admin] });
    expect(await w.code('PUT', '/group/transfer', as(admin, { body: { group_id: g, new_owner: admin.id } }))).toBe(20013);
    expect(await w.code('POST', '/group/transfer', as(owner, { body: { group_id: g, new_owner: stranger.id } }))).toBe(20005);
    expect(await w.code('PUT', '/group/transfer', as(owner, { body: { group_id: g, new_owner: owner.id } }))).toBe(10002);
    expect(await w.code('PUT', '/group/transfer', as(owner, { body: { group_id: g } }))).toBe(10002);
    expect((await w.info(g)).owner_id).toBe(owner.id);
  });
});

describe('DELETE /group/leave (4.34)', () => {
  it('takes a member (and an admin with their role) out', async () => {
    const owner = await w.user();
    const [admin, member] = [await w.user(), await w.user()];
    const g = await w.group(owner, { members: [member], admins: [admin] });
    w.tick();
    expect(await w.emu.ok('DELETE', '/group/leave', as(member, { query: { group_id: g } }))).toBe(true);
    expect(await w.emu.ok('POST', '/group/leave', as(admin, { query: { group_id: g } }))).toBe(true);
    expect(await memberIds(g)).toEqual([owner.id]);
    expect(await adminIds(g)).toEqual([]);
    expect(await w.info(g)).toMatchObject({ count: 1, updated_at: w.now() });
    expect(await w.emu.ok('GET', '/group/user_joined', as(member))).toEqual([]);
  });

  it('refuses the owner (20004) and non-members (20002)', async () => {
    const owner = await w.user();
    const stranger = await w.user();
    const g = await w.group(owner);
    expect(await w.code('DELETE', '/group/leave', as(owner, { query: { group_id: g } }))).toBe(20004);
    expect(await w.code('DELETE', '/group/leave', as(stranger, { query: { group_id: g } }))).toBe(20002);
    expect(await w.code('DELETE', '/group/leave', as(stranger, { query: { group_id: 5 } }))).toBe(20001);
    expect(await memberIds(g)).toEqual([owner.id]);
  });
});

describe('DELETE /group/kick (4.33)', () => {
  let owner: TestUser, admin: TestUser, admin2: TestUser, m1: TestUser, m2: TestUser, stranger: TestUser, g: number;
  beforeAll(async () => {
    [owner, admin, admin2, m1, m2, stranger] = await Promise.all([w.user(), w.user(), w.user(), w.user(), w.user(), w.user()]);
    g = await w.group(owner, { members: [m1, m2], admins: [admin, admin2] });
  });

  it('refuses members with 20012', async () => {
    expect(await w.code('DELETE', '/group/kick', as(m1, { body: { group_id: g, user_list: [m2.id] } }))).toBe(20012);
    expect(await memberIds(g)).toContain(m2.id);
  });

  it('lets admins kick members but not admins, the owner or non-members', async () => {
    const results = await w.emu.ok<OperationResult[]>(
      'DELETE',
      '/group/kick',
      as(admin, {
        body: { group_id: g, user_list: [m1.id, admin2.id, owner.id, stranger.id] },
      }),
    );
    expect(results).toEqual([ok(m1.id), fail(admin2.id, /owner/), fail(owner.id, /owner/), fail(stranger.id, /not a member/)]);
    expect(await memberIds(g)).toEqual([owner.id, m2.id, admin.id, admin2.id]);
    expect(await w.code('GET', '/group/member_list', as(m1, { query: { group_id: g } }))).toBe(20011);
  });

  it('lets the owner kick admins', async () => {
    const results = await w.emu.ok<OperationResult[]>('POST', '/group/kick', as(owner, { body: { group_id: g, user_list: [admin2.id] } }));
    expect(results).toEqual([ok(admin2.id)]);
    expect(await adminIds(g)).toEqual([admin.id]);
    expect((await w.info(g)).count).toBe(3);
  });

  it('lets the admin token with this group_id header kick admins, as the owner may', async () => {
    const body = { group_id: g, user_list: [admin.id, owner.id] };
    const results = await w.emu.ok<OperationResult[]>('DELETE', '/group/kick', { token: w.emu.adminToken, groupId: g, body });
    expect(results).toEqual([ok(admin.id), fail(owner.id, /owner/)]);
    expect(await memberIds(g)).toEqual([owner.id, m2.id]);
  });
});

describe('GET /group/member_list (4.35)', () => {
  it('pages members in join order with an opaque cursor, total and version', async () => {
    const owner = await w.user();
    const others = [await w.user(), await w.user(), await w.user(), await w.user()];
    const g = await w.group(owner, { members: others });
    const first = await w.emu.rest<Member[]>('GET', '/group/member_list', as(owner, { query: { group_id: g, limit: 2 } }));
    expect(first.data.map((m) => m.user_id)).toEqual([owner.id, others[0]!.id]);
    expect(first).toMatchObject({ total: 5, version: 0 });
    expect(first.cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const second = await w.emu.rest<Member[]>(
      'GET',
      '/group/member_list',
      as(owner, { query: { group_id: g, limit: 2, cursor: first.cursor! } }),
    );
    expect(second.data.map((m) => m.user_id)).toEqual([others[1]!.id, others[2]!.id]);
    const last = await w.emu.rest<Member[]>(
      'GET',
      '/group/member_list',
      as(owner, { query: { group_id: g, limit: 2, cursor: second.cursor! } }),
    );
    expect(last.data.map((m) => m.user_id)).toEqual([others[3]!.id]);
    expect(last.cursor).toBe('');
    const all = await w.emu.rest<Member[]>('GET', '/group/member_list', as(owner, { query: { group_id: g } }));
    expect(all).toMatchObject({ total: 5, cursor: '' });
    expect(all.data).toHaveLength(5);
  });

  it('refuses a forged cursor (10002) and non-members (20011)', async () => {
    const owner = await w.user();
    const stranger = await w.user();
    const g = await w.group(owner);
    expect(await w.code('GET', '/group/member_list', as(owner, { query: { group_id: g, cursor: 'nope' } }))).toBe(10002);
    expect(await w.code('GET', '/group/member_list', as(stranger, { query: { group_id: g } }))).toBe(20011);
    expect(await w.code('GET', '/group/member_list', as(owner, { query: { group_id: g, limit: 0 } }))).toBe(10002);
  });
});

describe('display names (4.18, 4.36)', () => {
  it('sets the acting member’s own name; members read names of listed members only', async () => {
    const owner = await w.user();
    const member = await w.user();
    const stranger = await w.user();
    const g = await w.group(owner, { members: [member] });
    expect(await w.emu.ok('PUT', '/group/display_name', as(member, { body: { group_id: g, value: 'Mia' } }))).toBe(true);
    const names = await w.emu.ok<Member[]>(
      'POST',
      '/group/members/display_name',
      as(owner, {
        body: { group_id: g, user_list: [member.id, stranger.id, owner.id, member.id] },
      }),
    );
    expect(names).toEqual([
      { user_id: member.id, display_name: 'Mia', expired_time: 0, join_time: w.now() },
      { user_id: owner.id, display_name: '', expired_time: 0, join_time: w.now() },
    ]);
    expect(await w.code('PUT', '/group/display_name', as(stranger, { body: { group_id: g, value: 'X' } }))).toBe(20002);
    expect(await w.code('POST', '/group/members/display_name', as(stranger, { body: { group_id: g, user_list: [owner.id] } }))).toBe(20011);
    expect(await w.code('PUT', '/group/display_name', as(member, { body: { group_id: g } }))).toBe(10002);
  });
});

describe('mute and push modes (4.37, 4.38)', () => {
  it("are the acting member's own and show in the records that member reads", async () => {
    const owner = await w.user();
    const member = await w.user();
    const g = await w.group(owner, { members: [member] });
    const mute = await w.emu.ok('PUT', '/group/msg/mute_mode', as(member, { body: { group_id: g, msg_mute_mode: 2 } }));
    expect(mute).toEqual({ group_id: g, user_id: member.id, msg_mute_mode: 2 });
    const push = await w.emu.ok('POST', '/group/msg/push_mode', as(member, { body: { group_id: g, msg_push_mode: 4 } }));
    expect(push).toEqual({ group_id: g, user_id: member.id, msg_push_mode: 4 });
    const mine = await w.emu.ok<Group>('GET', '/group/info', as(member, { query: { group_id: g } }));
    expect(mine).toMatchObject({ msg_mute_mode: 2, msg_push_mode: 4 });
    const owners = await w.emu.ok<Group>('GET', '/group/settings', as(owner, { query: { group_id: g } }));
    expect(owners).toMatchObject({ msg_mute_mode: 0, msg_push_mode: 0 });
    const [summary] = await w.emu.ok<GroupSummary[]>('POST', '/group/info/batch', as(member, { body: { group_list: [g] } }));
    expect(summary).toMatchObject({ msg_mute_mode: 2, msg_push_mode: 4 });
  });

  it('refuses out-of-range modes (10002) and non-members (20002)', async () => {
    const owner = await w.user();
    const stranger = await w.user();
    const g = await w.group(owner);
    expect(await w.code('PUT', '/group/msg/mute_mode', as(owner, { body: { group_id: g, msg_mute_mode: 3 } }))).toBe(10002);
    expect(await w.code('PUT', '/group/msg/push_mode', as(owner, { body: { group_id: g, msg_push_mode: 5 } }))).toBe(10002);
    expect(await w.code('PUT', '/group/msg/mute_mode', as(stranger, { body: { group_id: g, msg_mute_mode: 1 } }))).toBe(20002);
    expect(await w.code('PUT', '/group/msg/push_mode', as(stranger, { body: { group_id: g, msg_push_mode: 1 } }))).toBe(20002);
  });
});
