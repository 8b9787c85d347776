// Opaque idempotency keys over real HTTP: a UUID transactionId is accepted, reaches the service as
// one int64 (the first 63 bits of its SHA-256), is answered as sent, and a retry with it stores one
// message; numeric keys keep mapping to themselves; empty and over-long keys are refused, naming
// the field, before any REST call (sendMessage, sendNotification and sendPush's requestId).
import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TestUser } from '../../helpers/emulator';
import { onlyError, useStack } from '../../helpers/stack';

const stack = useStack();

const SEND = `mutation($input: SendMessageInput!) { sendMessage(input: $input) { ok transactionId messageIds } }`;
type SendReply = { sendMessage: { ok: boolean; transactionId: string; messageIds: string[] } };

const textTo = (to: TestUser, transactionId: string) => ({
  type: 'TEXT',
  content: 'hi',
  targets: [String(to.id)],
  targetType: 'USER',
  transactionId,
});

const sentTransactionIds = () =>
  stack.emu.server.calls
    .filter((c) => c.endpoint === 'PUT /message/send')
    .map((c) => (c.body as { transaction_id: bigint }).transaction_id);

async function historyIds(u: TestUser, peer: TestUser): Promise<string[]> {
  const reply = await stack.emu.rest('GET', '/message/conversation', {
    token: u.token,
    query: { opposite_id: peer.id, msg_id_start: 0, limit: 100 },
  });
  return [...reply.text.matchAll(/"msg_id":(\d+)/g)].map((m) => m[1]!);
}

describe('transactionId: an opaque key of up to 64 characters', () => {
  it('sends one message for a UUID retried twice, answering the UUID and sending its hash as transaction_id', async () => {
    const [a, b] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    const uuid = randomUUID();
    stack.emu.server.resetCalls();
    const first = await stack.gqlAs<SendReply>(a, SEND, { input: textTo(b, uuid) });
    const again = await stack.gqlAs<SendReply>(a, SEND, { input: textTo(b, uuid) });
    expect(first.errors).toBeUndefined();
    expect(first.data!.sendMessage.transactionId).toBe(uuid);
    expect(again.data!.sendMessage).toEqual(first.data!.sendMessage);
    const expected = createHash('sha256').update(uuid).digest().readBigUInt64BE(0) & ((1n << 63n) - 1n);
    expect(sentTransactionIds()).toEqual([expected, expected]);
    expect(await historyIds(b, a)).toEqual(first.data!.sendMessage.messageIds);
  });

  it('maps a positive int64 decimal key to itself, and different keys to different messages', async () => {
    const [a, b] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    stack.emu.server.resetCalls();
    const numeric = await stack.gqlAs<SendReply>(a, SEND, { input: textTo(b, '42') });
    const other = await stack.gqlAs<SendReply>(a, SEND, { input: textTo(b, 'order-42') });
    expect(numeric.data!.sendMessage.transactionId).toBe('42');
    expect(other.data!.sendMessage.transactionId).toBe('order-42');
    expect(String(sentTransactionIds()[0])).toBe('42');
    expect((await historyIds(b, a)).length).toBe(2);
  });

  it.each([
    ['an empty key', ''],
    ['a key of 65 characters', 'k'.repeat(65)],
  ])('refuses %s as BAD_USER_INPUT naming input.transactionId, with no REST call', async (_what, key) => {
    const [a, b] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    stack.emu.server.resetCalls();
    for (const mutation of ['sendMessage', 'sendNotification']) {
      const input = mutation === 'sendMessage' ? 'SendMessageInput' : 'SendNotificationInput';
      const reply = await stack.gqlAs(a, `mutation($input: ${input}!) { ${mutation}(input: $input) { ok } }`, { input: textTo(b, key) });
      expect(onlyError(reply).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.transactionId' });
    }
    expect(stack.emu.server.calls).toEqual([]);
  });

  it('accepts a key of exactly 64 characters', async () => {
    const [a, b] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    const reply = await stack.gqlAs<SendReply>(a, SEND, { input: textTo(b, 'k'.repeat(64)) });
    expect(reply.data!.sendMessage.transactionId).toBe('k'.repeat(64));
  });
});

describe('sendPush requestId: the same bound', () => {
  it.each([
    ['an empty key', ''],
    ['a key of 65 characters', 'r'.repeat(65)],
  ])('refuses %s as BAD_USER_INPUT naming input.setting.requestId, with no REST call', async (_what, key) => {
    stack.emu.server.resetCalls();
    const reply = await stack.gql(
      'mutation($input: SendPushInput!) { sendPush(input: $input) { ok } }',
      { input: { audience: { all: true }, message: { title: 'Hi' }, setting: { requestId: key } } },
      { 'access-token': stack.emu.adminToken },
    );
    expect(onlyError(reply).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.setting.requestId' });
    expect(stack.emu.server.calls).toEqual([]);
  });
});
