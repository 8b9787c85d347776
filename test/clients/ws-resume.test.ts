// Resume after a standard reconnect: graphql-ws's own retry (and Apollo Client 4's GraphQLWsLink
// over it) re-sends each subscription with its original variables once a dropped socket is back.
// With a stable `clientKey` in connectionParams and nothing else, what was sent during the drop
// arrives once, in order. The socket is dropped through a TCP proxy, as a network drops it; the
// client reconnects only once the test has sent during the drop.
import { ApolloClient, gql, InMemoryCache } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { randomUUID } from 'node:crypto';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startStack, type GqlReply, type Stack } from '../helpers/stack';
import { Feed, wsUrl } from '../helpers/subscriptions/clients';
import { EVENTS, type EventData, sendText, take } from '../helpers/subscriptions/operations';
import { baselineSet } from '../helpers/subscriptions/polls';
import { consentingUser, polledTwice, REQUESTS, type RequestData, requestFriend } from '../helpers/subscriptions/roster';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';
import { identity } from '../helpers/users';
import { until } from '../helpers/wait';

let stack: Stack;
let proxy: TcpProxy;
beforeAll(async () => {
  stack = await startStack({ POLL_INTERVAL_MS: '100' });
  proxy = await startTcpProxy(stack.url);
});
afterAll(async () => {
  await proxy?.close();
  await stack?.stop();
});

/** A gate the client's retry waits on: it reconnects once the test opens it. */
function gate() {
  let open!: () => void;
  let opened = new Promise<void>((resolve) => (open = resolve));
  return {
    wait: () => opened,
    open: () => open(),
    close: () => void (opened = new Promise<void>((resolve) => (open = resolve))),
  };
}

/** A graphql-ws client through the proxy, retrying by itself, with the same params (and client key) each time. */
function retryingClient(params: Record<string, string>, retry: ReturnType<typeof gate>, onConnected?: () => void) {
  return createClient({
    url: wsUrl(proxy.url),
    webSocketImpl: WebSocket,
    connectionParams: params,
    retryAttempts: 5,
    shouldRetry: () => true,
    retryWait: () => retry.wait(),
    on: { connected: () => onConnected?.() },
  });
}

function feedOf<T>(client: ReturnType<typeof createClient>, query: string, variables: Record<string, unknown>): Feed<T> {
  const feed = new Feed<T>();
  client.subscribe<T>(
    { query, variables },
    { next: (r) => feed.push(r as GqlReply<T>), error: (error) => feed.end({ error }), complete: () => feed.end({ complete: true }) },
  );
  return feed;
}

describe('graphql-ws retry with a clientKey', () => {
  it('conversationEvents: the messages sent during a drop arrive once, in order, then the live ones', async () => {
    const me = await stack.emu.user();
    const peer = await stack.emu.user();
    const retry = gate();
    let connects = 0;
    const client = retryingClient({ ...identity(stack.emu, me), clientKey: randomUUID() }, retry, () => connects++);
    try {
      // `after` as a client first sends it: stale after the drop, which the resume must not replay from.
      const old = await sendText(stack.emu, peer, me, 'old');
      const feed = feedOf<EventData>(client, EVENTS, { with: String(peer.id), after: old });
      await baselineSet(stack.emu, peer);
      const first = await sendText(stack.emu, peer, me, 'before the drop');
      expect((await take(feed, 1))[0]!.messageId).toBe(first);

      expect(proxy.drop()).toBe(1);
      const during = [await sendText(stack.emu, peer, me, 'during 1'), await sendText(stack.emu, me, peer, 'during 2')];
      retry.open();
      expect((await take(feed, 2)).map((e) => e.messageId)).toEqual(during);
      const after = await sendText(stack.emu, peer, me, 'after the drop');
      expect((await take(feed, 1))[0]!.messageId).toBe(after);
      expect(connects).toBe(2);
      expect(feed.pending).toBe(0);
    } finally {
      await client.dispose();
    }
  });

  it('conversationEvents: a drop before any event still resumes from where the subscription began', async () => {
    const me = await stack.emu.user();
    const peer = await stack.emu.user();
    const retry = gate();
    const client = retryingClient({ ...identity(stack.emu, me), clientKey: randomUUID() }, retry);
    try {
      const feed = feedOf<EventData>(client, EVENTS, { with: String(peer.id) });
      await baselineSet(stack.emu, peer);
      proxy.drop();
      const during = await sendText(stack.emu, peer, me, 'during the drop');
      retry.open();
      expect((await take(feed, 1))[0]!.messageId).toBe(during);
    } finally {
      await client.dispose();
    }
  });

  it('friendRequestReceived: the requests received during a drop arrive once, in order', async () => {
    const me = await consentingUser(stack.emu);
    const [a, b, c] = [await stack.emu.user(), await stack.emu.user(), await stack.emu.user()];
    const retry = gate();
    const client = retryingClient({ ...identity(stack.emu, me), clientKey: randomUUID() }, retry);
    try {
      const feed = feedOf<RequestData>(client, REQUESTS, {});
      await polledTwice(stack.emu, 'GET /roster/apply/list');
      await requestFriend(stack.emu, a, me, 'a');
      expect((await feed.next()).data?.friendRequestReceived.request.from.id).toBe(String(a.id));

      proxy.drop();
      await requestFriend(stack.emu, b, me, 'b');
      await requestFriend(stack.emu, c, me, 'c');
      retry.open();
      const resumed = [(await feed.next()).data?.friendRequestReceived, (await feed.next()).data?.friendRequestReceived];
      expect(resumed.map((r) => r?.request.message)).toEqual(['b', 'c']);
      expect(feed.pending).toBe(0);
    } finally {
      await client.dispose();
    }
  });

  it('without a clientKey, the drop loses what was sent during it (the documented default)', async () => {
    const me = await stack.emu.user();
    const peer = await stack.emu.user();
    const retry = gate();
    let connects = 0;
    const client = retryingClient(identity(stack.emu, me), retry, () => connects++);
    try {
      const feed = feedOf<EventData>(client, EVENTS, { with: String(peer.id) });
      await baselineSet(stack.emu, peer);
      proxy.drop();
      await sendText(stack.emu, peer, me, 'lost');
      retry.open();
      await until('reconnected', () => connects === 2);
      await baselineSet(stack.emu, peer);
      const live = await sendText(stack.emu, peer, me, 'live');
      expect((await take(feed, 1))[0]!.messageId).toBe(live);
    } finally {
      await client.dispose();
    }
  });

  it('refuses a clientKey that is not a string with BAD_USER_INPUT naming connectionParams.clientKey', async () => {
    const me = await stack.emu.user();
    const client = createClient({
      url: wsUrl(stack.url),
      webSocketImpl: WebSocket,
      connectionParams: { ...identity(stack.emu, me), clientKey: 42 },
      retryAttempts: 0,
    });
    try {
      const result = await feedOf<EventData>(client, EVENTS, { with: String(me.id) }).ending;
      expect(result).toMatchObject({ error: [{ extensions: { code: 'BAD_USER_INPUT', field: 'connectionParams.clientKey' } }] });
    } finally {
      await client.dispose();
    }
  });
});

describe('Apollo Client 4 with GraphQLWsLink', () => {
  it('gets the messages sent during a drop once, in order, with no code beyond the link setup', async () => {
    const me = await stack.emu.user();
    const peer = await stack.emu.user();
    const retry = gate();
    const apollo = new ApolloClient({
      link: new GraphQLWsLink(retryingClient({ ...identity(stack.emu, me), clientKey: randomUUID() }, retry)),
      cache: new InMemoryCache(),
    });
    const seen: string[] = [];
    const subscription = apollo
      .subscribe<EventData>({ query: gql(EVENTS), variables: { with: String(peer.id) } })
      .subscribe({ next: ({ data }) => data && seen.push(data.conversationEvents.messageId) });
    try {
      await baselineSet(stack.emu, peer);
      const first = await sendText(stack.emu, peer, me, 'one');
      await until('the first message', () => seen.length === 1);
      proxy.drop();
      const during = [await sendText(stack.emu, peer, me, 'two'), await sendText(stack.emu, peer, me, 'three')];
      retry.open();
      await until('the messages of the drop', () => seen.length >= 3);
      const after = await sendText(stack.emu, peer, me, 'four');
      await until('the live message', () => seen.length >= 4);
      expect(seen).toEqual([first, ...during, after]);
    } finally {
      subscription.unsubscribe();
      apollo.stop();
    }
  });
});
