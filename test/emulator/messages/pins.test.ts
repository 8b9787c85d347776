// 1.42-1.44 conversation pins: each user's pin list (most recently pinned first, at most 50),
// which conversations may be pinned, what ends a pin, and what pins do to 5.7 (pinned first).
import { describe, expect, it } from 'vitest';
import { MAX_PINS } from '../../../src/emulator/messages/pins';
import type { PinList } from '../../../src/rest/records';
import { createGroup } from '../../helpers/groups';
import { type TestUser, useEmulator } from '../../helpers/emulator';
import { messaging, text } from './rest';

let now = Date.now();
const emu = useEmulator({ clock: () => now });
const { unread, send } = messaging(emu);

const pin = (u: TestUser, id: number, method = 'PUT') =>
  emu.rest(method, '/user/conversation/pin', { token: u.token, body: { conversation_id: id } });
const unpin = (u: TestUser, id: number, method = 'PUT') =>
  emu.rest(method, '/user/conversation/unpin', { token: u.token, body: { conversation_id: id } });
const pinned = async (u: TestUser) =>
  (await emu.ok<PinList>('GET', '/user/conversation/pin_list', { token: u.token })).conversation_ids.map(Number);

async function pinAll(u: TestUser, ids: number[]): Promise<void> {
  for (const id of ids) expect((await pin(u, id)).code).toBe(200);
}

const order = async (u: TestUser) => (await unread(u)).map((e) => Number(e.conversation_id.uid));

describe('1.42-1.44 pin, pin_list, unpin', () => {
  it('lists pins most recently pinned first; a repeated pin or an unpin of a loose one changes nothing', async () => {
    const [a, b, c] = [await emu.user(), await emu.user(), await emu.user()];
    const g = await createGroup(emu, a);
    expect(await pinned(a)).toEqual([]);
    expect(await pin(a, b.id)).toMatchObject({ code: 200, data: true });
    expect((await pin(a, g, 'POST')).code).toBe(200);
    await pinAll(a, [c.id]);
    expect(await pinned(a)).toEqual([c.id, g, b.id]);

    expect(await pin(a, b.id)).toMatchObject({ code: 200, data: true });
    expect(await pinned(a)).toEqual([c.id, g, b.id]);

    expect(await unpin(a, g, 'POST')).toMatchObject({ code: 200, data: true });
    expect(await pinned(a)).toEqual([c.id, b.id]);
    expect(await unpin(a, g)).toMatchObject({ code: 200, data: true });
    expect(await pinned(a)).toEqual([c.id, b.id]);
    // Pins are the user's own.
    expect(await pinned(b)).toEqual([]);
  });

  it('acts as the user of the user_id header with the admin token', async () => {
    const [a, b] = [await emu.user(), await emu.user()];
    await emu.ok('PUT', '/user/conversation/pin', { token: emu.adminToken, userId: a.id, body: { conversation_id: b.id } });
    expect(await pinned(a)).toEqual([b.id]);
  });

  it('refuses conversations the user does not have, changing nothing', async () => {
    const [a, b, outsider] = [await emu.user(), await emu.user(), await emu.user()];
    const g = await createGroup(emu, outsider);
    const dissolved = await createGroup(emu, a);
    await emu.ok('DELETE', '/group/destroy', { token: a.token, query: { group_id: dissolved } });
    await pinAll(a, [b.id]);
    for (const [id, code] of [
      [2_999_999_999_999, 10000], // no user or group
      [g, 20002], // a group the user is not in
      [dissolved, 20001],
      [0, 10000], // the system, before any notification
    ] as const) {
      const reply = await pin(a, id);
      expect([id, reply.code]).toEqual([id, code]);
      expect(await pinned(a)).toEqual([b.id]);
    }
  });

  it('pins the conversation of system notifications once the user has one', async () => {
    const a = await emu.user();
    await emu.ok('POST', '/message/notify', { token: emu.adminToken, body: text([a.id]) });
    expect((await pin(a, 0)).code).toBe(200);
    expect(await pinned(a)).toEqual([0]);
  });

  it(`refuses pin number ${MAX_PINS + 1} with 10002 naming conversation_id; a pinned one still pins`, async () => {
    const a = await emu.user();
    const others = await Promise.all(Array.from({ length: MAX_PINS + 1 }, () => emu.user()));
    await pinAll(
      a,
      others.slice(0, MAX_PINS).map((u) => u.id),
    );
    const full = await pinned(a);
    expect(full).toHaveLength(MAX_PINS);
    const reply = await pin(a, others[MAX_PINS]!.id);
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('conversation_id');
    expect(await pinned(a)).toEqual(full);
    expect((await pin(a, others[0]!.id)).code).toBe(200);
    expect(await pinned(a)).toEqual(full);
  });
});

describe('what ends a pin', () => {
  it('deleting the conversation (5.3) unpins it', async () => {
    const [a, b, c] = [await emu.user(), await emu.user(), await emu.user()];
    await send(b, text([a.id]));
    await pinAll(a, [b.id, c.id]);
    await emu.ok('DELETE', '/message/conversation', { token: a.token, query: { conversation_id: b.id } });
    expect(await pinned(a)).toEqual([c.id]);
  });

  it('leaving a group ends its pin, and rejoining does not bring it back', async () => {
    const [owner, a] = [await emu.user(), await emu.user()];
    const g = await createGroup(emu, owner, { members: [a] });
    await pinAll(a, [g]);
    await emu.ok('DELETE', '/group/leave', { token: a.token, query: { group_id: g } });
    now += 1000;
    await emu.ok('POST', '/group/invite', { token: owner.token, body: { group_id: g, user_list: [a.id] } });
    expect(await pinned(a)).toEqual([]);
    // Pinned again in the new membership, it lasts.
    await pinAll(a, [g]);
    expect(await pinned(a)).toEqual([g]);
  });

  it('a dissolved group and a deleted user leave the list', async () => {
    const [a, b] = [await emu.user(), await emu.user()];
    const g = await createGroup(emu, a);
    await pinAll(a, [b.id, g]);
    await emu.ok('DELETE', '/group/destroy', { token: a.token, query: { group_id: g } });
    expect(await pinned(a)).toEqual([b.id]);
    await emu.ok('DELETE', '/user/delete', { token: emu.adminToken, userId: b.id });
    expect(await pinned(a)).toEqual([]);
  });
});

describe('pins in 5.7 GET /message/unread', () => {
  it('lists pinned conversations first, in pin order, then the others newest activity first', async () => {
    const [a, b, c, d, e] = [await emu.user(), await emu.user(), await emu.user(), await emu.user(), await emu.user()];
    for (const from of [b, c, d]) await send(from, text([a.id]));
    expect(await order(a)).toEqual([d.id, c.id, b.id]);
    await pinAll(a, [b.id, c.id, e.id]);
    // e has no session yet: a pin does not make one.
    expect(await order(a)).toEqual([c.id, b.id, d.id]);
    await send(e, text([a.id]));
    expect(await order(a)).toEqual([e.id, c.id, b.id, d.id]);
    // New activity reorders the unpinned ones only.
    await send(b, text([a.id]));
    await send(d, text([a.id]));
    expect(await unread(a)).toEqual([
      { conversation_id: { uid: e.id }, num: 1 },
      { conversation_id: { uid: c.id }, num: 1 },
      { conversation_id: { uid: b.id }, num: 2 },
      { conversation_id: { uid: d.id }, num: 2 },
    ]);
    await unpin(a, c.id);
    expect(await order(a)).toEqual([e.id, b.id, d.id, c.id]);
  });
});
