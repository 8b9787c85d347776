// Operation messages (content_type 9-12) through 5.6 send and 5.4 notify: READ_ACK and RECALL do
// what 5.1 and 5.5 do, APPEND and REPLACE change the sender's message in every history and leave
// the operation message in the conversation for pollers; refusals change nothing.
import { describe, expect, it } from 'vitest';
import { createGroup } from '../../helpers/groups';
import { type TestUser, useEmulator } from '../../helpers/emulator';
import { contents, messaging, text } from './rest';
import { MAX_CONTENT_CHARS, MAX_MESSAGE_CHARS } from '../../../src/emulator/messages/content-limit';

const emu = useEmulator();
const { history, unread, look, send } = messaging(emu);

const READ_ACK = 9;
const RECALL = 10;
const APPEND = 11;
const REPLACE = 12;

/** Sends texts; answers their IDs, oldest first. */
async function texts(from: TestUser, to: TestUser, ...values: string[]): Promise<bigint[]> {
  const ids: bigint[] = [];
  for (const content of values) {
    const reply = await send(from, text([to.id], { content }));
    expect(reply.code).toBe(200);
    ids.push(BigInt(reply.msg_ids![0]!));
  }
  return ids;
}

const operation = (from: TestUser, to: number, contentType: number, relatedMid: bigint | undefined, more: Record<string, unknown> = {}) =>
  send(
    from,
    text([to], { content_type: contentType, content: '', ...(relatedMid === undefined ? {} : { related_mid: relatedMid }), ...more }),
  );

/** A notification from the system (admin token, no sender) to `to`, then the system's operation on it. */
async function systemOperation(to: TestUser, contentType: number) {
  const notify = (body: Record<string, unknown>) => emu.rest('POST', '/message/notify', { token: emu.adminToken, body });
  const note = await notify(text([to.id]));
  return notify(text([to.id], { content_type: contentType, related_mid: note.msg_ids![0] }));
}

describe('READ_ACK (9)', () => {
  it('marks READ up to related_mid as GET /message/ack does, answers msg_ids and adds nothing to history', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const [, m2] = await texts(a, b, 'one', 'two', 'three');
    const reply = await operation(b, a.id, READ_ACK, m2);
    expect(reply.code).toBe(200);
    expect(reply.msg_ids).toHaveLength(1);
    expect(BigInt(reply.msg_ids![0]!)).toBeGreaterThan(m2!);
    // The sender sees its read receipt; the reader has one message left unread.
    expect((await history(a, b.id)).map((m) => [m.content, m.status])).toEqual([
      ['three', 'UNREAD'],
      ['two', 'READ'],
      ['one', 'READ'],
    ]);
    expect(await unread(b)).toEqual([{ conversation_id: { uid: a.id }, num: 1 }]);
    expect((await history(b, a.id)).map((m) => m.msg_id)).not.toContain(reply.msg_ids![0]);
  });

  it('is sent by the admin token for a user, as the service connector does', async () => {
    const a = await emu.user();
    const bot = await emu.user();
    const [m] = await texts(a, bot, 'question');
    const reply = await emu.rest('POST', '/message/send', {
      token: emu.adminToken,
      body: text([a.id], { content_type: READ_ACK, content: '', from_user_id: bot.id, related_mid: m }),
    });
    expect(reply.code).toBe(200);
    expect((await history(a, bot.id)).map((x) => x.status)).toEqual(['READ']);
    expect(await unread(bot)).toEqual([{ conversation_id: { uid: a.id }, num: 0 }]);
  });

  it('acks a group message for the sender', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const g = await createGroup(emu, a, { members: [b] });
    const sent = await send(a, text([g], { type: 2 }));
    expect(await unread(b)).toEqual([{ conversation_id: { uid: g }, num: 1 }]);
    expect((await operation(b, g, READ_ACK, BigInt(sent.msg_ids![0]!), { type: 2 })).code).toBe(200);
    expect(await unread(b)).toEqual([{ conversation_id: { uid: g }, num: 0 }]);
  });

  it('refuses a notification without sender (the system reads nothing) with 10010', async () => {
    const b = await emu.user();
    const reply = await systemOperation(b, READ_ACK);
    expect(reply.code).toBe(10010);
    expect(await unread(b)).toEqual([{ conversation_id: { uid: 0 }, num: 1 }]);
  });
});

describe('RECALL (10)', () => {
  it('takes the message out of every history and unread count, as /message/recall does', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const [, m2] = await texts(a, b, 'keep', 'oops');
    const reply = await operation(a, b.id, RECALL, m2);
    expect(reply.code).toBe(200);
    expect(reply.msg_ids).toHaveLength(1);
    expect(contents(await history(a, b.id))).toEqual(['keep']);
    expect(contents(await history(b, a.id))).toEqual(['keep']);
    expect(await unread(b)).toEqual([{ conversation_id: { uid: a.id }, num: 1 }]);
  });

  it("refuses the receiver recalling the sender's message with 10010, changing nothing", async () => {
    const a = await emu.user();
    const b = await emu.user();
    const [m] = await texts(a, b, 'mine');
    const before = await look(a, b);
    const reply = await operation(b, a.id, RECALL, m);
    expect(reply.code).toBe(10010);
    expect(await look(a, b)).toEqual(before);
  });

  it('lets the system recall its own notification through notify', async () => {
    const b = await emu.user();
    const reply = await systemOperation(b, RECALL);
    expect(reply.code).toBe(200);
    expect(await history(b, 0)).toEqual([]);
  });
});

describe('APPEND (11) and REPLACE (12)', () => {
  it('appends to the content of the message; both histories show it, beside the operation message', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const [m] = await texts(a, b, 'Hel');
    const reply = await operation(a, b.id, APPEND, m, { content: 'lo', ext: 'x' });
    expect(reply.code).toBe(200);
    const op = reply.msg_ids![0]!;
    for (const [reader, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const [newest, edited] = await history(reader, other.id);
      expect(newest).toMatchObject({ msg_id: op, ctype: 'APPEND', content: 'lo', ext: 'x', related_mid: m, from_xid: { uid: a.id } });
      expect(edited).toMatchObject({ msg_id: m, ctype: 'TEXT', content: 'Hello' });
    }
    // The operation changes a message already counted: one unread, not two.
    expect(await unread(b)).toEqual([{ conversation_id: { uid: a.id }, num: 1 }]);
  });

  it('is seen by a reader that polls the newest page: a new message above the newest ID it knew', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const [m] = await texts(a, b, 'draft');
    const known = BigInt((await history(b, a.id, 1))[0]!.msg_id);
    await operation(a, b.id, REPLACE, m, { content: 'final' });
    const fresh = (await history(b, a.id, 20)).filter((x) => BigInt(x.msg_id) > known);
    expect(fresh.map((x) => [x.ctype, x.content, x.related_mid])).toEqual([['REPLACE', 'final', m]]);
  });

  it('replaces the content; repeated operations apply in order', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const [m] = await texts(a, b, 'first draft');
    expect((await operation(a, b.id, REPLACE, m, { content: 'second' })).code).toBe(200);
    expect((await operation(a, b.id, APPEND, m, { content: ' draft' })).code).toBe(200);
    expect(contents(await history(b, a.id))).toEqual([' draft', 'second', 'second draft']);
  });

  it('edits a group message for every member', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const g = await createGroup(emu, a, { members: [b] });
    const sent = await send(a, text([g], { type: 2, content: 'v1' }));
    const m = BigInt(sent.msg_ids![0]!);
    expect((await operation(a, g, REPLACE, m, { type: 2, content: 'v2' })).code).toBe(200);
    expect((await history(b, g)).find((x) => BigInt(x.msg_id) === m)!.content).toBe('v2');
  });

  it.each([
    ['APPEND', APPEND],
    ['REPLACE', REPLACE],
  ])("refuses %s on someone else's message with 10010, changing nothing", async (_name, contentType) => {
    const a = await emu.user();
    const b = await emu.user();
    const [m] = await texts(a, b, 'original');
    const before = await look(a, b);
    const reply = await operation(b, a.id, contentType, m, { content: 'forged' });
    expect(reply.code).toBe(10010);
    expect(await look(a, b)).toEqual(before);
  });

  it('refuses an operation message as related_mid with 10002 naming related_mid', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const [m] = await texts(a, b, 'x');
    const op = await operation(a, b.id, APPEND, m, { content: 'y' });
    const before = await look(a, b);
    const reply = await operation(a, b.id, APPEND, BigInt(op.msg_ids![0]!), { content: 'z' });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('related_mid');
    expect(await look(a, b)).toEqual(before);
  });
});

describe('related_mid checks, for every operation', () => {
  const ops = [
    ['READ_ACK', READ_ACK],
    ['RECALL', RECALL],
    ['APPEND', APPEND],
    ['REPLACE', REPLACE],
  ] as const;

  it.each(ops)('refuses %s without related_mid with 10002 naming it, changing nothing', async (_name, contentType) => {
    const a = await emu.user();
    const b = await emu.user();
    await texts(a, b, 'x');
    await texts(b, a, 'y');
    const before = await look(a, b);
    const reply = await operation(a, b.id, contentType, undefined, { content: 'z' });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('related_mid');
    expect(await look(a, b)).toEqual(before);
  });

  it.each(ops)('refuses %s naming a message of another conversation with 10002, changing nothing', async (_name, contentType) => {
    const a = await emu.user();
    const b = await emu.user();
    const c = await emu.user();
    const [elsewhere] = await texts(a, c, 'to c');
    await texts(b, a, 'y');
    const before = await look(a, b);
    const beforeC = await look(a, c);
    const reply = await operation(a, b.id, contentType, elsewhere, { content: 'z' });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('related_mid');
    expect(await look(a, b)).toEqual(before);
    expect(await look(a, c)).toEqual(beforeC);
  });

  it.each(ops)('refuses %s naming no message at all with 10002', async (_name, contentType) => {
    const a = await emu.user();
    const b = await emu.user();
    await texts(a, b, 'x');
    const reply = await operation(a, b.id, contentType, 2n ** 62n, { content: 'z' });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('related_mid');
  });

  it('refuses a whole request when one target lacks the message: the other target is not changed', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const c = await emu.user();
    const [m] = await texts(a, b, 'only with b');
    const reply = await send(a, text([b.id, c.id], { content_type: APPEND, content: '!', related_mid: m }));
    expect(reply.code).toBe(10002);
    expect(contents(await history(b, a.id))).toEqual(['only with b']);
    expect(await history(c, a.id)).toEqual([]);
  });
});

describe('transaction_id with operations', () => {
  it('applies a repeated APPEND once and answers the first msg_ids', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const [m] = await texts(a, b, 'a');
    const first = await operation(a, b.id, APPEND, m, { content: 'b', transaction_id: 41 });
    const again = await operation(a, b.id, APPEND, m, { content: 'b', transaction_id: 41 });
    expect(again.code).toBe(200);
    expect(again.msg_ids).toEqual(first.msg_ids);
    expect(contents(await history(b, a.id))).toEqual(['b', 'ab']);
  });

  it('answers a repeated RECALL as the first, though the message is gone', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const [m] = await texts(a, b, 'gone');
    const first = await operation(a, b.id, RECALL, m, { transaction_id: 42 });
    const again = await operation(a, b.id, RECALL, m, { transaction_id: 42 });
    expect([first.code, again.code]).toEqual([200, 200]);
    expect(again.msg_ids).toEqual(first.msg_ids);
    // Without the transaction ID the second recall names a message that is no longer there.
    expect((await operation(a, b.id, RECALL, m)).code).toBe(10002);
  });
});

describe('content length (NOTES.md: at most 5,000 characters a request, 100,000 a message)', () => {
  it('refuses a send, an append or a replace over 5,000 characters with 10002 naming content, changing nothing', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const [m] = await texts(a, b, 'x'.repeat(MAX_CONTENT_CHARS));
    const before = await look(a, b);
    for (const reply of [
      await send(a, text([b.id], { content: 'y'.repeat(MAX_CONTENT_CHARS + 1) })),
      await operation(a, b.id, APPEND, m, { content: 'y'.repeat(MAX_CONTENT_CHARS + 1) }),
      await operation(a, b.id, REPLACE, m, { content: 'y'.repeat(MAX_CONTENT_CHARS + 1) }),
    ]) {
      expect(reply.code).toBe(10002);
      expect(reply.message).toBe(`invalid parameter content: is ${MAX_CONTENT_CHARS + 1} characters long, more than ${MAX_CONTENT_CHARS}`);
    }
    expect(await look(a, b)).toEqual(before);
  });

  it('refuses the append that would bring a message past 100,000 characters; those within it are taken', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const [m] = await texts(a, b, 'x'.repeat(MAX_CONTENT_CHARS));
    const piece = 'y'.repeat(MAX_CONTENT_CHARS);
    for (let length = MAX_CONTENT_CHARS; length < MAX_MESSAGE_CHARS; length += piece.length) {
      expect((await operation(a, b.id, APPEND, m, { content: piece })).code).toBe(200);
    }
    const refused = await operation(a, b.id, APPEND, m, { content: 'z' });
    expect(refused).toMatchObject({
      code: 10002,
      message: expect.stringContaining('invalid parameter content: would make message content'),
    });
    const edited = (await history(a, b.id, 100)).find((r) => r.msg_id === m);
    expect(edited?.content).toHaveLength(MAX_MESSAGE_CHARS);
  });
});
