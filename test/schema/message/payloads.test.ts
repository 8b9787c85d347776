// Payloads return what changed: the conversation after markConversationRead, the message, its
// edge and the conversation after sendMessage, the recalled message after recallMessage, and the
// conversation's identity on each unreadCounts event.
import { describe, expect, it } from 'vitest';
import type { TestEmulator } from '../../helpers/emulator';
import { useStack } from '../../helpers/stack';
import { sseFeed } from '../../helpers/subscriptions/clients';
import { sendText } from '../../helpers/subscriptions/operations';

const stack = useStack();

type TestUser = Awaited<ReturnType<TestEmulator['user']>>;

const data = async <T>(u: TestUser, query: string, vars: Record<string, unknown> = {}): Promise<T> => {
  const reply = await stack.gql<T>(query, vars, { 'access-token': u.token });
  expect(reply.errors).toBeUndefined();
  return reply.data!;
};

describe('markConversationRead', () => {
  it('answers the conversation as the home list shows it, unreadCount 0', async () => {
    const [alice, bob] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    await sendText(stack.emu, alice, bob, 'one');
    await sendText(stack.emu, alice, bob, 'two');
    const got = await data<{ markConversationRead: unknown }>(
      bob,
      `mutation { markConversationRead(input: { conversationId: "${alice.id}" }) {
        ok conversationId conversation { id unreadCount peer { __typename ... on User { id } } lastMessage { content } } } }`,
    );
    expect(got.markConversationRead).toEqual({
      ok: true,
      conversationId: String(alice.id),
      conversation: {
        id: String(alice.id),
        unreadCount: 0,
        peer: { __typename: 'User', id: String(alice.id) },
        lastMessage: { content: 'two' },
      },
    });
  });
});

describe('sendMessage', () => {
  it("answers the message, its edge (a cursor of the conversation's messages) and the conversation", async () => {
    const [alice, bob] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    const first = await sendText(stack.emu, alice, bob, 'earlier');
    const got = await data<{
      sendMessage: {
        message: { id: string; content: string };
        edge: { cursor: string; node: { id: string } };
        conversation: { id: string; unreadCount: number };
      };
    }>(
      alice,
      `mutation($to: ID!) { sendMessage(input: { type: TEXT, content: "now", targets: [$to], targetType: USER }) {
        message { id content } edge { cursor node { id } } conversation { id unreadCount } } }`,
      { to: String(bob.id) },
    );
    const { message, edge, conversation } = got.sendMessage;
    expect(message.content).toBe('now');
    expect(edge.node.id).toBe(message.id);
    expect(conversation).toEqual({ id: String(bob.id), unreadCount: 0 });
    // The cursor pages the conversation's messages: before it is the message sent earlier.
    const older = await data<{ me: { conversation: { edges: { node: { id: string } }[] } } }>(
      alice,
      `query($with: ID!, $before: String) { me { conversation(with: $with, last: 5, before: $before) { edges { node { id } } } } }`,
      { with: String(bob.id), before: edge.cursor },
    );
    expect(older.me.conversation.edges.map((e) => e.node.id)).toEqual([first]);
  });
});

describe('recallMessage', () => {
  it('answers the recalled message with status RECALLED, and the conversation without it', async () => {
    const [alice, bob] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    const kept = await sendText(stack.emu, alice, bob, 'kept');
    const gone = await sendText(stack.emu, alice, bob, 'gone');
    stack.emu.mark();
    const got = await data<{ recallMessage: unknown }>(
      alice,
      `mutation { recallMessage(input: { conversationId: "${bob.id}", messageId: "${gone}" }) {
        ok messageId message { id status content } conversation { id lastMessage { id } } } }`,
    );
    expect(got.recallMessage).toEqual({
      ok: true,
      messageId: gone,
      message: { id: gone, status: 'RECALLED', content: 'gone' },
      conversation: { id: String(bob.id), lastMessage: { id: kept } },
    });
  });

  it('reads nothing before the recall when message is not selected', async () => {
    const [alice, bob] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    const gone = await sendText(stack.emu, alice, bob, 'gone');
    stack.emu.mark();
    await data(alice, `mutation { recallMessage(input: { conversationId: "${bob.id}", messageId: "${gone}" }) { ok messageId } }`);
    expect(stack.emu.calls().map((c) => c.endpoint)).toEqual(['PUT /message/recall']);
  });
});

describe('unreadCounts', () => {
  it("carries the conversation's identity (Conversation id and typename) on each entry", async () => {
    const [alice, bob] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    await sendText(stack.emu, alice, bob, 'hi');
    const feed = sseFeed<{
      unreadCounts: { conversationId: string; conversation: { __typename: string; id: string; unreadCount: number } }[];
    }>(
      stack.url,
      { 'access-token': bob.token },
      'subscription { unreadCounts { conversationId conversation { __typename id unreadCount } } }',
    );
    try {
      const first = await feed.next();
      expect(first.errors).toBeUndefined();
      expect(first.data!.unreadCounts).toEqual([
        { conversationId: String(alice.id), conversation: { __typename: 'Conversation', id: String(alice.id), unreadCount: 1 } },
      ]);
    } finally {
      await feed.close();
    }
  });
});
