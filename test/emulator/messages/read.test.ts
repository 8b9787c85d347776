// 5.1 ack, 5.2 conversation pages, 5.3 delete conversation, 5.5 recall, 5.7 unread: what each
// reader sees, and that every refusal leaves the state as it was.
import { describe, expect, it } from 'vitest';
import type { ConversationPage, MessageRecord, UnreadEntry } from '../../../src/rest/records';
import { type TestUser, useEmulator } from '../../helpers/emulator';
import { RECENT_SESSIONS } from '../../../src/emulator/messages/state';
import { sessions } from './sessions';

const emu = useEmulator();

/** Sends texts from one user to another; answers their IDs, oldest first. */
async function sendTexts(from: TestUser, to: TestUser, contents: string[]): Promise<bigint[]> {
  const ids: bigint[] = [];
  for (const content of contents) {
    const reply = await emu.rest('POST', '/message/send', {
      token: from.token,
      body: { content_type: 0, content, attachment: '', targets: [to.id], type: 1 },
    });
    expect(reply.code).toBe(200);
    ids.push(BigInt(reply.msg_ids![0]!));
  }
  return ids;
}

const page = (reader: TestUser, opposite: number, limit: number, start: bigint | number = 0) =>
  emu.ok<ConversationPage>('GET', '/message/conversation', {
    token: reader.token,
    query: { limit, msg_id_start: start, opposite_id: opposite },
  });

const contents = (messages: MessageRecord[]) => messages.map((m) => m.content);
const statuses = (messages: MessageRecord[]) => messages.map((m) => m.status);
const unread = (reader: TestUser) => emu.ok<UnreadEntry[]>('GET', '/message/unread', { token: reader.token }).then(sessions);

describe('5.2 GET /message/conversation', () => {
  it('pages backwards, newest first, from each side, until is_last', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const ids = await sendTexts(a, b, ['m1', 'm2', 'm3', 'm4', 'm5']);
    for (const [reader, other] of [
      [b, a],
      [a, b],
    ] as const) {
      const first = await page(reader, other.id, 2);
      expect(contents(first.messages)).toEqual(['m5', 'm4']);
      expect(first).toMatchObject({ is_last: false, next_msg_id: ids[3] });
      const second = await page(reader, other.id, 2, first.next_msg_id);
      expect(contents(second.messages)).toEqual(['m3', 'm2']);
      expect(second.is_last).toBe(false);
      const third = await page(reader, other.id, 2, second.next_msg_id);
      expect(contents(third.messages)).toEqual(['m1']);
      expect(third).toMatchObject({ is_last: true, next_msg_id: ids[0] });
    }
    // msg_id_start is exclusive; an exact page is last when nothing older remains.
    const tail = await page(b, a.id, 2, ids[2]!);
    expect(contents(tail.messages)).toEqual(['m2', 'm1']);
    expect(tail.is_last).toBe(true);
  });

  it('marks a page DELIVERED for the reader, not READ, and keeps the unread count', async () => {
    const a = await emu.user();
    const b = await emu.user();
    await sendTexts(a, b, ['x', 'y']);
    expect(statuses((await page(b, a.id, 1)).messages)).toEqual(['UNREAD']);
    // The page shows each status before the read; the next read shows the change.
    expect(statuses((await page(b, a.id, 10)).messages)).toEqual(['DELIVERED', 'UNREAD']);
    expect(statuses((await page(b, a.id, 10)).messages)).toEqual(['DELIVERED', 'DELIVERED']);
    expect(await unread(b)).toEqual([{ conversation_id: { uid: a.id }, num: 2 }]);
    // The sender sees the receiver's status of its own messages.
    expect(statuses((await page(a, b.id, 10)).messages)).toEqual(['DELIVERED', 'DELIVERED']);
  });

  it('answers an empty last page for a user without messages', async () => {
    const a = await emu.user();
    const b = await emu.user();
    expect(await page(a, b.id, 10)).toEqual({ is_last: true, messages: [], next_msg_id: 0 });
  });

  it('refuses an opposite_id that is neither user nor group, a bad limit, and the admin token without user_id', async () => {
    const a = await emu.user();
    const none = await emu.rest('GET', '/message/conversation', {
      token: a.token,
      query: { limit: 5, msg_id_start: 0, opposite_id: 3_999_999_999_999 },
    });
    expect(none.code).toBe(10002);
    expect(none.message).toContain('opposite_id');
    const limit = await emu.rest('GET', '/message/conversation', {
      token: a.token,
      query: { limit: 0, msg_id_start: 0, opposite_id: a.id },
    });
    expect(limit.code).toBe(10002);
    expect(limit.message).toContain('limit');
    const admin = await emu.rest('GET', '/message/conversation', {
      token: emu.adminToken,
      query: { limit: 5, msg_id_start: 0, opposite_id: a.id },
    });
    expect(admin.code).toBe(10002);
    expect(admin.message).toContain('user_id');
  });

  it('reads as the user of the user_id header with the admin token', async () => {
    const a = await emu.user();
    const b = await emu.user();
    await sendTexts(a, b, ['hi']);
    const reply = await emu.ok<ConversationPage>('GET', '/message/conversation', {
      token: emu.adminToken,
      userId: b.id,
      query: { limit: 5, msg_id_start: 0, opposite_id: a.id },
    });
    expect(contents(reply.messages)).toEqual(['hi']);
  });
});

describe('5.7 GET /message/unread', () => {
  it('counts received messages per conversation, most recent first, never one’s own', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const c = await emu.user();
    await sendTexts(a, b, ['1', '2']);
    await sendTexts(c, b, ['3']);
    expect(await unread(b)).toEqual([
      { conversation_id: { uid: c.id }, num: 1 },
      { conversation_id: { uid: a.id }, num: 2 },
    ]);
    expect(await unread(a)).toEqual([{ conversation_id: { uid: b.id }, num: 0 }]); // a's own session, nothing to read
    await sendTexts(a, b, ['4']);
    expect((await unread(b))[0]).toEqual({ conversation_id: { uid: a.id }, num: 3 });
  });

  it('keeps a read session with num 0 and moves a session to the top when a message arrives', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const c = await emu.user();
    await sendTexts(a, b, ['1']);
    await sendTexts(c, b, ['2']);
    await emu.ok('GET', '/message/ack', { token: b.token, query: { conversation_id: c.id } });
    expect(await unread(b)).toEqual([
      { conversation_id: { uid: c.id }, num: 0 },
      { conversation_id: { uid: a.id }, num: 1 },
    ]);
    await sendTexts(b, a, ['3']); // one's own message is activity too
    expect((await unread(b)).map((e) => e.conversation_id.uid)).toEqual([a.id, c.id]);
  });

  it('carries the time of the newest message of each session', async () => {
    const a = await emu.user();
    const b = await emu.user();
    await sendTexts(a, b, ['1', '2']);
    const [newest] = (await page(b, a.id, 1)).messages;
    const [entry] = await emu.ok<UnreadEntry[]>('GET', '/message/unread', { token: b.token });
    expect(entry!.conversation_id.timestamp).toBe(newest!.timestamp);
  });

  it(`lists the ${RECENT_SESSIONS} most recent sessions and drops older ones`, async () => {
    const b = await emu.user();
    const peers: TestUser[] = [];
    for (let i = 0; i <= RECENT_SESSIONS; i++) peers.push(await emu.user());
    for (const peer of peers) await sendTexts(peer, b, ['hi']);
    const listed = (await unread(b)).map((e) => e.conversation_id.uid);
    expect(listed).toEqual(
      peers
        .slice(1)
        .map((p) => p.id)
        .reverse(),
    );
  });

  it('refuses the admin token without a user_id header', async () => {
    expect((await emu.rest('GET', '/message/unread', { token: emu.adminToken })).code).toBe(10002);
    expect((await emu.rest('GET', '/message/unread')).code).toBe(10003);
  });
});

describe('5.1 GET /message/ack', () => {
  it('acks up to and including msg_id, then the whole conversation', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const ids = await sendTexts(a, b, ['1', '2', '3']);
    expect(await emu.ok('GET', '/message/ack', { token: b.token, query: { conversation_id: a.id, msg_id: ids[1]! } })).toBe(true);
    expect(await unread(b)).toEqual([{ conversation_id: { uid: a.id }, num: 1 }]);
    expect(statuses((await page(b, a.id, 10)).messages)).toEqual(['UNREAD', 'READ', 'READ']);
    expect(statuses((await page(a, b.id, 10)).messages)).toEqual(['DELIVERED', 'READ', 'READ']);
    await emu.ok('GET', '/message/ack', { token: b.token, query: { conversation_id: a.id } });
    expect(await unread(b)).toEqual([{ conversation_id: { uid: a.id }, num: 0 }]);
    expect(statuses((await page(b, a.id, 10)).messages)).toEqual(['READ', 'READ', 'READ']);
  });

  it('finds the conversation from msg_id alone', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const [id] = await sendTexts(a, b, ['1']);
    await emu.ok('GET', '/message/ack', { token: b.token, query: { msg_id: id!, device_sn: 1 } });
    expect(await unread(b)).toEqual([{ conversation_id: { uid: a.id }, num: 0 }]);
  });

  it('refuses unknown conversations and messages with 10002 and changes nothing', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const c = await emu.user();
    const [id] = await sendTexts(a, b, ['1']);
    const unknown = await emu.rest('GET', '/message/ack', { token: b.token, query: { conversation_id: c.id } });
    expect(unknown.code).toBe(10002);
    expect(unknown.message).toContain('conversation_id');
    const wrongMsg = await emu.rest('GET', '/message/ack', { token: b.token, query: { conversation_id: a.id, msg_id: id! + 1n } });
    expect(wrongMsg.code).toBe(10002);
    expect(wrongMsg.message).toContain('msg_id');
    const neither = await emu.rest('GET', '/message/ack', { token: b.token });
    expect(neither.code).toBe(10002);
    expect(neither.message).toContain('conversation_id');
    // c is no party to a's message.
    expect((await emu.rest('GET', '/message/ack', { token: c.token, query: { msg_id: id! } })).code).toBe(10002);
    expect(await unread(b)).toEqual([{ conversation_id: { uid: a.id }, num: 1 }]);
  });
});

describe('5.5 PUT/POST /message/recall', () => {
  it('takes a message out of every history and unread count', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const [, second] = await sendTexts(a, b, ['keep', 'oops']);
    expect(await emu.ok('PUT', '/message/recall', { token: a.token, body: { conversation_id: b.id, msg_id: second! } })).toBe(true);
    expect(contents((await page(a, b.id, 10)).messages)).toEqual(['keep']);
    expect(contents((await page(b, a.id, 10)).messages)).toEqual(['keep']);
    expect(await unread(b)).toEqual([{ conversation_id: { uid: a.id }, num: 1 }]);
    // Gone means gone: recalling it again names msg_id.
    const again = await emu.rest('POST', '/message/recall', { token: a.token, body: { conversation_id: b.id, msg_id: second! } });
    expect(again.code).toBe(10002);
    expect(again.message).toContain('msg_id');
  });

  it('refuses anyone but the sender with 10010, and a wrong conversation with 10002', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const c = await emu.user();
    const [id] = await sendTexts(a, b, ['mine']);
    expect((await emu.rest('POST', '/message/recall', { token: b.token, body: { conversation_id: a.id, msg_id: id! } })).code).toBe(10010);
    expect(
      (await emu.rest('POST', '/message/recall', { token: emu.adminToken, userId: b.id, body: { conversation_id: a.id, msg_id: id! } }))
        .code,
    ).toBe(10010);
    const wrong = await emu.rest('POST', '/message/recall', { token: a.token, body: { conversation_id: c.id, msg_id: id! } });
    expect(wrong.code).toBe(10002);
    expect(wrong.message).toContain('conversation_id');
    expect(contents((await page(b, a.id, 10)).messages)).toEqual(['mine']);
    // The admin token acting as the sender may.
    await emu.ok('POST', '/message/recall', { token: emu.adminToken, userId: a.id, body: { conversation_id: b.id, msg_id: id! } });
    expect((await page(b, a.id, 10)).messages).toEqual([]);
  });

  it('lets the admin token alone recall a system notification', async () => {
    const b = await emu.user();
    const reply = await emu.rest('POST', '/message/notify', {
      token: emu.adminToken,
      body: { content_type: 0, content: 'sys', attachment: '', targets: [b.id], type: 1 },
    });
    const id = reply.msg_ids![0]!;
    await emu.ok('POST', '/message/recall', { token: emu.adminToken, body: { conversation_id: b.id, msg_id: id } });
    expect(await unread(b)).toEqual([{ conversation_id: { uid: 0 }, num: 0 }]);
    expect((await page(b, 0, 10)).messages).toEqual([]);
  });
});

describe('5.3 DELETE /message/conversation', () => {
  it('hides the conversation from the deleting user only; a new message brings it back alone', async () => {
    const a = await emu.user();
    const b = await emu.user();
    await sendTexts(a, b, ['old1', 'old2']);
    expect(await emu.ok('DELETE', '/message/conversation', { token: b.token, query: { conversation_id: a.id } })).toBe(true);
    expect(await page(b, a.id, 10)).toEqual({ is_last: true, messages: [], next_msg_id: 0 });
    expect(await unread(b)).toEqual([]);
    expect(contents((await page(a, b.id, 10)).messages)).toEqual(['old2', 'old1']);
    await sendTexts(a, b, ['new']);
    expect(contents((await page(b, a.id, 10)).messages)).toEqual(['new']);
    expect(await unread(b)).toEqual([{ conversation_id: { uid: a.id }, num: 1 }]);
  });

  it('refuses an unknown conversation with 10002 naming conversation_id', async () => {
    const a = await emu.user();
    const b = await emu.user();
    await sendTexts(a, b, ['1']);
    const reply = await emu.rest('DELETE', '/message/conversation', { token: b.token, query: { conversation_id: 2_999_999_999_990 } });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('conversation_id');
    expect(await unread(b)).toEqual([{ conversation_id: { uid: a.id }, num: 1 }]);
  });
});
