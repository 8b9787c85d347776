// 5.4 system notifications and 5.6 send: senders, targets, content types, attachments and
// transaction_id de-duplication, each write checked by reading the conversation back.
import { describe, expect, it } from 'vitest';
import type { ConversationPage, MessageRecord, UnreadEntry } from '../../../src/rest/records';
import { useEmulator } from '../../helpers/emulator';
import { sessions } from './sessions';

let now = Date.now();
const emu = useEmulator({ clock: () => now, dedupWindowMs: 60_000 });

const FILE = JSON.stringify({ url: 'http://files.example/a.png', dName: 'a.png', fLen: 10, width: 4, height: 3 });
const text = (targets: number[], more: Record<string, unknown> = {}) => ({
  content_type: 0,
  content: 'hello',
  attachment: '',
  targets,
  type: 1,
  ...more,
});

async function history(token: string, opposite: number, limit = 100): Promise<MessageRecord[]> {
  const page = await emu.ok<ConversationPage>('GET', '/message/conversation', {
    token,
    query: { limit, msg_id_start: 0, opposite_id: opposite },
  });
  return page.messages;
}

const unread = (token: string) => emu.ok<UnreadEntry[]>('GET', '/message/unread', { token }).then(sessions);

describe('5.6 PUT/POST /message/send', () => {
  it('sends a text to one user, answers msg_ids, and the receiver finds it', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const reply = await emu.rest('POST', '/message/send', { token: a.token, body: text([b.id], { config: 'c', ext: 'e' }) });
    expect(reply.code).toBe(200);
    expect(reply.data).toBe(true);
    const id = reply.msg_ids![0]!;
    expect(typeof id).toBe('bigint');
    expect(id).toBeGreaterThan(2n ** 53n);
    const [m] = await history(b.token, a.id);
    expect(m).toEqual({
      msg_id: id,
      ctype: 'TEXT',
      content: 'hello',
      attachment: '',
      config: 'c',
      ext: 'e',
      status: 'UNREAD',
      timestamp: now,
      from_xid: { device_sn: 0, uid: a.id },
      to_xid: { device_sn: 0, uid: b.id },
    });
    expect(await unread(b.token)).toEqual([{ conversation_id: { uid: a.id }, num: 1 }]);
  });

  it('accepts PUT as well as POST', async () => {
    const a = await emu.user();
    const b = await emu.user();
    expect((await emu.rest('PUT', '/message/send', { token: a.token, body: text([b.id]) })).code).toBe(200);
    expect(await history(b.token, a.id)).toHaveLength(1);
  });

  it('stores all eight content types with their ctype', async () => {
    const a = await emu.user();
    const b = await emu.user();
    for (let t = 0; t <= 7; t++) {
      const attachment = t >= 1 && t <= 4 ? FILE : '';
      await emu.ok('POST', '/message/send', { token: a.token, body: text([b.id], { content_type: t, attachment }) });
    }
    const ctypes = (await history(b.token, a.id)).map((m) => m.ctype).reverse();
    expect(ctypes).toEqual(['TEXT', 'IMAGE', 'AUDIO', 'VIDEO', 'FILE', 'LOCATION', 'COMMAND', 'FORWARD']);
    const image = (await history(b.token, a.id)).find((m) => m.ctype === 'IMAGE')!;
    expect(JSON.parse(image.attachment)).toEqual(JSON.parse(FILE));
  });

  it('sends to several users: one message each, increasing IDs, no top-level msg_ids', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const c = await emu.user();
    const reply = await emu.rest('POST', '/message/send', { token: a.token, body: text([b.id, c.id]) });
    expect(reply.code).toBe(200);
    expect(reply.msg_ids).toBeUndefined();
    const [mb] = await history(b.token, a.id);
    const [mc] = await history(c.token, a.id);
    expect(mb!.to_xid.uid).toBe(b.id);
    expect(mc!.to_xid.uid).toBe(c.id);
    expect(BigInt(mc!.msg_id)).toBeGreaterThan(BigInt(mb!.msg_id));
  });

  it('refuses an unknown target user with 10000 and stores nothing for the others', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const reply = await emu.rest('POST', '/message/send', { token: a.token, body: text([b.id, 2_999_999_999_999]) });
    expect(reply.code).toBe(10000);
    expect(await history(b.token, a.id)).toEqual([]);
    expect(await unread(b.token)).toEqual([]);
  });

  it('refuses an unknown group with 20001 and stores nothing', async () => {
    const a = await emu.user();
    const group = 4_999_999_999_999;
    const reply = await emu.rest('POST', '/message/send', { token: a.token, body: text([group], { type: 2 }) });
    expect(reply.code).toBe(20001);
    expect(await unread(a.token)).toEqual([]);
    // No conversation came into being: acking it is refused as unknown.
    const ack = await emu.rest('GET', '/message/ack', { token: a.token, query: { conversation_id: group } });
    expect(ack.code).toBe(10002);
  });

  it('refuses empty targets with 10002 naming targets', async () => {
    const a = await emu.user();
    const reply = await emu.rest('POST', '/message/send', { token: a.token, body: text([]) });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('targets');
  });

  it.each([
    ['a file type without attachment', { content_type: 1, attachment: '' }],
    ['an attachment that is not JSON', { content_type: 2, attachment: 'http://x/a.amr' }],
    ['an attachment without url', { content_type: 3, attachment: JSON.stringify({ dName: 'v.mp4' }) }],
    ['a mistyped attachment key', { content_type: 4, attachment: JSON.stringify({ url: 'http://x/f', fLen: '12' }) }],
    ['a non-object attachment on a text', { content_type: 0, attachment: '[1,2]' }],
  ])('refuses %s with 10002 naming attachment, storing nothing', async (_what, body) => {
    const a = await emu.user();
    const b = await emu.user();
    const reply = await emu.rest('POST', '/message/send', { token: a.token, body: text([b.id], body) });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('attachment');
    expect(await history(b.token, a.id)).toEqual([]);
  });

  it('refuses a user token sending as someone else with 10010', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const reply = await emu.rest('POST', '/message/send', { token: a.token, body: text([b.id], { from_user_id: b.id }) });
    expect(reply.code).toBe(10010);
    expect(await history(b.token, a.id)).toEqual([]);
    // Naming oneself is fine.
    await emu.ok('POST', '/message/send', { token: a.token, body: text([b.id], { from_user_id: a.id }) });
    expect(await history(b.token, a.id)).toHaveLength(1);
  });

  it('lets the admin token send as from_user_id (or the user_id header), and requires one of them', async () => {
    const a = await emu.user();
    const b = await emu.user();
    await emu.ok('POST', '/message/send', { token: emu.adminToken, body: text([b.id], { from_user_id: a.id }) });
    await emu.ok('POST', '/message/send', { token: emu.adminToken, userId: a.id, body: text([b.id]) });
    const messages = await history(b.token, a.id);
    expect(messages.map((m) => m.from_xid.uid)).toEqual([a.id, a.id]);
    const missing = await emu.rest('POST', '/message/send', { token: emu.adminToken, body: text([b.id]) });
    expect(missing.code).toBe(10002);
    expect(missing.message).toContain('from_user_id');
    const ghost = await emu.rest('POST', '/message/send', {
      token: emu.adminToken,
      body: text([b.id], { from_user_id: 2_999_999_999_998 }),
    });
    expect(ghost.code).toBe(10000);
    expect(await history(b.token, a.id)).toHaveLength(2);
  });

  it('de-duplicates a transaction_id per sender within the window', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const c = await emu.user();
    const tx = 9_007_199_254_740_993n; // beyond 2^53: must stay exact
    const first = await emu.rest('POST', '/message/send', { token: a.token, body: text([b.id], { transaction_id: tx }) });
    now += 30_000;
    const repeat = await emu.rest('POST', '/message/send', {
      token: a.token,
      body: text([b.id], { transaction_id: tx, content: 'again' }),
    });
    expect(repeat.code).toBe(200);
    expect(repeat.msg_ids).toEqual(first.msg_ids);
    expect((await history(b.token, a.id)).map((m) => m.content)).toEqual(['hello']);

    // Another sender with the same ID is another request.
    await emu.ok('POST', '/message/send', { token: c.token, body: text([b.id], { transaction_id: tx }) });
    expect(await history(b.token, c.id)).toHaveLength(1);

    // Past the window the same ID sends again.
    now += 31_000;
    const later = await emu.rest('POST', '/message/send', { token: a.token, body: text([b.id], { transaction_id: tx, content: 'later' }) });
    expect(later.msg_ids).not.toEqual(first.msg_ids);
    expect((await history(b.token, a.id)).map((m) => m.content)).toEqual(['later', 'hello']);
  });

  it('does not remember a refused transaction_id', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const bad = await emu.rest('POST', '/message/send', { token: a.token, body: text([b.id], { content_type: 1, transaction_id: 77 }) });
    expect(bad.code).toBe(10002);
    await emu.ok('POST', '/message/send', { token: a.token, body: text([b.id], { transaction_id: 77 }) });
    expect(await history(b.token, a.id)).toHaveLength(1);
  });
});

describe('5.4 PUT/POST /message/notify', () => {
  it('sends a system notification from uid 0 with the admin token alone', async () => {
    const b = await emu.user();
    const reply = await emu.rest('POST', '/message/notify', { token: emu.adminToken, body: text([b.id], { content: 'maintenance' }) });
    expect(reply.code).toBe(200);
    expect(reply.data).toBe(true);
    expect(reply.msg_ids).toHaveLength(1);
    expect(await unread(b.token)).toEqual([{ conversation_id: { uid: 0 }, num: 1 }]);
    const [m] = await history(b.token, 0);
    expect(m).toMatchObject({ msg_id: reply.msg_ids![0], content: 'maintenance', from_xid: { uid: 0, device_sn: 0 } });
  });

  it('sends from from_user_id with the admin token, and from the caller with a user token', async () => {
    const a = await emu.user();
    const b = await emu.user();
    await emu.ok('PUT', '/message/notify', { token: emu.adminToken, body: text([b.id], { from_user_id: a.id }) });
    await emu.ok('PUT', '/message/notify', { token: a.token, body: text([b.id]) });
    expect((await history(b.token, a.id)).map((m) => m.from_xid.uid)).toEqual([a.id, a.id]);
  });

  it('refuses a user token naming another sender (10010), unknown targets (10000), bad attachments (10002)', async () => {
    const a = await emu.user();
    const b = await emu.user();
    expect((await emu.rest('POST', '/message/notify', { token: a.token, body: text([b.id], { from_user_id: b.id }) })).code).toBe(10010);
    expect((await emu.rest('POST', '/message/notify', { token: emu.adminToken, body: text([b.id, 2_999_999_999_997]) })).code).toBe(10000);
    const image = await emu.rest('POST', '/message/notify', { token: emu.adminToken, body: text([b.id], { content_type: 1 }) });
    expect(image.code).toBe(10002);
    expect(image.message).toContain('attachment');
    expect(await unread(b.token)).toEqual([]);
  });

  it('de-duplicates a transaction_id like send', async () => {
    const b = await emu.user();
    const first = await emu.rest('POST', '/message/notify', { token: emu.adminToken, body: text([b.id], { transaction_id: 5 }) });
    const again = await emu.rest('POST', '/message/notify', { token: emu.adminToken, body: text([b.id], { transaction_id: 5 }) });
    expect(again.msg_ids).toEqual(first.msg_ids);
    expect(await history(b.token, 0)).toHaveLength(1);
  });
});
