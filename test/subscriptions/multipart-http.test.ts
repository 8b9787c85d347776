// Subscriptions over multipart HTTP, Apollo's protocol (subscriptionSpec=1.0): Apollo Client 4's
// HttpLink receives a message sent through the sendMessage mutation; the raw framing (boundary,
// `{"payload": ...}` parts, `{}` heartbeats, closing boundary); a client gone ends the
// subscription (no subscriber, no poller left); an Accept without subscriptionSpec is still 406;
// multipart subscriptions count against MAX_SUBSCRIPTIONS_PER_IDENTITY like SSE and WebSocket ones.
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack';
import type { TestUser } from '../helpers/emulator';
import { EVENTS, type EventData, UNREAD, sendText } from '../helpers/subscriptions/operations';
import { readStream, wsClient } from '../helpers/subscriptions/clients';
import { admittedEventually, limitRefusal } from '../helpers/subscriptions/limits';
import { baselineSet, openSubscriptions, pollsStopped } from '../helpers/subscriptions/polls';
import { identity } from '../helpers/users';
import { EVENT_DEADLINE_MS, until } from '../helpers/wait';

const INTERVAL = 100;
const HEARTBEAT = 50;
const APOLLO_ACCEPT = 'multipart/mixed;boundary="graphql";subscriptionSpec=1.0, application/json';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ POLL_INTERVAL_MS: String(INTERVAL), HTTP_HEARTBEAT_MS: String(HEARTBEAT) });
});
afterAll(() => stack.stop());

async function pair(): Promise<[TestUser, TestUser]> {
  return [await stack.emu.user(), await stack.emu.user()];
}

/** The subscription topics the gateway has, as its /metrics reports them. */
async function openTopics(): Promise<number> {
  const text = await (await fetch(`${stack.url}/metrics`)).text();
  return Number(/^im_gateway_subscription_topics (\S+)$/m.exec(text)?.[1]);
}

/** A raw multipart subscription: its parts' JSON as they arrive, and a way to hang up. */
function rawSubscription(me: TestUser, query: string, variables: Record<string, unknown>, accept = APOLLO_ACCEPT, on = stack) {
  const abort = new AbortController();
  const parts: unknown[] = [];
  const answer = fetch(`${on.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, ...identity(on.emu, me) },
    body: JSON.stringify({ query, variables }),
    signal: abort.signal,
  });
  void (async () => {
    await readStream(await answer, (text) => {
      const chunks = text.split('\r\n--graphql');
      // Complete parts lie between two boundaries.
      for (const part of chunks.slice(1, -1)) parts.push(JSON.parse(part.slice(part.indexOf('\r\n\r\n') + 4)));
      return chunks.length === 1 ? text : `\r\n--graphql${chunks.at(-1)!}`;
    });
  })().catch(() => {});
  return { answer, parts, hangUp: () => abort.abort() };
}

describe('subscriptions over multipart HTTP (Apollo)', () => {
  it("Apollo Client 4's HttpLink receives a message sent through the sendMessage mutation", async () => {
    const [me, peer] = await pair();
    const client = new ApolloClient({
      link: new HttpLink({ uri: `${stack.url}/graphql`, headers: identity(stack.emu, me) }),
      cache: new InMemoryCache({ possibleTypes: { ConversationEvent: ['MessageReceived', 'MessageRecalled', 'MessageRead'] } }),
    });
    const received: EventData['conversationEvents'][] = [];
    const errors: unknown[] = [];
    const sub = client.subscribe<EventData>({ query: gql(EVENTS), variables: { with: String(peer.id) } }).subscribe({
      next: (result) => {
        if (result.error) errors.push(result.error);
        if (result.data) received.push(result.data.conversationEvents as EventData['conversationEvents']);
      },
      error: (error: unknown) => errors.push(error),
    });
    try {
      await baselineSet(stack.emu, peer);
      const sent = await stack.gqlAs<{ sendMessage: { ok: boolean; messageIds: string[] } }>(
        peer,
        `mutation($to: ID!) { sendMessage(input: { targetType: USER, targets: [$to], type: TEXT, content: "over multipart" }) { ok messageIds } }`,
        { to: String(me.id) },
      );
      expect(sent.errors).toBeUndefined();
      await until('the message arrives', () => received.length > 0 || errors.length > 0);
      expect(errors).toEqual([]);
      expect(received[0]).toMatchObject({
        __typename: 'MessageReceived',
        conversationId: String(peer.id),
        messageId: sent.data!.sendMessage.messageIds[0],
        message: { content: 'over multipart' },
      });
    } finally {
      sub.unsubscribe();
      client.stop();
    }
    // Apollo's unsubscribe aborts the request: the subscription ends at the gateway.
    await until('no subscriber left', async () => (await openSubscriptions(stack.url)) === 0);
  });

  it('frames events as {"payload": result} parts, with {} heartbeats, under boundary "graphql"', async () => {
    const [me, peer] = await pair();
    const sub = rawSubscription(me, EVENTS, { with: String(peer.id) });
    try {
      const res = await sub.answer;
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('multipart/mixed;boundary="graphql";subscriptionSpec=1.0');
      await baselineSet(stack.emu, peer);
      const id = await sendText(stack.emu, peer, me, 'framed');
      await until('the event part', () => sub.parts.some((p) => typeof p === 'object' && p !== null && 'payload' in p));
      const heartbeats = () => sub.parts.filter((p) => JSON.stringify(p) === '{}').length;
      // A heartbeat opens the answer, then one each HTTP_HEARTBEAT_MS while nothing happens.
      expect(sub.parts[0]).toEqual({});
      await until('heartbeats keep coming', () => heartbeats() >= 5);
      expect(sub.parts.filter((p) => JSON.stringify(p) !== '{}')).toEqual([
        {
          payload: {
            data: {
              conversationEvents: {
                __typename: 'MessageReceived',
                conversationId: String(peer.id),
                messageId: id,
                message: { id, content: 'framed' },
              },
            },
          },
        },
      ]);
    } finally {
      sub.hangUp();
    }
  });

  it('ends the subscription when the client hangs up: no subscriber, no topic, no poll left', async () => {
    const [me] = await pair();
    const before = await openSubscriptions(stack.url);
    const sub = rawSubscription(me, UNREAD, {});
    await until('the first result', () => sub.parts.some((p) => typeof p === 'object' && p !== null && 'payload' in p));
    expect(await openSubscriptions(stack.url)).toBe(before + 1);
    sub.hangUp();
    await until('the subscriber gone', async () => (await openSubscriptions(stack.url)) === before);
    await until('the topic gone', async () => (await openTopics()) === 0);
    await pollsStopped(stack.emu, INTERVAL, (c) => c.endpoint === 'GET /message/unread');
  });

  it(
    'ends the answer with the closing boundary when the subscription ends (the gateway stops)',
    async () => {
      const own = await startStack({ POLL_INTERVAL_MS: String(INTERVAL), HTTP_HEARTBEAT_MS: '60000' });
      const me = await own.emu.user();
      const res = await fetch(`${own.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: APOLLO_ACCEPT, ...identity(own.emu, me) },
        body: JSON.stringify({ query: UNREAD }),
      });
      const body = res.text();
      await own.gateway.stop();
      const text = await body;
      expect(text.startsWith('\r\n--graphql\r\n')).toBe(true);
      expect(text.endsWith('\r\n--graphql--\r\n')).toBe(true);
      await own.emu.stop();
    },
    EVENT_DEADLINE_MS,
  );

  it('answers 406 to multipart/mixed without subscriptionSpec, before subscribing', async () => {
    const [me] = await pair();
    stack.emu.mark();
    const res = await fetch(`${stack.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'multipart/mixed', ...identity(stack.emu, me) },
      body: JSON.stringify({ query: UNREAD }),
    });
    expect(res.status).toBe(406);
    await res.body?.cancel();
    expect(stack.emu.calls('GET /message/unread')).toEqual([]);
  });
});

describe('multipart subscriptions and MAX_SUBSCRIPTIONS_PER_IDENTITY', () => {
  let own: Stack;
  beforeAll(async () => {
    own = await startStack({
      POLL_INTERVAL_MS: String(INTERVAL),
      HTTP_HEARTBEAT_MS: String(HEARTBEAT),
      MAX_SUBSCRIPTIONS_PER_IDENTITY: '2',
    });
  });
  afterAll(() => own.stop());

  const payloads = (parts: unknown[]) =>
    parts.filter((p): p is { payload: { errors?: { extensions?: unknown }[] } } => typeof p === 'object' && p !== null && 'payload' in p);

  it("count against the identity's limit: a third is refused, as is a WebSocket one, until one hangs up", async () => {
    const me = await own.emu.user();
    const held = [rawSubscription(me, UNREAD, {}, APOLLO_ACCEPT, own), rawSubscription(me, UNREAD, {}, APOLLO_ACCEPT, own)];
    const ws = wsClient(own.url, identity(own.emu, me));
    try {
      for (const sub of held) await until('the first result', () => payloads(sub.parts).length > 0);
      for (const sub of held) expect(payloads(sub.parts)[0]!.payload.errors).toBeUndefined();

      // Refused before it streams: one JSON answer (the Accept allows it), as Apollo's HttpLink reads an error.
      const third = await fetch(`${own.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: APOLLO_ACCEPT, ...identity(own.emu, me) },
        body: JSON.stringify({ query: UNREAD }),
      });
      expect(third.headers.get('content-type')).toMatch(/^application\/json/);
      expect(((await third.json()) as { errors: { extensions: unknown }[] }).errors[0]!.extensions).toEqual({
        code: 'SUBSCRIPTION_LIMIT',
        limit: 2,
        scope: 'identity',
      });
      expect(await limitRefusal(ws.feed(UNREAD))).toEqual({ code: 'SUBSCRIPTION_LIMIT', limit: 2, scope: 'identity' });

      held[0]!.hangUp();
      await admittedEventually(() => ws.feed(UNREAD));
    } finally {
      for (const sub of held) sub.hangUp();
      await ws.dispose();
    }
  });
});
