// Messages, conversations and devices as Nodes: with X-ID-Format: global their `id` is a global ID
// that node(id:) fetches again (and mutations take), without it `id` answers what it always did;
// the two formats never mix, not between concurrent requests nor over WebSocket.
import { describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../../src/schema/core/global-id';
import type { TestUser } from '../../helpers/emulator';
import { createGroup } from '../../helpers/groups';
import { type GqlReply, onlyError, useStack } from '../../helpers/stack';
import { wsClient } from '../../helpers/subscriptions/clients';
import { type EventData, EVENTS, sendText, take } from '../../helpers/subscriptions/operations';
import { baselineSet } from '../../helpers/subscriptions/polls';
import { identity, loginOnDevice } from '../../helpers/users';

const stack = useStack({ POLL_INTERVAL_MS: '100' });
const GLOBAL: Record<string, string> = { 'x-id-format': 'global' };

const pair = async (): Promise<[TestUser, TestUser]> => [await stack.emu.user(), await stack.emu.user()];

/** A GraphQL operation with the user's own token, in the global ID format unless `headers` say otherwise. */
const gql = <T = Record<string, unknown>>(u: TestUser, query: string, vars: Record<string, unknown> = {}, headers = GLOBAL) =>
  stack.gql<T>(query, vars, { 'access-token': u.token, ...headers });

const message = (conversation: number, msgId: string) => encodeGlobalId('Message', [conversation, BigInt(msgId)]);
const conversation = (peer: number) => encodeGlobalId('Conversation', [peer]);

/** The reply's data, failing on any error. */
function dataOf<T>(reply: GqlReply<T>): T {
  expect(reply.errors).toBeUndefined();
  return reply.data!;
}

const HOME = `{ me { conversations { nodes { id conversationId unreadCount lastMessage { id messageId content } } } } }`;
type Home = {
  me: { conversations: { nodes: { id: string; conversationId: string; unreadCount: number; lastMessage: Msg | null }[] } };
};
type Msg = { id: string; messageId: string; content: string };

const NODE = `query($id: ID!) { node(id: $id) { __typename id
  ... on Message { messageId content }
  ... on Conversation { conversationId unreadCount }
  ... on Device { deviceSn user { id } } } }`;
type NodeData = { node: Record<string, unknown> | null };

const HISTORY = 'query($with: ID!) { me { conversation(with: $with) { nodes { id messageId content } } } }';
type History = { me: { conversation: { nodes: Msg[] } } };

describe('ids in either format', () => {
  it('answers global IDs with X-ID-Format: global, naming the conversation as each reader sees it', async () => {
    const [a, b] = await pair();
    const sent = await sendText(stack.emu, a, b, 'hi');
    const home = async (u: TestUser) => dataOf(await gql<Home>(u, HOME)).me.conversations.nodes;

    expect(await home(b)).toEqual([
      {
        id: conversation(a.id),
        conversationId: String(a.id),
        unreadCount: 1,
        lastMessage: { id: message(a.id, sent), messageId: sent, content: 'hi' },
      },
    ]);
    expect(await home(a)).toEqual([
      {
        id: conversation(b.id),
        conversationId: String(b.id),
        unreadCount: 0,
        lastMessage: { id: message(b.id, sent), messageId: sent, content: 'hi' },
      },
    ]);
  });

  it('answers what `id` always answered without the header: the message ID and the peer ID', async () => {
    const [a, b] = await pair();
    const sent = await sendText(stack.emu, a, b, 'hi');
    const reply = await gql<Home>(b, HOME, {}, {});
    expect(dataOf(reply).me.conversations.nodes).toEqual([
      { id: String(a.id), conversationId: String(a.id), unreadCount: 1, lastMessage: { id: sent, messageId: sent, content: 'hi' } },
    ]);
  });

  it('names a group message by the group, for sender and members alike; the device by its user and number', async () => {
    const [owner, member] = await pair();
    const group = await createGroup(stack.emu, owner, { members: [member] });
    const sent = await stack.emu.rest('POST', '/message/send', {
      token: member.token,
      body: { content_type: 0, content: 'to all', attachment: '', targets: [group], type: 2 },
    });
    const msgId = String(sent.text.match(/"msg_ids":\[(\d+)\]/)![1]);
    for (const u of [owner, member]) {
      const nodes = dataOf(await gql<History>(u, HISTORY, { with: String(group) })).me.conversation.nodes;
      expect(nodes).toEqual([{ id: message(group, msgId), messageId: msgId, content: 'to all' }]);
    }

    await loginOnDevice(stack, owner, 'phone');
    const devices = await gql<{ me: { devices: { nodes: { id: string }[] } } }>(owner, '{ me { devices { nodes { id } } } }');
    expect(dataOf(devices).me.devices.nodes).toEqual([{ id: encodeGlobalId('Device', [owner.id, 1]) }]);
  });
});

describe('node(id:)', () => {
  it('fetches the message, the conversation and the device an id named, the same objects again', async () => {
    const [a, b] = await pair();
    const sent = await sendText(stack.emu, a, b, 'hi');
    const row = dataOf(await gql<Home>(b, HOME)).me.conversations.nodes[0]!;

    const msg = dataOf(await gql<NodeData>(b, NODE, { id: row.lastMessage!.id })).node;
    expect(msg).toEqual({ __typename: 'Message', id: message(a.id, sent), messageId: sent, content: 'hi' });
    const conv = dataOf(await gql<NodeData>(b, NODE, { id: row.id })).node;
    expect(conv).toEqual({ __typename: 'Conversation', id: conversation(a.id), conversationId: String(a.id), unreadCount: 1 });
    // Written into the document rather than passed as a variable: the same.
    const literal = await gql<NodeData>(b, `{ node(id: "${row.id}") { id ... on Conversation { unreadCount } } }`);
    expect(dataOf(literal).node).toEqual({ id: conversation(a.id), unreadCount: 1 });

    await loginOnDevice(stack, b, 'laptop');
    const device = encodeGlobalId('Device', [b.id, 1]);
    const mine = dataOf(await gql<NodeData>(b, NODE, { id: device })).node;
    expect(mine).toEqual({ __typename: 'Device', id: device, deviceSn: 1, user: { id: String(b.id) } });
    // With an admin token, as the user: the same device.
    const asAdmin = await stack.gql<NodeData>(NODE, { id: device }, { 'access-token': stack.emu.adminToken, ...GLOBAL });
    expect(dataOf(asAdmin).node).toEqual(mine);
  });

  it('answers null for a message, conversation or device that is not there, or not the caller’s', async () => {
    const [a, b] = await pair();
    const stranger = await stack.emu.user();
    const sent = await sendText(stack.emu, a, b, 'hi');
    await loginOnDevice(stack, a, 'phone');
    const missing = [
      message(a.id, String(BigInt(sent) + 1n)), // no such message in the conversation
      message(stranger.id, sent), // the message is not in that conversation
      conversation(stranger.id), // b never talked with the stranger
      encodeGlobalId('Device', [b.id, 7]), // b has no device 7
      encodeGlobalId('Device', [a.id, 1]), // a's device: b may not read a's devices
    ];
    for (const id of missing) expect(await gql<NodeData>(b, NODE, { id })).toEqual({ data: { node: null } });
  });
});

describe('inputs', () => {
  const RECALL = `mutation($c: ID!, $m: ID!) { recallMessage(input: { conversationId: $c, messageId: $m }) {
    ok conversationId messageId message { id status } } }`;
  const READ = `mutation($c: ID!, $m: ID) { markConversationRead(input: { conversationId: $c, messageId: $m }) {
    ok conversationId conversation { id unreadCount } } }`;

  it('recallMessage and markConversationRead take the global IDs `id` answered', async () => {
    const [a, b] = await pair();
    const first = await sendText(stack.emu, a, b, 'one');
    const second = await sendText(stack.emu, a, b, 'two');

    const read = await gql(b, READ, { c: conversation(a.id), m: message(a.id, first) });
    expect(dataOf(read)).toEqual({
      markConversationRead: { ok: true, conversationId: String(a.id), conversation: { id: conversation(a.id), unreadCount: 1 } },
    });

    const recall = await gql(a, RECALL, { c: conversation(b.id), m: message(b.id, second) });
    expect(dataOf(recall)).toEqual({
      recallMessage: {
        ok: true,
        conversationId: String(b.id),
        messageId: second,
        message: { id: message(b.id, second), status: 'RECALLED' },
      },
    });
    const left = dataOf(await gql<History>(b, HISTORY, { with: String(a.id) })).me.conversation.nodes.map((m) => m.messageId);
    expect(left).toEqual([first]);
  });

  it('deleteConversation takes a Conversation global ID', async () => {
    const [a, b] = await pair();
    await sendText(stack.emu, a, b, 'hi');
    const reply = await gql(b, 'mutation($c: ID!) { deleteConversation(conversationId: $c) { ok conversationId } }', {
      c: conversation(a.id),
    });
    expect(dataOf(reply)).toEqual({ deleteConversation: { ok: true, conversationId: String(a.id) } });
    expect(dataOf(await gql<History>(b, HISTORY, { with: String(a.id) })).me.conversation.nodes).toEqual([]);
  });

  it('refuses a global ID of another kind with BAD_USER_INPUT naming the argument, and writes nothing', async () => {
    const [a, b] = await pair();
    const sent = await sendText(stack.emu, a, b, 'hi');
    stack.emu.mark();

    const recall = onlyError(await gql(a, RECALL, { c: String(b.id), m: conversation(b.id) }));
    expect(recall.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.messageId' });
    expect(recall.message).toContain('input.messageId');
    const read = onlyError(await gql(b, READ, { c: message(a.id, sent) }));
    expect(read.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.conversationId' });

    expect(stack.emu.calls().filter((c) => c.endpoint !== 'GET /message/conversation')).toEqual([]);
    const row = dataOf(await gql<Home>(b, HOME)).me.conversations.nodes[0]!;
    expect(row).toMatchObject({ unreadCount: 1, lastMessage: { messageId: sent } });
  });
});

describe('the request’s ID format', () => {
  it('refuses an X-ID-Format it does not know with HTTP 400, saying which values it takes', async () => {
    const u = await stack.emu.user();
    const res = await fetch(`${stack.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', app_id: stack.emu.appId, 'access-token': u.token, 'x-id-format': 'bogus' },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as GqlReply;
    expect(body.errors?.[0]?.message).toBe('X-ID-Format must be "global" or "service", got "bogus"');
  });

  it('answers each of the same queries sent together in its own format', async () => {
    const [a, b] = await pair();
    const sent = await sendText(stack.emu, a, b, 'hi');
    const formats = Array.from({ length: 8 }, (_, i) => i % 2 === 0);
    const replies = await Promise.all(formats.map((global) => gql<History>(b, HISTORY, { with: String(a.id) }, global ? GLOBAL : {})));
    replies.forEach((reply, i) => {
      const id = formats[i] ? message(a.id, sent) : sent;
      expect(dataOf(reply).me.conversation.nodes).toEqual([{ id, messageId: sent, content: 'hi' }]);
    });
  });
});

describe('conversationEvents over WebSocket', () => {
  it('answers global message IDs with connectionParams x-id-format, and resumes after one', async () => {
    const [me, peer] = await pair();
    const client = wsClient(stack.url, { ...identity(stack.emu, me), 'x-id-format': 'global' });
    try {
      const feed = client.feed<EventData>(EVENTS, { with: String(peer.id) });
      await baselineSet(stack.emu, peer);
      const first = await sendText(stack.emu, peer, me, 'one');
      expect(await take(feed, 1)).toEqual([
        {
          __typename: 'MessageReceived',
          conversationId: String(peer.id),
          messageId: first,
          message: { id: message(peer.id, first), content: 'one' },
        },
      ]);
      await feed.close();

      const second = await sendText(stack.emu, peer, me, 'two');
      const resumed = client.feed<EventData>(EVENTS, { with: conversation(peer.id), after: message(peer.id, first) });
      expect(await take(resumed, 1)).toEqual([
        {
          __typename: 'MessageReceived',
          conversationId: String(peer.id),
          messageId: second,
          message: { id: message(peer.id, second), content: 'two' },
        },
      ]);
    } finally {
      await client.dispose();
    }
  });

  it('refuses a connectionParams x-id-format that is neither global nor service, for the operation, naming the value', async () => {
    const [me] = await pair();
    const client = wsClient(stack.url, { ...identity(stack.emu, me), 'x-id-format': 'bogus' });
    try {
      const feed = client.feed<EventData>('{ me { id } }');
      await expect(feed.next()).rejects.toThrow(/X-ID-Format must be \\"global\\" or \\"service\\", got \\"bogus\\"/);
    } finally {
      await client.dispose();
    }
  });
});
