// Resuming on graphql-ws's own retry: the client re-sends a subscription's original variables when it
// reconnects, but asks for its connectionParams anew. A client that keeps its last message ID per
// conversation in `connectionParams.resumeAfter` gets the messages sent while it was away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startStack, type Stack } from '../helpers/stack';
import { Feed, wsClient, wsUrl } from '../helpers/subscriptions/clients';
import { EVENTS, type EventData, sendText, take } from '../helpers/subscriptions/operations';
import { baselineSet } from '../helpers/subscriptions/polls';
import type { GqlReply } from '../helpers/stack';
import { identity } from '../helpers/users';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ POLL_INTERVAL_MS: '100' });
});
afterAll(() => stack.stop());

/** A graphql-ws client that retries by itself, its connectionParams read at each connect. */
function retryingClient(params: () => Record<string, unknown>, retryWait: () => Promise<void>) {
  return createClient({
    url: wsUrl(stack.url),
    webSocketImpl: WebSocket,
    connectionParams: params,
    retryAttempts: 3,
    shouldRetry: () => true,
    retryWait,
  });
}

function subscribe(client: ReturnType<typeof createClient>, variables: Record<string, unknown>): Feed<EventData> {
  const feed = new Feed<EventData>();
  client.subscribe<EventData>(
    { query: EVENTS, variables },
    {
      next: (r) => feed.push(r as GqlReply<EventData>),
      error: (error) => feed.end({ error }),
      complete: () => feed.end({ complete: true }),
    },
  );
  return feed;
}

describe('conversationEvents resumed on a transport retry', () => {
  it('delivers the message sent during a drop, once, when the client keeps its position in connectionParams', async () => {
    const me = await stack.emu.user();
    const peer = await stack.emu.user();
    const conversation = String(peer.id);
    let last: string | undefined;
    let droppedMessage!: Promise<string>;
    let connects = 0;
    const client = retryingClient(
      () => {
        connects++;
        return { ...identity(stack.emu, me), ...(last ? { resumeAfter: { [conversation]: last } } : {}) };
      },
      // The client waits to reconnect until the message has been sent without it.
      async () => void (await droppedMessage),
    );
    try {
      const feed = subscribe(client, { with: conversation });
      await baselineSet(stack.emu, peer);
      const first = await sendText(stack.emu, peer, me, 'before the drop');
      const [seen] = await take(feed, 1);
      expect(seen!.messageId).toBe(first);
      last = seen!.messageId;

      droppedMessage = new Promise((resolve) => setImmediate(() => resolve(sendText(stack.emu, peer, me, 'during the drop'))));
      client.terminate(); // as when a phone changes networks: graphql-ws retries (close code 4499)
      const during = await droppedMessage;

      const [resumed] = await take(feed, 1);
      expect(resumed).toMatchObject({ __typename: 'MessageReceived', messageId: during, message: { content: 'during the drop' } });
      const after = await sendText(stack.emu, peer, me, 'after the drop');
      const [live] = await take(feed, 1);
      expect(live!.messageId).toBe(after);
      expect(connects).toBe(2);
      expect(feed.pending).toBe(0);
    } finally {
      await client.dispose();
    }
  });

  it('does not share an execution between a connection that resumes and one that does not', async () => {
    const me = await stack.emu.user();
    const peer = await stack.emu.user();
    const conversation = String(peer.id);
    const plain = wsClient(stack.url, identity(stack.emu, me));
    const first = await sendText(stack.emu, peer, me, 'one');
    const second = await sendText(stack.emu, peer, me, 'two');
    const resuming = retryingClient(
      () => ({ ...identity(stack.emu, me), resumeAfter: { [conversation]: first } }),
      async () => {},
    );
    try {
      const live = plain.feed<EventData>(EVENTS, { with: conversation });
      await baselineSet(stack.emu, peer);
      // Same identity, operation and variables: only the resume position differs.
      const caughtUp = subscribe(resuming, { with: conversation });
      const [replayed] = await take(caughtUp, 1);
      expect(replayed!.messageId).toBe(second);
      const third = await sendText(stack.emu, peer, me, 'three');
      expect((await take(live, 1))[0]!.messageId).toBe(third);
      expect((await take(caughtUp, 1))[0]!.messageId).toBe(third);
    } finally {
      await plain.dispose();
      await resuming.dispose();
    }
  });

  it.each([
    ['a message ID that is no ID', (c: string) => ({ [c]: 'yesterday' }), '["'],
    ['a list instead of an object', () => ['1'], 'must be an object'],
  ])('refuses %s in resumeAfter with BAD_USER_INPUT naming connectionParams.resumeAfter', async (_label, resumeAfter, words) => {
    const me = await stack.emu.user();
    const peer = await stack.emu.user();
    stack.emu.mark();
    const client = retryingClient(
      () => ({ ...identity(stack.emu, me), resumeAfter: resumeAfter(String(peer.id)) }),
      async () => {},
    );
    try {
      const result = await subscribe(client, { with: String(peer.id) }).next();
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'connectionParams.resumeAfter' });
      expect(result.errors?.[0]?.message).toContain(words);
      // Only the connection's identity check reached the service: no history read, no poll.
      const reads = stack.emu.calls('GET /message/conversation').filter((c) => Object.values(c.query).includes(String(peer.id)));
      expect(reads).toEqual([]);
    } finally {
      await client.dispose();
    }
  });
});
