// Messages through the gateway: history paging, unread conversations and their peers, sending,
// notifications, recall, delete and read receipts. Each test checks the values returned and the
// exact REST calls the emulator received; writes are checked by reading the state back.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Code, ImError } from '../../../src/emulator/errors';
import type { TestEmulator, TestUser } from '../../helpers/emulator';
import { createGroup } from '../../helpers/groups';
import { type GqlReply, onlyError, useStack } from '../../helpers/stack';

const stack = useStack();
let emu: TestEmulator;
beforeAll(() => {
  emu = stack.emu;
});
afterEach(() => vi.restoreAllMocks());

// ---- local helpers ----

const users = (n: number) => Promise.all(Array.from({ length: n }, () => emu.user()));

/** A GraphQL operation with this user's own token. */
const gqlAs = <T = Record<string, unknown>>(u: TestUser, query: string, vars: Record<string, unknown> = {}) =>
  stack.gqlAs<T>(u, query, vars);

const asAdmin = <T = Record<string, unknown>>(query: string, vars: Record<string, unknown>) => stack.gqlAs<T>('admin', query, vars);

/** Sends one message over raw REST (type 2: to a group); answers its ID exactly as the service's JSON text has it. */
async function sendRaw(from: TestUser, to: number, more: Record<string, unknown> = {}): Promise<string> {
  const body = { content_type: 0, content: 'hello', attachment: '', targets: [to], type: 1, ...more };
  const reply = await emu.rest('POST', '/message/send', { token: from.token, body });
  expect(reply.code).toBe(200);
  return /"msg_ids":\[(\d+)\]/.exec(reply.text)![1]!;
}

const groupOf = (owner: TestUser, members: TestUser[]) => createGroup(emu, owner, { members, name: 'team' });

/** The REST calls since the last reset, reduced to what the tests compare. */
const calls = () => emu.server.calls.map((c) => ({ endpoint: c.endpoint, query: c.query, body: c.body }));
const endpointsCalled = () => emu.server.calls.map((c) => c.endpoint);
const get = (endpoint: string, query: Record<string, string> = {}) => ({ endpoint, query, body: undefined });

const upstream = (code: string, upstreamCode: number, endpoint: string) => ({ code, upstreamCode, endpoint });

/** Emulator fault injection: the next calls of this state method fail with 10010. */
function failing<T extends object>(target: T, method: keyof T & string) {
  vi.spyOn(target, method as never).mockImplementation((() => {
    throw new ImError(Code.NO_PERMISSION, 'injected');
  }) as never);
}

/** IDs of a user's history with a peer, newest first, as the service's JSON text has them. */
async function historyIds(u: TestUser, peer: number): Promise<string[]> {
  const query = { opposite_id: peer, msg_id_start: 0, limit: 100 };
  const reply = await emu.rest('GET', '/message/conversation', { token: u.token, query });
  return [...reply.text.matchAll(/"msg_id":(\d+)/g)].map((m) => m[1]!);
}

type Conversation<N> = { me: { conversation: { nodes: N[] } } };

/** A user's history with a peer through the gateway, with the node fields asked for. */
const readHistory = <N>(u: TestUser, peer: number | string, nodeFields: string) =>
  gqlAs<Conversation<N>>(u, `query($with: ID!) { me { conversation(with: $with) { nodes { ${nodeFields} } } } }`, { with: String(peer) });

/** The receiver, a User or a Group, by type and ID. */
const TO = 'to { __typename ... on User { id } ... on Group { id } }';

const HISTORY = `query($with: ID!, $last: Int, $before: String) { me { conversation(with: $with, last: $last, before: $before) {
  nodes { id type content } pageInfo { hasPreviousPage startCursor } } } }`;

type Page = { nodes: { id: string; content: string }[]; pageInfo: { hasPreviousPage: boolean; startCursor: string | null } };

// ---- history ----

describe('me.conversation (GET /message/conversation)', () => {
  it('returns a 19-digit message ID exactly as the service wrote it, with every field of the message', async () => {
    const [a, b] = await users(2);
    const id = await sendRaw(a!, b!.id, { config: 'cfg', ext: 'x' });
    expect(id).toHaveLength(19);
    emu.server.resetCalls();
    const reply = await readHistory(
      b!,
      a!.id,
      `id type content rawAttachment attachment { url } config ext status sentAt
       from { id } deviceSn ${TO}`,
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.me.conversation.nodes).toEqual([
      {
        id,
        type: 'TEXT',
        content: 'hello',
        rawAttachment: '',
        attachment: null,
        config: 'cfg',
        ext: 'x',
        status: 'UNREAD',
        sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        from: { id: String(a!.id) },
        deviceSn: 0,
        to: { __typename: 'User', id: String(b!.id) },
      },
    ]);
    // The receiver's kind takes one batch lookup; the sender is always a user and needs none.
    expect(calls()).toEqual([
      get('GET /message/conversation', { opposite_id: String(a!.id), msg_id_start: '0', limit: '20' }),
      { endpoint: 'POST /group/info/batch', query: {}, body: { group_list: [b!.id] } },
    ]);
  });

  it("pages backwards to the end: newest page first, oldest first within a page, startCursor (the oldest message's ID) as msg_id_start", async () => {
    const [a, b] = await users(2);
    const sent: string[] = [];
    for (let i = 1; i <= 5; i++) sent.push(await sendRaw(a!, b!.id, { content: `m${i}` }));
    emu.server.resetCalls();
    const pages: string[][] = [];
    let before: string | null = null;
    let more = true;
    do {
      const reply: GqlReply<{ me: { conversation: Page } }> = await gqlAs(b!, HISTORY, { with: String(a!.id), last: 2, before });
      expect(reply.errors).toBeUndefined();
      const page = reply.data!.me.conversation;
      pages.push(page.nodes.map((n) => n.content));
      expect(page.pageInfo.startCursor).toBe(page.nodes[0]!.id);
      more = page.pageInfo.hasPreviousPage;
      before = page.pageInfo.startCursor;
    } while (more);
    expect(pages).toEqual([['m4', 'm5'], ['m2', 'm3'], ['m1']]);
    expect(calls().map((c) => c.query.msg_id_start)).toEqual(['0', sent[3], sent[1]]);
    expect(calls().every((c) => c.query.limit === '2')).toBe(true);
  });

  it('parses the attachment into typed fields and never fails the message on a bad one', async () => {
    const [a, b] = await users(2);
    const image = JSON.stringify({ url: 'http://files.example/a.png', dName: 'a.png', fLen: 2048, width: 640.5, height: 480 });
    await sendRaw(a!, b!.id, { content_type: 1, attachment: image });
    // Attachments the emulator refuses on send but a stored message may hold, stored directly:
    // fLen beyond 2^53 (its SafeInt size is null, the rest stays) and text that is not JSON.
    const huge = '{"url":"http://files.example/b.bin","fLen":9007199254740993,"duration":7}';
    const { state } = emu.server;
    for (const [ctype, attachment] of [
      ['FILE', huge],
      ['LOCATION', 'not json'],
    ] as const) {
      const now = Date.now();
      const parties = { from: { uid: a!.id, deviceSn: 0 }, to: { kind: 'user' as const, id: b!.id } };
      state.messages.deliver(
        { id: state.ids.message.take(now), ctype, content: '', attachment, config: '', ext: '', timestamp: now, ...parties },
        [b!.id],
      );
    }
    const reply = await readHistory(b!, a!.id, 'type rawAttachment attachment { url displayName size duration width height }');
    expect(reply.errors).toBeUndefined();
    const file = (url: string) => ({ url, displayName: null, size: null, duration: null, width: null, height: null });
    const typed = { ...file('http://files.example/a.png'), displayName: 'a.png', size: 2048, width: 640.5, height: 480 };
    expect(reply.data!.me.conversation.nodes).toEqual([
      { type: 'IMAGE', rawAttachment: image, attachment: typed },
      { type: 'FILE', rawAttachment: huge, attachment: { ...file('http://files.example/b.bin'), duration: 7 } },
      { type: 'LOCATION', rawAttachment: 'not json', attachment: null },
    ]);
  });

  it('shows a group message as sent to the group, with one batch lookup for the whole page', async () => {
    const [a, b] = await users(2);
    const g = await groupOf(a!, [b!]);
    for (let i = 0; i < 3; i++) await sendRaw(a!, g, { type: 2 });
    emu.server.resetCalls();
    const reply = await readHistory(b!, g, `from { id } ${TO}`);
    expect(reply.errors).toBeUndefined();
    const node = { from: { id: String(a!.id) }, to: { __typename: 'Group', id: String(g) } };
    expect(reply.data!.me.conversation.nodes).toEqual([node, node, node]);
    expect(calls()).toEqual([
      get('GET /message/conversation', { opposite_id: String(g), msg_id_start: '0', limit: '20' }),
      { endpoint: 'POST /group/info/batch', query: {}, body: { group_list: [g] } },
    ]);
  });

  it.each([
    ['last below 1', { last: 0 }, 'last'],
    ['last above 1000', { last: 1001 }, 'last'],
    ['a before that is not a cursor', { before: 'abc' }, 'before'],
    ['a zero before', { before: '0' }, 'before'],
  ])('refuses %s before any REST call', async (_what, vars, field) => {
    const [a] = await users(1);
    emu.server.resetCalls();
    const reply = await gqlAs(a!, HISTORY, { with: '2000000000001', ...vars });
    expect(onlyError(reply).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(emu.server.calls).toHaveLength(0);
  });

  it('reports an unknown conversation on that field; the connection is non-null, so me is null', async () => {
    const [a] = await users(1);
    const reply = await gqlAs(a!, '{ me { username conversation(with: "123") { nodes { id } } } }');
    expect(reply.data).toEqual({ me: null });
    expect(onlyError(reply)).toMatchObject({
      path: ['me', 'conversation'],
      extensions: upstream('BAD_USER_INPUT', 10002, 'GET /message/conversation'),
    });
  });

  it('reports a failing peer lookup on the peer field alone', async () => {
    const [a, b] = await users(2);
    await sendRaw(a!, b!.id);
    failing(emu.server.state.groups, 'get');
    const reply = await readHistory(b!, a!.id, `content ${TO}`);
    expect(reply.data!.me.conversation.nodes).toEqual([{ content: 'hello', to: null }]);
    expect(onlyError(reply)).toMatchObject({
      path: ['me', 'conversation', 'nodes', 0, 'to'],
      extensions: upstream('FORBIDDEN', 10010, 'POST /group/info/batch'),
    });
  });
});

// ---- unread ----

const UNREAD = '{ me { unreadConversations { conversationId unreadCount user { id } group { id } } } }';
type Unread = { conversationId: string; unreadCount: number; user: { id: string } | null; group: { id: string } | null };
type UnreadReply = { me: { unreadConversations: Unread[] } };

const withUser = (id: number, unreadCount: number): Unread => ({
  conversationId: String(id),
  unreadCount,
  user: { id: String(id) },
  group: null,
});
const inGroup = (id: number, unreadCount: number): Unread => ({
  conversationId: String(id),
  unreadCount,
  user: null,
  group: { id: String(id) },
});

describe('me.unreadConversations (GET /message/unread)', () => {
  it('lists unread counts and resolves the peers of many conversations in one batch call', async () => {
    const [reader, u1, u2, u3, owner] = await users(5);
    const g1 = await groupOf(owner!, [reader!]);
    const g2 = await groupOf(owner!, [reader!]);
    for (const u of [u1!, u2!, u2!, u3!]) await sendRaw(u, reader!.id);
    for (const g of [g1, g2]) await sendRaw(owner!, g, { type: 2 });
    emu.server.resetCalls();
    const reply = await gqlAs<UnreadReply>(reader!, UNREAD);
    expect(reply.errors).toBeUndefined();
    // Most recent first.
    expect(reply.data!.me.unreadConversations).toEqual([
      inGroup(g2, 1),
      inGroup(g1, 1),
      withUser(u3!.id, 1),
      withUser(u2!.id, 2),
      withUser(u1!.id, 1),
    ]);
    expect(calls()).toEqual([
      get('GET /message/unread'),
      { endpoint: 'POST /group/info/batch', query: {}, body: { group_list: [g2, g1, u3!.id, u2!.id, u1!.id] } },
    ]);
  });

  it('costs one REST call when no peer is selected', async () => {
    const [a, b] = await users(2);
    await sendRaw(a!, b!.id);
    emu.server.resetCalls();
    const reply = await gqlAs(b!, '{ me { unreadConversations { conversationId unreadCount } } }');
    expect(reply.data).toEqual({ me: { unreadConversations: [{ conversationId: String(a!.id), unreadCount: 1 }] } });
    expect(endpointsCalled()).toEqual(['GET /message/unread']);
  });

  it('reports a failure on that field alone', async () => {
    const [a, b] = await users(2);
    await sendRaw(a!, b!.id);
    failing(emu.server.state.messages, 'unread');
    const reply = await gqlAs(
      b!,
      'query($with: ID!) { me { unreadConversations { conversationId } conversation(with: $with) { nodes { content } } } }',
      { with: String(a!.id) },
    );
    expect(reply.data).toEqual({ me: { unreadConversations: null, conversation: { nodes: [{ content: 'hello' }] } } });
    expect(onlyError(reply)).toMatchObject({
      path: ['me', 'unreadConversations'],
      extensions: upstream('FORBIDDEN', 10010, 'GET /message/unread'),
    });
  });
});

// ---- sending ----

const SEND = `mutation($input: SendMessageInput!) { sendMessage(input: $input) {
  ok transactionId messageIds message { id content type attachment { url displayName size } from { id } } } }`;
type Sent = { ok: boolean; transactionId: string; messageIds: string[] | null; message: Record<string, unknown> | null };
type SendReply = { sendMessage: Sent };

const textTo = (to: number, more: Record<string, unknown> = {}) => ({
  type: 'TEXT',
  content: 'hi',
  targets: [String(to)],
  targetType: 'USER',
  ...more,
});

/** The transaction_id bodies of the send calls since the last reset. */
const sentTransactionIds = () =>
  emu.server.calls.filter((c) => c.endpoint === 'PUT /message/send').map((c) => (c.body as { transaction_id: bigint }).transaction_id);

describe('sendMessage (PUT /message/send)', () => {
  it('generates a transactionId, sends it as an exact JSON number, and returns the exact message ID', async () => {
    const [a, b] = await users(2);
    emu.server.resetCalls();
    const reply = await gqlAs<SendReply>(a!, SEND, { input: textTo(b!.id, { config: 'c', ext: 'e' }) });
    expect(reply.errors).toBeUndefined();
    const sent = reply.data!.sendMessage;
    const [txId] = sentTransactionIds();
    // 63 random bits: beyond 2^53 but for one draw in 1024, written with every digit.
    expect(BigInt(txId!)).toBeGreaterThan(0n);
    expect(sent.transactionId).toBe(String(txId));
    const sentId = sent.messageIds![0]!;
    expect(calls()).toEqual([
      {
        endpoint: 'PUT /message/send',
        query: {},
        body: { content_type: 0, content: 'hi', targets: [b!.id], type: 1, config: 'c', ext: 'e', transaction_id: txId },
      },
      // The new message is found by reading the one message just older than its ID + 1.
      get('GET /message/conversation', { opposite_id: String(b!.id), msg_id_start: String(BigInt(sentId) + 1n), limit: '1' }),
    ]);
    expect(await historyIds(b!, a!.id)).toEqual([sentId]);
    expect(sent).toEqual({
      ok: true,
      transactionId: String(txId),
      messageIds: [sentId],
      message: { id: sentId, content: 'hi', type: 'TEXT', attachment: null, from: { id: String(a!.id) } },
    });
  });

  it('makes exactly one REST call when only ok is selected', async () => {
    const [a, b] = await users(2);
    emu.server.resetCalls();
    const reply = await gqlAs(a!, 'mutation($input: SendMessageInput!) { sendMessage(input: $input) { ok } }', { input: textTo(b!.id) });
    expect(reply.data).toEqual({ sendMessage: { ok: true } });
    expect(endpointsCalled()).toEqual(['PUT /message/send']);
  });

  it('does not store a message twice when the client repeats its transactionId', async () => {
    const [a, b] = await users(2);
    const input = textTo(b!.id, { transactionId: '9007199254740993123' });
    emu.server.resetCalls();
    const first = await gqlAs<SendReply>(a!, SEND, { input });
    const again = await gqlAs<SendReply>(a!, SEND, { input });
    expect(again.data!.sendMessage.transactionId).toBe('9007199254740993123');
    expect(again.data!.sendMessage.messageIds).toEqual(first.data!.sendMessage.messageIds);
    expect(sentTransactionIds()).toEqual([9007199254740993123n, 9007199254740993123n]);
    expect(await historyIds(b!, a!.id)).toEqual(first.data!.sendMessage.messageIds);
  });

  it("serializes the attachment with the service's keys and reads it back typed", async () => {
    const [a, b] = await users(2);
    emu.server.resetCalls();
    const attachment = { url: 'http://files.example/p.png', displayName: 'p.png', size: 4096, width: 320, height: 200 };
    const reply = await gqlAs<SendReply>(a!, SEND, { input: { type: 'IMAGE', targets: [String(b!.id)], targetType: 'USER', attachment } });
    expect(reply.errors).toBeUndefined();
    const body = emu.server.calls[0]!.body as { attachment: string; content: string; content_type: number };
    expect(body).toMatchObject({ content_type: 1, content: '' });
    expect(JSON.parse(body.attachment)).toEqual({ url: attachment.url, dName: 'p.png', fLen: 4096, width: 320, height: 200 });
    expect(reply.data!.sendMessage.message).toMatchObject({
      type: 'IMAGE',
      attachment: { url: attachment.url, displayName: 'p.png', size: 4096 },
    });
  });

  it('sends to several groups: one message each, no IDs from the service, so no message', async () => {
    const [a, b] = await users(2);
    const g1 = await groupOf(a!, [b!]);
    const g2 = await groupOf(a!, [b!]);
    emu.server.resetCalls();
    const input = { type: 'TEXT', content: 'all', targets: [String(g1), String(g2)], targetType: 'GROUP' };
    const reply = await gqlAs<SendReply>(a!, SEND, { input });
    expect(reply.data!.sendMessage).toMatchObject({ ok: true, messageIds: null, message: null });
    expect(calls()).toEqual([{ endpoint: 'PUT /message/send', query: {}, body: expect.objectContaining({ targets: [g1, g2], type: 2 }) }]);
    expect(await historyIds(b!, g1)).toHaveLength(1);
    expect(await historyIds(b!, g2)).toHaveLength(1);
  });

  it('sends as another user with the admin token and fromUserId, and reads the message as that user', async () => {
    const [a, b] = await users(2);
    emu.server.resetCalls();
    const reply = await asAdmin<SendReply>(SEND, { input: textTo(b!.id, { fromUserId: String(a!.id) }) });
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.sendMessage.message).toMatchObject({ from: { id: String(a!.id) } });
    expect(emu.server.calls.map((c) => [c.endpoint, c.headers.user_id])).toEqual([
      ['PUT /message/send', undefined],
      ['GET /message/conversation', String(a!.id)],
    ]);
    expect(emu.server.calls[0]!.body).toMatchObject({ from_user_id: a!.id });
  });

  const targets = (n: number) => Array.from({ length: n }, (_, i) => String(2_000_000_000_001 + i));
  it.each([
    ['no targets', { targets: [] }, 'input.targets'],
    ['more than 1000 targets', { targets: targets(1001) }, 'input.targets'],
    ['a blank TEXT', { content: '  ' }, 'input.content'],
    ['a TEXT without content', { content: null }, 'input.content'],
    ['an IMAGE without attachment', { type: 'IMAGE' }, 'input.attachment.url'],
    ['a FILE with an empty url', { type: 'FILE', attachment: { url: '' } }, 'input.attachment.url'],
    ['a negative size', { type: 'FILE', attachment: { url: 'http://f/x', size: -1 } }, 'input.attachment.size'],
  ])('refuses %s before any REST call', async (_what, more, field) => {
    const [a] = await users(1);
    emu.server.resetCalls();
    const reply = await gqlAs(a!, SEND, { input: textTo(2_000_000_000_001, more) });
    expect(onlyError(reply).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(emu.server.calls).toHaveLength(0);
  });

  it('reports a refused send on that mutation alone; the next one still runs', async () => {
    const [a, b] = await users(2);
    const reply = await gqlAs(
      a!,
      `mutation($bad: SendMessageInput!, $good: SendMessageInput!) {
        bad: sendMessage(input: $bad) { ok } good: sendMessage(input: $good) { ok } }`,
      { bad: textTo(3_999_999_999_999), good: textTo(b!.id) },
    );
    expect(reply.data).toEqual({ bad: null, good: { ok: true } });
    expect(onlyError(reply)).toMatchObject({ path: ['bad'], extensions: upstream('NOT_FOUND', 10000, 'PUT /message/send') });
  });
});

const NOTIFY = 'mutation($input: SendNotificationInput!) { sendNotification(input: $input) { ok transactionId } }';

describe('sendNotification (PUT /message/notify)', () => {
  it('sends a system notification from the admin token with a generated transactionId; the receiver sees it from the system', async () => {
    const [b] = await users(1);
    emu.server.resetCalls();
    const input = { type: 'COMMAND', content: 'refresh', targets: [String(b!.id)], targetType: 'USER' };
    const reply = await asAdmin<{ sendNotification: { ok: boolean; transactionId: string } }>(NOTIFY, { input });
    expect(reply.errors).toBeUndefined();
    const txId = (emu.server.calls[0]!.body as { transaction_id: bigint }).transaction_id;
    expect(calls()).toEqual([
      {
        endpoint: 'PUT /message/notify',
        query: {},
        body: { content_type: 6, content: 'refresh', targets: [b!.id], type: 1, transaction_id: txId },
      },
    ]);
    expect(reply.data!.sendNotification).toEqual({ ok: true, transactionId: String(txId) });
    // uid 0 is the system: its conversation, and a sender that is no user.
    const read = await readHistory(b!, 0, 'type content from { id } to { __typename }');
    expect(read.data!.me.conversation.nodes).toEqual([{ type: 'COMMAND', content: 'refresh', from: null, to: { __typename: 'User' } }]);
  });

  it('refuses bad input before any REST call, like sendMessage', async () => {
    emu.server.resetCalls();
    const reply = await asAdmin(NOTIFY, { input: { type: 'VIDEO', targets: ['2000000000001'], targetType: 'USER' } });
    expect(onlyError(reply).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.attachment.url' });
    expect(emu.server.calls).toHaveLength(0);
  });

  it('reports a refused notification on that mutation alone', async () => {
    const [a] = await users(1);
    const reply = await gqlAs(a!, NOTIFY, { input: { type: 'TEXT', content: 'x', targets: ['3999999999999'], targetType: 'USER' } });
    expect(reply.data).toEqual({ sendNotification: null });
    expect(onlyError(reply).extensions).toMatchObject(upstream('NOT_FOUND', 10000, 'PUT /message/notify'));
  });
});

// ---- recall, delete, read receipts ----

const RECALL = 'mutation($c: ID!, $m: ID!) { recallMessage(input: { conversationId: $c, messageId: $m }) { ok conversationId messageId } }';

describe('recallMessage (PUT /message/recall)', () => {
  it('takes the message out of both histories, with the exact ID in the body', async () => {
    const [a, b] = await users(2);
    const keep = await sendRaw(a!, b!.id, { content: 'keep' });
    const gone = await sendRaw(a!, b!.id, { content: 'oops' });
    emu.server.resetCalls();
    const reply = await gqlAs(a!, RECALL, { c: String(b!.id), m: gone });
    expect(reply).toEqual({ data: { recallMessage: { ok: true, conversationId: String(b!.id), messageId: gone } } });
    expect(calls()).toEqual([{ endpoint: 'PUT /message/recall', query: {}, body: { conversation_id: b!.id, msg_id: BigInt(gone) } }]);
    expect(await historyIds(b!, a!.id)).toEqual([keep]);
    expect(await historyIds(a!, b!.id)).toEqual([keep]);
  });

  it("refuses a recall of someone else's message as a userError NOT_YOUR_MESSAGE (issue 42), recalling nothing", async () => {
    const [a, b] = await users(2);
    const id = await sendRaw(a!, b!.id);
    const reply = await gqlAs(b!, RECALL, { c: String(a!.id), m: id });
    expect(reply.errors).toBeUndefined();
    expect(reply.data).toMatchObject({ recallMessage: { ok: false } });
    expect(await historyIds(b!, a!.id)).toEqual([id]);
  });

  it('refuses a message ID that is not an int64 before any REST call', async () => {
    const [a] = await users(1);
    emu.server.resetCalls();
    const reply = await gqlAs(a!, 'mutation { recallMessage(input: { conversationId: "1", messageId: "99999999999999999999" }) { ok } }');
    expect(onlyError(reply).extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(emu.server.calls).toHaveLength(0);
  });
});

describe('deleteConversation (DELETE /message/conversation)', () => {
  it("empties the conversation for the acting user only; the payload's user reads the fresh state", async () => {
    const [a, b] = await users(2);
    const id = await sendRaw(a!, b!.id);
    emu.server.resetCalls();
    const reply = await gqlAs(
      b!,
      'mutation($c: ID!) { deleteConversation(conversationId: $c) { ok conversationId user { unreadConversations { conversationId } } } }',
      { c: String(a!.id) },
    );
    expect(reply).toEqual({ data: { deleteConversation: { ok: true, conversationId: String(a!.id), user: { unreadConversations: [] } } } });
    expect(calls()).toEqual([get('DELETE /message/conversation', { conversation_id: String(a!.id) }), get('GET /message/unread')]);
    expect(await historyIds(b!, a!.id)).toEqual([]);
    expect(await historyIds(a!, b!.id)).toEqual([id]);
  });

  it('reports an unknown conversation on that mutation alone', async () => {
    const [a] = await users(1);
    const reply = await gqlAs(a!, 'mutation { deleteConversation(conversationId: "2999999999999") { ok } }');
    expect(reply.data).toEqual({ deleteConversation: null });
    expect(onlyError(reply).extensions).toMatchObject(upstream('BAD_USER_INPUT', 10002, 'DELETE /message/conversation'));
  });
});

const MARK_READ = `mutation($c: ID!, $m: ID, $d: Int) { markConversationRead(input: { conversationId: $c, messageId: $m, deviceSn: $d }) {
  ok conversationId messageId user { unreadConversations { conversationId unreadCount } } } }`;

describe('markConversationRead (GET /message/ack)', () => {
  it('send → unread for the receiver → read up to a message → read all → cleared', async () => {
    const [a, b] = await users(2);
    const first = await gqlAs<SendReply>(a!, SEND, { input: textTo(b!.id, { content: 'one' }) });
    await gqlAs(a!, SEND, { input: textTo(b!.id, { content: 'two' }) });
    const unread = await gqlAs<UnreadReply>(b!, UNREAD);
    expect(unread.data!.me.unreadConversations).toEqual([withUser(a!.id, 2)]);

    const [firstId] = first.data!.sendMessage.messageIds!;
    const conversationId = String(a!.id);
    emu.server.resetCalls();
    const partly = await gqlAs(b!, MARK_READ, { c: conversationId, m: firstId, d: 3 });
    const left = [{ conversationId, unreadCount: 1 }];
    expect(partly).toEqual({
      data: { markConversationRead: { ok: true, conversationId, messageId: firstId, user: { unreadConversations: left } } },
    });
    expect(calls()[0]).toEqual(get('GET /message/ack', { conversation_id: conversationId, msg_id: firstId!, device_sn: '3' }));

    emu.server.resetCalls();
    const all = await gqlAs(b!, MARK_READ, { c: conversationId });
    expect(all).toEqual({
      data: { markConversationRead: { ok: true, conversationId, messageId: null, user: { unreadConversations: [] } } },
    });
    expect(calls()).toEqual([get('GET /message/ack', { conversation_id: conversationId }), get('GET /message/unread')]);
    // The sender now sees its messages READ.
    const seen = await readHistory<{ status: string }>(a!, b!.id, 'status');
    expect(seen.data!.me.conversation.nodes).toEqual([{ status: 'READ' }, { status: 'READ' }]);
  });

  it('makes exactly one REST call when only ok is selected', async () => {
    const [a, b] = await users(2);
    await sendRaw(a!, b!.id);
    emu.server.resetCalls();
    const reply = await gqlAs(b!, 'mutation($c: ID!) { markConversationRead(input: { conversationId: $c }) { ok } }', { c: String(a!.id) });
    expect(reply.data).toEqual({ markConversationRead: { ok: true } });
    expect(endpointsCalled()).toEqual(['GET /message/ack']);
  });

  it('refuses a negative deviceSn before any REST call', async () => {
    const [a] = await users(1);
    emu.server.resetCalls();
    const reply = await gqlAs(a!, MARK_READ, { c: '2000000000001', d: -1 });
    expect(onlyError(reply).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.deviceSn' });
    expect(emu.server.calls).toHaveLength(0);
  });

  it('reports an unknown conversation on that mutation alone', async () => {
    const [a] = await users(1);
    const reply = await gqlAs(a!, 'mutation { markConversationRead(input: { conversationId: "2999999999999" }) { ok } }');
    expect(reply.data).toEqual({ markConversationRead: null });
    expect(onlyError(reply).extensions).toMatchObject(upstream('BAD_USER_INPUT', 10002, 'GET /message/ack'));
  });
});
