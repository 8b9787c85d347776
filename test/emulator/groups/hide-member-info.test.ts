// What hide_member_info (4.54) hides, and from whom: plain members see the other members' IDs
// without their details in every member list (4.35, 4.36, 4.3, 4.13); the owner, admins and the
// admin token see everything; a member's own entry stays whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../../../src/rest/records';
import type { RestRequest } from '../../helpers/emulator';
import { as, type GroupsWorld, startGroupsWorld, type TestUser } from '../../helpers/groups-world';

let w: GroupsWorld;
let owner: TestUser, admin: TestUser, reader: TestUser, named: TestUser, g: number;
let joined: number;

beforeAll(async () => {
  w = await startGroupsWorld();
  [owner, admin, reader, named] = [await w.user(), await w.user(), await w.user(), await w.user()];
  g = await w.group(owner, { members: [reader, named], admins: [admin] });
  joined = w.now();
  for (const u of [owner, admin, reader, named]) {
    await w.emu.ok('PUT', '/group/display_name', as(u, { body: { group_id: g, value: `${u.name} here` } }));
  }
  // A banned member, so the banned list has someone in it.
  await w.emu.ok('POST', '/group/ban', as(owner, { body: { group_id: g, user_list: [named.id], duration: 60 } }));
});
afterAll(() => w.emu.stop());

const hide = (value: boolean) => w.emu.ok('PUT', '/group/settings/hide_member_info', as(owner, { body: { group_id: g, value } }));

const whole = (u: TestUser): Member => ({
  user_id: u.id,
  display_name: `${u.name} here`,
  join_time: joined,
  expired_time: u === named ? joined + 60 * 60_000 : 0,
});
const blanked = (u: TestUser): Member => ({ ...whole(u), display_name: '', join_time: 0 });

/** The four member lists as one caller reads them. */
async function listsSeenBy(who: Omit<RestRequest, 'query' | 'body'>) {
  const q = { ...who, query: { group_id: g } };
  return {
    members: await w.emu.ok<Member[]>('GET', '/group/member_list', q),
    lookup: await w.emu.ok<Member[]>('POST', '/group/members/display_name', {
      ...who,
      body: { group_id: g, user_list: [named.id, reader.id, owner.id] },
    }),
    admins: await w.emu.ok<Member[]>('GET', '/group/admin_list', q),
    banned: await w.emu.ok<Member[]>('GET', '/group/banned_list', q),
  };
}

const everything = () => ({
  members: [owner, reader, named, admin].map(whole),
  lookup: [named, reader, owner].map(whole),
  admins: [whole(admin)],
  banned: [whole(named)],
});

describe('hide_member_info off (the default)', () => {
  it('shows every member whole to a plain member', async () => {
    await hide(false);
    expect(await listsSeenBy({ token: reader.token })).toEqual(everything());
  });
});

describe('hide_member_info on', () => {
  beforeAll(() => hide(true));

  it("blanks the other members' display names and join times for a plain member, keeping IDs and bans", async () => {
    expect(await listsSeenBy({ token: reader.token })).toEqual({
      members: [blanked(owner), whole(reader), blanked(named), blanked(admin)],
      lookup: [blanked(named), whole(reader), blanked(owner)],
      admins: [blanked(admin)],
      banned: [blanked(named)],
    });
  });

  it('hides from the admin token acting as a plain member (user_id header) as from that member', async () => {
    const seen = await listsSeenBy({ token: w.emu.adminToken, userId: reader.id });
    expect(seen.members).toEqual([blanked(owner), whole(reader), blanked(named), blanked(admin)]);
  });

  it('hides nothing from the owner or an admin', async () => {
    expect(await listsSeenBy({ token: owner.token })).toEqual(everything());
    expect(await listsSeenBy({ token: admin.token })).toEqual(everything());
  });

  it('hides nothing from the admin token, bare or with this group_id header', async () => {
    expect(await listsSeenBy({ token: w.emu.adminToken })).toEqual(everything());
    expect(await listsSeenBy({ token: w.emu.adminToken, groupId: g })).toEqual(everything());
  });

  it('still refuses non-members with 20011', async () => {
    const stranger = await w.user();
    expect(await w.code('GET', '/group/member_list', as(stranger, { query: { group_id: g } }))).toBe(20011);
    expect(await w.code('POST', '/group/members/display_name', as(stranger, { body: { group_id: g, user_list: [owner.id] } }))).toBe(20011);
  });

  it('lets only the owner and admins switch it (20012 for members); switched off, members see everything again', async () => {
    const path = '/group/settings/hide_member_info';
    expect(await w.code('PUT', path, as(reader, { body: { group_id: g, value: false } }))).toBe(20012);
    expect((await w.info(g)).hide_member_info).toBe(true);
    await w.emu.ok('POST', path, as(admin, { body: { group_id: g, value: false } }));
    expect(await listsSeenBy({ token: reader.token })).toEqual(everything());
    await w.emu.ok('POST', path, as(admin, { body: { group_id: g, value: true } }));
  });
});
