// 5.8 POST /message/broadcast: the admin token sends one system message (uid 0) to every user of
// the app, banned ones included; data {send_num, success}. Refusals store nothing.
import { describe, expect, it } from 'vitest';
import type { BroadcastResult, UserListElement } from '../../../src/rest/records';
import { type TestUser, useEmulator } from '../../helpers/emulator';
import { messaging } from './rest';

const emu = useEmulator();
const { history, unread } = messaging(emu);

const broadcast = (body: Record<string, unknown>, token = emu.adminToken) =>
  emu.rest<BroadcastResult>('POST', '/message/broadcast', { token, body });

const allUsers = async () =>
  (await emu.ok<UserListElement[]>('GET', '/user/list', { token: emu.adminToken, query: { page_num: 1, page_size: 200 } })).map((u) =>
    Number(u.user_id),
  );

/** Every user's conversation with the system, newest first. */
const systemInboxes = (users: TestUser[]) => Promise.all(users.map((u) => history(u, 0)));

describe('5.8 POST /message/broadcast', () => {
  it('sends a system message to every user, banned ones included, and counts them', async () => {
    const users = [await emu.user(), await emu.user(), await emu.user()];
    await emu.ok('PUT', '/user/disable', { token: emu.adminToken, body: { list: [users[2]!.id] } });
    const reply = await broadcast({ content_type: 0, type: 1, content: 'welcome', ext: 'e' });
    expect(reply.code).toBe(200);
    expect(reply.data).toEqual({ send_num: (await allUsers()).length, success: true });
    expect(reply.msg_ids).toBeUndefined();

    await emu.ok('PUT', '/user/enable', { token: emu.adminToken, body: { list: [users[2]!.id] } });
    for (const [m] of await systemInboxes(users)) {
      expect(m).toMatchObject({ ctype: 'TEXT', content: 'welcome', ext: 'e', attachment: '', from_xid: { uid: 0, device_sn: 0 } });
    }
    for (const u of users) expect(await unread(u)).toEqual([{ conversation_id: { uid: 0 }, num: 1 }]);
    // One message per user, each in that user's own conversation.
    const ids = (await systemInboxes(users)).map(([m]) => m!.msg_id);
    expect(new Set(ids.map(String)).size).toBe(users.length);
    expect((await systemInboxes(users)).map(([m]) => m!.to_xid.uid)).toEqual(users.map((u) => u.id));
  });

  it('reaches users who joined since the last one, and no longer reaches deleted ones', async () => {
    const gone = await emu.user();
    await emu.ok('DELETE', '/user/delete', { token: emu.adminToken, userId: gone.id });
    const fresh = await emu.user();
    const reply = await broadcast({ content_type: 6, type: 1, content: 'sync' });
    expect(reply.data!.send_num).toBe((await allUsers()).length);
    expect((await allUsers()).includes(gone.id)).toBe(false);
    expect((await history(fresh, 0)).map((m) => [m.ctype, m.content])).toEqual([['COMMAND', 'sync']]);
  });

  it('takes a file message with its attachment, and content may be left out', async () => {
    const u = await emu.user();
    const attachment = JSON.stringify({ url: 'http://files.example/poster.png', width: 4, height: 3 });
    expect((await broadcast({ content_type: 1, type: 1, attachment })).code).toBe(200);
    expect(await history(u, 0)).toMatchObject([{ ctype: 'IMAGE', content: '', attachment }]);
  });

  it('comes from the system even with a user_id header beside the admin token', async () => {
    const u = await emu.user();
    const reply = await emu.rest('POST', '/message/broadcast', { token: emu.adminToken, userId: u.id, body: { content_type: 0, type: 1 } });
    expect(reply.code).toBe(200);
    expect((await history(u, 0))[0]!.from_xid.uid).toBe(0);
  });

  it('refuses a user token with 10010, storing nothing', async () => {
    const u = await emu.user();
    const reply = await broadcast({ content_type: 0, type: 1, content: 'spam' }, u.token);
    expect(reply.code).toBe(10010);
    expect(await unread(u)).toEqual([]);
  });

  it.each([
    ['content_type 7 (FORWARD)', { content_type: 7, type: 1 }, 'content_type'],
    ['an operation type', { content_type: 9, type: 1 }, 'content_type'],
    ['type 2', { content_type: 0, type: 2 }, 'type'],
    ['an image without attachment', { content_type: 1, type: 1 }, 'attachment'],
    ['a missing content_type', { type: 1 }, 'content_type'],
  ])('refuses %s with 10002 naming it, storing nothing', async (_what, body, field) => {
    const u = await emu.user();
    const reply = await broadcast(body);
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain(field);
    expect(await unread(u)).toEqual([]);
  });
});
