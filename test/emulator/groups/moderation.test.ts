// Moderation: member bans (4.12, 4.51, 4.13), the group-wide ban (4.45, 4.49) and the
// blacklist (4.14, 4.52, 4.15).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlacklistEntry, GroupQrCode, Member, OperationResult } from '../../../src/rest/records';
import { as, type GroupsWorld, startGroupsWorld, type TestUser } from '../../helpers/groups-world';

let w: GroupsWorld;
beforeAll(async () => {
  w = await startGroupsWorld();
});
afterAll(() => w.emu.stop());

const ok = (user_id: number): OperationResult => ({ user_id, result: 'success', reason: '' });
const fail = (user_id: number, reason: RegExp) => ({ user_id, result: 'fail', reason: expect.stringMatching(reason) });
const banned = (by: TestUser, g: number, query = {}) =>
  w.emu.rest<Member[]>('GET', '/group/banned_list', as(by, { query: { group_id: g, ...query } }));
const memberIds = async (g: number) =>
  (await w.emu.ok<Member[]>('GET', '/group/member_list', { token: w.emu.adminToken, query: { group_id: g } })).map((m) => m.user_id);

describe('POST /group/ban, POST /group/unban, GET /group/banned_list (4.12, 4.51, 4.13)', () => {
  let owner: TestUser, admin: TestUser, admin2: TestUser, m1: TestUser, m2: TestUser, stranger: TestUser, g: number;
  beforeAll(async () => {
    [owner, admin, admin2, m1, m2, stranger] = await Promise.all([w.user(), w.user(), w.user(), w.user(), w.user(), w.user()]);
    g = await w.group(owner, { members: [m1, m2], admins: [admin, admin2] });
  });

  it('lets admins ban members for minutes: expired_time = now + duration × 60000 ms', async () => {
    const results = await w.emu.ok<OperationResult[]>(
      'POST',
      '/group/ban',
      as(admin, {
        body: { group_id: g, duration: 10, user_list: [m1.id, admin2.id, owner.id, stranger.id] },
      }),
    );
    expect(results).toEqual([ok(m1.id), fail(admin2.id, /owner/), fail(owner.id, /owner/), fail(stranger.id, /not a member/)]);
    const list = await banned(m2, g);
    expect(list.data).toEqual([{ user_id: m1.id, display_name: '', join_time: expect.any(Number), expired_time: w.now() + 600_000 }]);
    expect(list).toMatchObject({ total: 1, cursor: '', version: 0 });
  });

  it('lets the owner ban admins', async () => {
    const results = await w.emu.ok<OperationResult[]>(
      'POST',
      '/group/ban',
      as(owner, { body: { group_id: g, duration: 1, user_list: [admin2.id] } }),
    );
    expect(results).toEqual([ok(admin2.id)]);
    expect((await banned(owner, g)).data.map((m) => m.user_id)).toEqual([m1.id, admin2.id]);
  });

  it('refuses members (20012), bad durations (10002) and non-members reading the list (20011)', async () => {
    expect(await w.code('POST', '/group/ban', as(m1, { body: { group_id: g, duration: 5, user_list: [m2.id] } }))).toBe(20012);
    expect(await w.code('POST', '/group/ban', as(admin, { body: { group_id: g, duration: 0, user_list: [m2.id] } }))).toBe(10002);
    expect(await w.code('POST', '/group/ban', as(admin, { body: { group_id: g, duration: -1, user_list: [m2.id] } }))).toBe(10002);
    expect(await w.code('POST', '/group/ban', as(admin, { body: { group_id: g, user_list: [m2.id] } }))).toBe(10002);
    expect((await banned(stranger, g)).code).toBe(20011);
    expect((await banned(owner, g)).data.map((m) => m.user_id)).not.toContain(m2.id);
  });

  it('pages the banned list', async () => {
    const first = await banned(owner, g, { limit: 1 });
    expect(first.data.map((m) => m.user_id)).toEqual([m1.id]);
    expect(first.total).toBe(2);
    const second = await banned(owner, g, { limit: 1, cursor: first.cursor! });
    expect(second.data.map((m) => m.user_id)).toEqual([admin2.id]);
    expect(second.cursor).toBe('');
  });

  it('drops expired bans from the list', async () => {
    w.tick(60_000);
    expect((await banned(owner, g)).data.map((m) => m.user_id)).toEqual([m1.id]);
  });

  it('lifts bans (admins; not on admins unless the owner); a member not banned is a fail item', async () => {
    await w.emu.ok('POST', '/group/ban', as(owner, { body: { group_id: g, duration: 5, user_list: [admin2.id] } }));
    const byAdmin = await w.emu.ok<OperationResult[]>(
      'POST',
      '/group/unban',
      as(admin, {
        body: { group_id: g, user_list: [m1.id, m2.id, admin2.id, stranger.id] },
      }),
    );
    expect(byAdmin).toEqual([ok(m1.id), fail(m2.id, /not banned/), fail(admin2.id, /owner/), fail(stranger.id, /not a member/)]);
    expect(await w.code('POST', '/group/unban', as(m2, { body: { group_id: g, user_list: [admin2.id] } }))).toBe(20012);
    expect(await w.emu.ok('POST', '/group/unban', as(owner, { body: { group_id: g, user_list: [admin2.id] } }))).toEqual([ok(admin2.id)]);
    expect((await banned(owner, g)).data).toEqual([]);
    const [m1Record] = await w.emu.ok<Member[]>(
      'POST',
      '/group/members/display_name',
      as(owner, { body: { group_id: g, user_list: [m1.id] } }),
    );
    expect(m1Record?.expired_time).toBe(0);
  });
});

describe('POST /group/settings/ban_all, POST /group/settings/unban_all (4.45, 4.49)', () => {
  it('sets ban_expire_time in seconds (now/1000 + duration × 60); -1 is permanent; unban_all sets 0', async () => {
    const owner = await w.user();
    const [admin, member] = [await w.user(), await w.user()];
    const g = await w.group(owner, { members: [member], admins: [admin] });
    w.tick();
    const reply = await w.emu.ok('POST', '/group/settings/ban_all', as(admin, { body: { group_id: g, duration: 30 } }));
    const expected = Math.floor(w.now() / 1000) + 1800;
    expect(reply).toEqual({ ban_expire_time: expected });
    expect(await w.info(g)).toMatchObject({ ban_expire_time: expected, updated_at: w.now() });
    expect(await w.emu.ok('POST', '/group/settings/ban_all', as(owner, { body: { group_id: g, duration: -1 } }))).toEqual({
      ban_expire_time: -1,
    });
    expect((await w.info(g)).ban_expire_time).toBe(-1);
    expect(await w.emu.ok('POST', '/group/settings/unban_all', as(admin, { body: { group_id: g } }))).toBe(true);
    expect((await w.info(g)).ban_expire_time).toBe(0);
  });

  it('refuses members (20012) and durations other than -1 or 1.. minutes (10002)', async () => {
    const owner = await w.user();
    const member = await w.user();
    const g = await w.group(owner, { members: [member] });
    expect(await w.code('POST', '/group/settings/ban_all', as(member, { body: { group_id: g, duration: 5 } }))).toBe(20012);
    expect(await w.code('POST', '/group/settings/ban_all', as(owner, { body: { group_id: g, duration: 0 } }))).toBe(10002);
    expect(await w.code('POST', '/group/settings/ban_all', as(owner, { body: { group_id: g, duration: -2 } }))).toBe(10002);
    expect((await w.info(g)).ban_expire_time).toBe(0);
    await w.emu.ok('POST', '/group/settings/ban_all', as(owner, { body: { group_id: g, duration: 5 } }));
    expect(await w.code('POST', '/group/settings/unban_all', as(member, { body: { group_id: g } }))).toBe(20012);
    expect((await w.info(g)).ban_expire_time).toBeGreaterThan(0);
  });
});

describe('POST /group/block, DELETE /group/unblock, GET /group/blocked_list (4.14, 4.52, 4.15)', () => {
  let owner: TestUser, admin: TestUser, admin2: TestUser, member: TestUser, outsider: TestUser, g: number;
  beforeAll(async () => {
    [owner, admin, admin2, member, outsider] = await Promise.all([w.user(), w.user(), w.user(), w.user(), w.user()]);
    g = await w.group(owner, { members: [member], admins: [admin, admin2] });
  });
  const blocked = (by: TestUser, query = {}) =>
    w.emu.rest<BlacklistEntry[]>('GET', '/group/blocked_list', as(by, { query: { group_id: g, ...query } }));

  it('removes members and keeps them out; outsiders may be blocked ahead', async () => {
    w.tick();
    const results = await w.emu.ok<OperationResult[]>(
      'POST',
      '/group/block',
      as(admin, {
        body: { group_id: g, user_list: [member.id, outsider.id, admin2.id, owner.id, 777, member.id] },
      }),
    );
    expect(results).toEqual([
      ok(member.id),
      ok(outsider.id),
      fail(admin2.id, /owner/),
      fail(owner.id, /owner/),
      fail(777, /does not exist/),
      fail(member.id, /already on the blacklist/),
    ]);
    expect(await memberIds(g)).toEqual([owner.id, admin.id, admin2.id]);
    const list = await blocked(owner);
    expect(list.data).toEqual([
      { group_id: g, user_id: member.id, created_at: new Date(w.now()).toISOString() },
      { group_id: g, user_id: outsider.id, created_at: new Date(w.now()).toISOString() },
    ]);
    expect(list).toMatchObject({ total: 2, cursor: '', version: 0 });
    // Kept out on every path: apply, invite, QR.
    expect(await w.code('POST', '/group/apply', as(member, { body: { group_id: g } }))).toBe(20018);
    const invited = await w.emu.ok<OperationResult[]>(
      'POST',
      '/group/invite',
      as(owner, { body: { group_id: g, user_list: [outsider.id] } }),
    );
    expect(invited).toEqual([fail(outsider.id, /blacklist/)]);
    const qr = await w.emu.ok<GroupQrCode>('GET', '/group/qrcode/sign', as(owner, { query: { group_id: g } }));
    expect(await w.code('POST', '/group/qrcode/invite', as(outsider, { body: { qr_info: qr.qr_info } }))).toBe(20018);
  });

  it('lets the owner block admins, removing their role', async () => {
    expect(await w.emu.ok('POST', '/group/block', as(owner, { body: { group_id: g, user_list: [admin2.id] } }))).toEqual([ok(admin2.id)]);
    const admins = await w.emu.ok<Member[]>('GET', '/group/admin_list', as(owner, { query: { group_id: g } }));
    expect(admins.map((m) => m.user_id)).toEqual([admin.id]);
  });

  it('refuses members (20012) blocking, unblocking or reading the list', async () => {
    const m = await w.user();
    await w.emu.ok('POST', '/group/invite', as(owner, { body: { group_id: g, user_list: [m.id] } }));
    expect(await w.code('POST', '/group/block', as(m, { body: { group_id: g, user_list: [admin.id] } }))).toBe(20012);
    expect(await w.code('DELETE', '/group/unblock', as(m, { body: { group_id: g, user_list: [member.id] } }))).toBe(20012);
    expect((await blocked(m)).code).toBe(20012);
    expect((await blocked(owner)).total).toBe(3);
  });

  it('pages the blacklist', async () => {
    const first = await blocked(admin, { limit: 2 });
    expect(first.data.map((e) => e.user_id)).toEqual([member.id, outsider.id]);
    const second = await blocked(admin, { limit: 2, cursor: first.cursor! });
    expect(second.data.map((e) => e.user_id)).toEqual([admin2.id]);
    expect(second.cursor).toBe('');
  });

  it('unblocks; the user may then apply again', async () => {
    const results = await w.emu.ok<OperationResult[]>(
      'POST',
      '/group/unblock',
      as(admin, { body: { group_id: g, user_list: [member.id, admin.id] } }),
    );
    expect(results).toEqual([ok(member.id), fail(admin.id, /not on the blacklist/)]);
    expect((await blocked(owner)).data.map((e) => e.user_id)).toEqual([outsider.id, admin2.id]);
    expect(await w.code('POST', '/group/apply', as(member, { body: { group_id: g } }))).toBe(200);
  });
});
