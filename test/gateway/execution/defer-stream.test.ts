// @defer and @stream over real HTTP: Apollo Client 4 (deferSpec=20220824 over multipart) sees the
// chat home's rows first and their last message and unread count after; the multipart and SSE
// wire formats; a client that accepts only JSON gets the whole answer at once; the cost limit,
// result caps and upstream error wording apply to the deferred parts; compiled execution (the
// suite's default) leaves these documents to graphql-js.
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { Defer20220824Handler } from '@apollo/client/incremental';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../helpers/stack';
import { sendText } from '../../helpers/subscriptions/operations';
import { identity } from '../../helpers/users';
import type { TestUser } from '../../helpers/emulator';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ MAX_ERRORS: '3', MAX_RESPONSE_BYTES: '4096' });
});
afterAll(() => stack.stop());

const HOME = `query DeferredHome {
  me {
    conversations(first: 10) {
      edges {
        node {
          id
          ... @defer {
            unreadCount
            lastMessage { id content }
          }
        }
      }
    }
  }
}`;

interface Row {
  id: string;
  unreadCount?: number;
  lastMessage?: { id: string; content: string };
}
interface HomeData {
  me: { conversations: { edges: { node: Row }[] } };
}

/** A user with one conversation: a message from a peer, unread. */
async function withConversation(): Promise<{ me: TestUser; peer: TestUser; messageId: string }> {
  const me = await stack.emu.user();
  const peer = await stack.emu.user();
  const messageId = await sendText(stack.emu, peer, me, 'deferred hello');
  return { me, peer, messageId };
}

const DEFER_ACCEPT = 'multipart/mixed;deferSpec=20220824, application/json';

interface Part {
  data?: unknown;
  errors?: { extensions?: Record<string, unknown> }[];
  hasNext?: boolean;
  incremental?: { data?: unknown; items?: unknown[]; errors?: { extensions?: Record<string, unknown> }[]; path: (string | number)[] }[];
}

/** A raw POST of a GraphQL document with this Accept. */
const post = (me: TestUser, query: string, accept: string, variables?: Record<string, unknown>) =>
  fetch(`${stack.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, ...identity(stack.emu, me) },
    body: JSON.stringify({ query, variables }),
  });

/** The JSON parts of a multipart answer, in order (the boundary read from its Content-Type). */
function multipartParts(contentType: string | null, body: string): unknown[] {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType ?? '')?.[1];
  expect(boundary).toBeDefined();
  expect(body.endsWith(`--${boundary}--\r\n`)).toBe(true);
  return body
    .split(`\r\n--${boundary}`)
    .slice(1, -1)
    .map((part) => JSON.parse(part.slice(part.indexOf('\r\n\r\n') + 4)) as unknown);
}

describe('@defer', () => {
  it('Apollo Client 4 sees the rows first, then their last message and unread count', async () => {
    const { me, peer, messageId } = await withConversation();
    const client = new ApolloClient({
      link: new HttpLink({ uri: `${stack.url}/graphql`, headers: identity(stack.emu, me) }),
      cache: new InMemoryCache(),
      incrementalHandler: new Defer20220824Handler(),
    });
    try {
      const seen: { data: HomeData | undefined; dataState: string }[] = [];
      await new Promise<void>((resolve, reject) => {
        const sub = client.watchQuery<HomeData>({ query: gql(HOME), fetchPolicy: 'network-only' }).subscribe({
          next: (result) => {
            if (result.error) reject(result.error);
            if (result.data) seen.push({ data: result.data as HomeData, dataState: result.dataState });
            if (result.dataState === 'complete') {
              sub.unsubscribe();
              resolve();
            }
          },
          error: reject,
        });
      });
      const rows = (s: (typeof seen)[number]) => s.data!.me.conversations.edges.map((e) => e.node);
      // First the non-deferred part: the row without its deferred fields.
      expect(seen[0]!.dataState).toBe('streaming');
      expect(rows(seen[0]!)).toEqual([{ __typename: 'Conversation', id: expect.any(String) }]);
      // Then the whole.
      const last = seen.at(-1)!;
      expect(rows(last)).toEqual([
        {
          __typename: 'Conversation',
          id: rows(seen[0]!)[0]!.id,
          unreadCount: 1,
          lastMessage: { __typename: 'Message', id: messageId, content: 'deferred hello' },
        },
      ]);
      expect(peer.id).toBeDefined();
    } finally {
      client.stop();
    }
  });

  it('answers multipart/mixed: the first part with data and hasNext, the deferred part at its path, the closing boundary', async () => {
    const { me, messageId } = await withConversation();
    const res = await post(me, HOME, 'multipart/mixed;deferSpec=20220824, application/json');
    expect(res.status).toBe(200);
    const parts = multipartParts(res.headers.get('content-type'), await res.text()) as {
      data?: HomeData;
      hasNext: boolean;
      incremental?: { data: Row; path: (string | number)[] }[];
    }[];
    expect(parts[0]).toMatchObject({ hasNext: true, data: { me: { conversations: { edges: [{ node: { id: expect.any(String) } }] } } } });
    expect(parts[0]!.data!.me.conversations.edges[0]!.node.lastMessage).toBeUndefined();
    const incremental = parts.slice(1).flatMap((p) => p.incremental ?? []);
    expect(incremental).toEqual([
      {
        data: { unreadCount: 1, lastMessage: { id: messageId, content: 'deferred hello' } },
        path: ['me', 'conversations', 'edges', 0, 'node'],
      },
    ]);
    expect(parts.at(-1)!.hasNext).toBe(false);
  });

  it('answers SSE: one next event per payload, then complete', async () => {
    const { me, messageId } = await withConversation();
    const res = await post(me, HOME, 'text/event-stream');
    const text = await res.text();
    const events = text
      .split('\n\n')
      .filter((block) => block.startsWith('event:'))
      .map((block) => ({ event: /^event: (\w+)/.exec(block)![1], data: /\ndata: (.*)/.exec(block)?.[1] }));
    expect(events.at(-1)!.event).toBe('complete');
    const payloads = events
      .filter((e) => e.event === 'next')
      .map((e) => JSON.parse(e.data!) as { hasNext: boolean; incremental?: { data: Row }[] });
    expect(payloads[0]!.hasNext).toBe(true);
    expect(payloads.flatMap((p) => p.incremental ?? []).map((i) => i.data.lastMessage?.id)).toEqual([messageId]);
  });

  it('answers a client that accepts only JSON with the whole answer at once', async () => {
    const { me, messageId } = await withConversation();
    const res = await post(me, HOME, 'application/json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const reply = (await res.json()) as { data: HomeData; hasNext?: boolean };
    expect(reply.hasNext).toBeUndefined();
    expect(reply.data.me.conversations.edges[0]!.node).toMatchObject({ unreadCount: 1, lastMessage: { id: messageId } });
  });

  it('refuses an Accept that allows neither a stream nor JSON with 406 before any REST call', async () => {
    const { me } = await withConversation();
    stack.emu.mark();
    const res = await post(me, HOME, 'image/png');
    expect(res.status).toBe(406);
    expect(stack.emu.calls('GET /message/unread')).toEqual([]);
  });

  it('still refuses an operation over the cost limit before any REST call', async () => {
    const { me } = await withConversation();
    stack.emu.mark();
    const res = await post(
      me,
      `{ me { joinedGroups(first: 1000) { nodes { id ... @defer { members(first: 1000) { nodes { user { nickName } } } } } } } }`,
      'multipart/mixed;deferSpec=20220824, application/json',
    );
    const text = await res.text();
    expect(text).toContain('MAX_COST_EXCEEDED');
    expect(stack.emu.server.calls.length).toBe(0);
  });

  it('words upstream failures of a deferred part and caps their number (MAX_ERRORS=3)', async () => {
    const { me } = await withConversation();
    const ids = Array.from({ length: 6 }, (_, i) => String(2_900_000_000_000 + i));
    const res = await post(me, 'query($ids: [ID!]!) { ... @defer { groups(ids: $ids) { name } } }', DEFER_ACCEPT, { ids });
    const parts = multipartParts(res.headers.get('content-type'), await res.text()) as Part[];
    const deferred = parts.flatMap((p) => p.incremental ?? []);
    expect(deferred).toHaveLength(1);
    expect(deferred[0]!.errors!.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND', 'NOT_FOUND', 'TOO_MANY_ERRORS']);
  });

  it('ends the answer with RESPONSE_TOO_LARGE when the deferred parts pass MAX_RESPONSE_BYTES (4096)', async () => {
    const { me } = await withConversation();
    const res = await post(me, '{ me { id } ... @defer { __schema { types { name description } } } }', DEFER_ACCEPT);
    const parts = multipartParts(res.headers.get('content-type'), await res.text()) as Part[];
    expect(parts[0]).toMatchObject({ data: { me: { id: String(me.id) } }, hasNext: true });
    expect(parts.at(-1)).toEqual({
      errors: [expect.objectContaining({ extensions: { code: 'RESPONSE_TOO_LARGE', limit: 4096 } })],
      hasNext: false,
    });
    expect(parts.flatMap((p) => p.incremental ?? [])).toEqual([]);
  });
});

describe('@stream', () => {
  it('streams the items of a list after the first ones', async () => {
    const { me, peer } = await withConversation();
    await sendText(stack.emu, me, peer, 'second');
    const res = await post(
      me,
      '{ me { conversations(first: 1) { nodes { messages(last: 10) { nodes @stream(initialCount: 1) { content } } } } } }',
      DEFER_ACCEPT,
    );
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const parts = multipartParts(res.headers.get('content-type'), text) as Part[];
    expect(parts[0]).toMatchObject({
      data: { me: { conversations: { nodes: [{ messages: { nodes: [{ content: 'deferred hello' }] } }] } } },
    });
    const streamed = parts.flatMap((p) => p.incremental ?? []);
    expect(streamed).toEqual([{ items: [{ content: 'second' }], path: ['me', 'conversations', 'nodes', 0, 'messages', 'nodes', 1] }]);
  });
});
