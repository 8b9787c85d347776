// Group messaging through the GroupState contract: who may send to a group (PUT /message/send
// type 2) and what a new member reads of its history (history_visible).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationPage } from '../../../src/rest/records';
import type { RestRequest } from '../../helpers/emulator';
import { as, type GroupsWorld, startGroupsWorld, type TestUser } from '../../helpers/groups-world';

let w: GroupsWorld;
beforeAll(async () => {
  w = await startGroupsWorld();
});
afterAll(() => w.emu.stop());

const sendBody = (g: number, content: string) => ({ content_type: 0, content, attachment: '', targets: [g], type: 2 });
const send = (req: RestRequest, g: number, content = 'hello') =>
  w.code('PUT', '/message/send', { ...req, body: { ...sendBody(g, content), ...(req.body as object | undefined) } });
const history = async (u: TestUser, g: number) =>
  (
    await w.emu.ok<ConversationPage>('GET', '/message/conversation', as(u, { query: { opposite_id: g, msg_id_start: 0, limit: 50 } }))
  ).messages.map((m) => m.content);

describe('sending to a group', () => {
  let owner: TestUser, admin: TestUser, member: TestUser, other: TestUser, stranger: TestUser, g: number;
  beforeAll(async () => {
    [owner, admin, member, other, stranger] = await Promise.all([w.user(), w.user(), w.user(), w.user(), w.user()]);
    g = await w.group(owner, { members: [member, other], admins: [admin] });
  });

  it('lets a member send; every member receives it', async () => {
    expect(await send(as(member), g, 'hi all')).toBe(200);
    expect(await history(other, g)).toContain('hi all');
    expect(await history(owner, g)).toContain('hi all');
  });

  it('refuses a non-member with 20002 and an unknown group with 20001', async () => {
    expect(await send(as(stranger), g)).toBe(20002);
    expect(await send(as(stranger), 4_000_999_999_999)).toBe(20001);
  });

  it('refuses a dissolved group with 20001', async () => {
    const g2 = await w.group(owner, { members: [member] });
    await w.emu.ok('DELETE', '/group/destroy', as(owner, { query: { group_id: g2 } }));
    expect(await send(as(member), g2)).toBe(20001);
  });

  it('refuses a banned member with 10010 until the ban ends', async () => {
    await w.emu.ok('POST', '/group/ban', as(admin, { body: { group_id: g, duration: 1, user_list: [member.id] } }));
    expect(await send(as(member), g, 'muted?')).toBe(10010);
    expect(await send(as(other), g, 'other speaks')).toBe(200);
    w.tick(60_000);
    expect(await send(as(member), g, 'back')).toBe(200);
    await w.emu.ok('POST', '/group/ban', as(admin, { body: { group_id: g, duration: 5, user_list: [member.id] } }));
    await w.emu.ok('POST', '/group/unban', as(admin, { body: { group_id: g, user_list: [member.id] } }));
    expect(await send(as(member), g, 'unbanned')).toBe(200);
    expect(await history(owner, g)).not.toContain('muted?');
  });

  it('lets only the owner and admins send while a ban-all holds', async () => {
    await w.emu.ok('POST', '/group/settings/ban_all', as(owner, { body: { group_id: g, duration: 10 } }));
    expect(await send(as(member), g)).toBe(10010);
    expect(await send({ token: w.emu.adminToken, userId: member.id }, g)).toBe(10010);
    expect(await send(as(admin), g)).toBe(200);
    expect(await send(as(owner), g)).toBe(200);
    // The admin token with this group's group_id header is an admin of it.
    expect(await send({ token: w.emu.adminToken, groupId: g, body: { from_user_id: member.id } }, g)).toBe(200);
    await w.emu.ok('POST', '/group/settings/unban_all', as(admin, { body: { group_id: g } }));
    expect(await send(as(member), g)).toBe(200);
  });

  // Last in this block: it moves the clock past the users' tokens.
  it('ends a timed ban-all by itself; a permanent one (-1) holds', async () => {
    await w.emu.ok('POST', '/group/settings/ban_all', as(owner, { body: { group_id: g, duration: 1 } }));
    expect(await send(as(member), g)).toBe(10010);
    w.tick(61_000);
    expect(await send(as(member), g)).toBe(200);
    await w.emu.ok('POST', '/group/settings/ban_all', as(owner, { body: { group_id: g, duration: -1 } }));
    w.tick(10 * 24 * 3600_000 - 1);
    expect(await send({ token: w.emu.adminToken, userId: member.id }, g)).toBe(10010);
    await w.emu.ok('POST', '/group/settings/unban_all', { token: w.emu.adminToken, groupId: g, body: { group_id: g } });
  });
});

describe("a new member's history", () => {
  it.each([
    [false, ['after']],
    [true, ['before', 'after']],
  ] as const)('history_visible %s: the newcomer reads %j', async (visible, expected) => {
    // Fresh users: the previous describe block moved the clock by days, past their tokens.
    const owner = await w.user();
    const g = await w.group(owner);
    await w.emu.ok('PUT', '/group/settings/history_visible', as(owner, { body: { group_id: g, value: visible } }));
    expect(await send(as(owner), g, 'before')).toBe(200);
    w.tick();
    const newcomer = await w.user();
    await w.emu.ok('POST', '/group/invite', as(owner, { body: { group_id: g, user_list: [newcomer.id] } }));
    w.tick();
    expect(await send(as(owner), g, 'after')).toBe(200);
    expect((await history(newcomer, g)).sort()).toEqual([...expected].sort());
    expect((await history(owner, g)).sort()).toEqual(['after', 'before']);
  });
});
