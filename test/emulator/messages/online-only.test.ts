// online_only (2026 send-body): only receivers online at that moment (not banned, holding a live
// token: what GET /user/online_status answers) get the message; for the others it is not stored
// at all, and msg_ids are answered as usual.
import { describe, expect, it } from 'vitest';
import { createGroup } from '../../helpers/groups';
import { type TestUser, useEmulator } from '../../helpers/emulator';
import { contents, messaging, text } from './rest';

const emu = useEmulator();
const { history, unread, send } = messaging(emu);

const onlineStatus = async (u: TestUser) =>
  (await emu.ok<{ online: boolean }>('GET', '/user/online_status', { token: emu.adminToken, userId: u.id })).online;

/** A user logged out of everything (PUT /user/kick revokes its tokens). */
async function offlineUser(): Promise<TestUser> {
  const u = await emu.user();
  await emu.ok('PUT', '/user/kick', { token: u.token });
  return u;
}

/** Logs the user in again; answers it with the new token. */
async function login(u: TestUser): Promise<TestUser> {
  const grant = await emu.ok<{ token: string }>('POST', '/token/user', { body: { name: u.name, password: u.password } });
  return { ...u, token: grant.token };
}

describe('online_only to users', () => {
  it('stores nothing for an offline receiver, keeps it for the sender, and answers msg_ids', async () => {
    const a = await emu.user();
    const b = await offlineUser();
    expect(await onlineStatus(b)).toBe(false);
    const reply = await send(a, text([b.id], { content: 'typing…', online_only: true }));
    expect(reply.code).toBe(200);
    expect(reply.msg_ids).toHaveLength(1);
    // Without online_only the offline receiver gets it all the same.
    await send(a, text([b.id], { content: 'stored' }));

    const back = await login(b);
    expect(contents(await history(back, a.id))).toEqual(['stored']);
    expect(await unread(back)).toEqual([{ conversation_id: { uid: a.id }, num: 1 }]);
    expect((await history(a, b.id)).map((m) => m.msg_id)).toContain(reply.msg_ids![0]);
  });

  it('delivers to an online receiver like any message', async () => {
    const a = await emu.user();
    const b = await emu.user();
    expect(await onlineStatus(b)).toBe(true);
    const reply = await send(a, text([b.id], { content: 'now', online_only: true }));
    expect(await history(b, a.id)).toMatchObject([{ msg_id: reply.msg_ids![0], content: 'now', status: 'UNREAD' }]);
    expect(await unread(b)).toEqual([{ conversation_id: { uid: a.id }, num: 1 }]);
  });

  it('counts a banned receiver as offline', async () => {
    const a = await emu.user();
    const b = await emu.user();
    await emu.ok('PUT', '/user/disable', { token: emu.adminToken, body: { list: [b.id] } });
    expect(await onlineStatus(b)).toBe(false);
    await send(a, text([b.id], { online_only: true }));
    await emu.ok('PUT', '/user/enable', { token: emu.adminToken, body: { list: [b.id] } });
    expect(await history(b, a.id)).toEqual([]);
    expect(await unread(b)).toEqual([]);
  });

  it('lets neither an ack by msg_id nor a READ_ACK name a message not kept for the reader (10002)', async () => {
    const a = await emu.user();
    const b = await offlineUser();
    const hidden = BigInt((await send(a, text([b.id], { online_only: true }))).msg_ids![0]!);
    await send(a, text([b.id], { content: 'visible' }));
    const back = await login(b);
    const ack = await emu.rest('GET', '/message/ack', { token: back.token, query: { msg_id: hidden } });
    expect(ack.code).toBe(10002);
    const readAck = await send(back, text([a.id], { content_type: 9, content: '', related_mid: hidden }));
    expect(readAck.code).toBe(10002);
    expect(readAck.message).toContain('related_mid');
    expect(await unread(back)).toEqual([{ conversation_id: { uid: a.id }, num: 1 }]);
  });

  it('holds for system notifications too', async () => {
    const b = await offlineUser();
    const c = await emu.user();
    const reply = await emu.rest('POST', '/message/notify', { token: emu.adminToken, body: text([b.id, c.id], { online_only: true }) });
    expect(reply.code).toBe(200);
    expect(await history(await login(b), 0)).toEqual([]);
    expect(await history(c, 0)).toHaveLength(1);
  });
});

describe('online_only to a group', () => {
  it('reaches the online members only; the offline one finds neither message nor count', async () => {
    const a = await emu.user();
    const on = await emu.user();
    const off = await emu.user();
    const g = await createGroup(emu, a, { members: [on, off] });
    await emu.ok('PUT', '/user/kick', { token: off.token });
    const reply = await send(a, text([g], { type: 2, content: 'live only', online_only: true }));
    expect(reply.msg_ids).toHaveLength(1);
    await send(a, text([g], { type: 2, content: 'for all' }));

    expect(contents(await history(on, g))).toEqual(['for all', 'live only']);
    expect(await unread(on)).toEqual([{ conversation_id: { uid: g }, num: 2 }]);
    const back = await login(off);
    expect(contents(await history(back, g))).toEqual(['for all']);
    expect(await unread(back)).toEqual([{ conversation_id: { uid: g }, num: 1 }]);
    expect(contents(await history(a, g))).toEqual(['for all', 'live only']);
  });
});
