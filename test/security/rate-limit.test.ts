// RATE_LIMIT in memory, over real HTTP and graphql-ws: an identity's operations past the limit
// are refused with 429, RATE_LIMITED and Retry-After before any REST call; identities (proven
// tokens, proven first from an address of their own; addresses otherwise) have buckets of their own; GET, SSE and WebSocket operations count
// against the same bucket; the bucket refills.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/emulator';
import { startStack, type Stack } from '../helpers/stack';
import { sseFeed, wsClient } from '../helpers/subscriptions/clients';
import { UNREAD } from '../helpers/subscriptions/operations';
import { identity } from '../helpers/users';
import { sleep } from '../helpers/wait';
import { type Answer, proveToken, sendFrom } from '../helpers/http-from';

/** A GraphQL request over node:http (so that the test picks the client's address). */
const send = (stack: Stack, init: Parameters<typeof sendFrom>[1]) => sendFrom(stack.url, init);

const ME = '{ me { nickName } }';

function expectRefused(answer: Answer) {
  expect(answer.status).toBe(429);
  expect(answer.retryAfter).toMatch(/^[1-9]\d*$/);
  expect(answer.body.errors).toEqual([
    expect.objectContaining({
      extensions: expect.objectContaining({ code: 'RATE_LIMITED', retryAfter: Number(answer.retryAfter), limit: 3 }),
    }),
  ]);
}

describe('RATE_LIMIT=3/1m in memory', () => {
  let stack: Stack;
  const users: TestUser[] = [];
  const asUser = (u: TestUser) => ({ ...identity(stack.emu, u) });
  beforeAll(async () => {
    // A minute refills one operation every 20 s: nothing refills while a test runs.
    stack = await startStack({ RATE_LIMIT: '3/1m' });
    for (let i = 0; i < 5; i++) users.push(await stack.emu.user());
  });
  afterAll(() => stack.stop());

  it('refuses the 4th operation of a token with 429, RATE_LIMITED and Retry-After, before any REST call', async () => {
    const [alice] = users;
    // The request that proves the token is its first operation: a token counts from its first request on.
    await proveToken(stack.url, asUser(alice!));
    stack.emu.mark();
    for (let i = 0; i < 2; i++) {
      const answer = await send(stack, { headers: asUser(alice!), body: { query: ME } });
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
    }
    expect(stack.emu.calls()).toHaveLength(2);
    stack.emu.mark();
    const refused = await send(stack, { headers: asUser(alice!), body: { query: ME } });
    expectRefused(refused);
    // 3 per minute: one back every 20 s.
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(20);
    expect(stack.emu.calls()).toHaveLength(0);
  });

  it('gives every token a bucket of its own', async () => {
    const bob = users[1]!;
    await proveToken(stack.url, asUser(bob));
    for (let i = 0; i < 2; i++) expect((await send(stack, { headers: asUser(bob), body: { query: ME } })).status).toBe(200);
    expectRefused(await send(stack, { headers: asUser(bob), body: { query: ME } }));
    // The same user logged in again: another token, another bucket.
    const again = await stack.emu.ok<{ token: string }>('POST', '/token/user', { body: { name: bob.name, password: bob.password } });
    await proveToken(stack.url, identity(stack.emu, again));
    expect((await send(stack, { headers: identity(stack.emu, again), body: { query: ME } })).status).toBe(200);
  });

  it('keys a caller without a token by its address, whatever app_id it names', async () => {
    const anonymous = (appId: string, localAddress: string) =>
      send(stack, { headers: { app_id: appId }, body: { query: '{ __typename }' }, localAddress });
    for (let i = 0; i < 3; i++) expect((await anonymous(`app-${i}`, '127.0.0.1')).status).toBe(200);
    expectRefused(await anonymous('app-x', '127.0.0.1'));
    // Another address: a bucket of its own.
    expect((await anonymous('app-x', '127.0.0.2')).status).toBe(200);
  });

  it('counts GET and SSE requests in the same bucket as POSTs', async () => {
    const carol = users[2]!;
    await proveToken(stack.url, asUser(carol));
    expect((await send(stack, { method: 'GET', headers: asUser(carol), query: ME })).status).toBe(200);
    const feed = sseFeed(stack.url, asUser(carol), UNREAD);
    try {
      await feed.next();
    } finally {
      await feed.close();
    }
    expectRefused(await send(stack, { method: 'GET', headers: asUser(carol), query: ME }));
    const refusedStream = sseFeed<unknown>(stack.url, asUser(carol), UNREAD);
    try {
      const result = await refusedStream.next();
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
    } finally {
      await refusedStream.close();
    }
  });

  it('counts each WebSocket operation, refuses the one over the limit alone, and the socket lives on', async () => {
    const dave = users[3]!;
    const erin = users[4]!;
    await proveToken(stack.url, asUser(dave));
    await proveToken(stack.url, asUser(erin));
    const client = wsClient(stack.url, identity(stack.emu, dave));
    try {
      for (let i = 0; i < 2; i++) expect((await client.feed<unknown>(ME).next()).errors).toBeUndefined();
      stack.emu.mark();
      // graphql-ws's `error` message for that operation.
      const ending = await client.feed<unknown>(ME).ending;
      const errors = (ending as { error?: { extensions?: Record<string, unknown> }[] }).error;
      expect(errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', limit: 3 });
      expect(errors?.[0]?.extensions).not.toHaveProperty('http');
      expect(stack.emu.calls()).toHaveLength(0);
      // Another identity on the same socket (GraphiQL's per-operation headers) is served.
      const other = await client.feed<{ me: { nickName: string } }>(ME, undefined, { headers: identity(stack.emu, erin) }).next();
      expect(other.errors).toBeUndefined();
      expect(other.data?.me.nickName).toEqual(expect.any(String));
    } finally {
      await client.dispose();
    }
    // And HTTP shares the bucket the socket emptied.
    expectRefused(await send(stack, { headers: asUser(dave), body: { query: ME } }));
  });

  it('counts the refusals in /metrics by transport', async () => {
    const text = await (await fetch(`${stack.url}/metrics`)).text();
    expect(text).toMatch(/^im_gateway_rate_limited_total\{transport="http"\} [1-9]/m);
    expect(text).toMatch(/^im_gateway_rate_limited_total\{transport="ws"\} [1-9]/m);
  });
});

describe('RATE_LIMIT=2/2s', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ RATE_LIMIT: '2/2s' });
  });
  afterAll(() => stack.stop());

  it('lets the caller in again once Retry-After has passed', async () => {
    const user = await stack.emu.user();
    const headers = identity(stack.emu, user);
    let refused: Answer | undefined;
    // Two at once empty the bucket; one comes back a second later (a slow machine may need more tries).
    for (let i = 0; i < 20 && !refused; i++) {
      const answer = await send(stack, { headers, body: { query: ME } });
      if (answer.status !== 200) refused = answer;
    }
    expectRefusedOf2(refused);
    await sleep(Number(refused!.retryAfter) * 1_000);
    const again = await send(stack, { headers, body: { query: ME } });
    expect(again.status).toBe(200);
    expect(again.body.errors).toBeUndefined();
  });
});

function expectRefusedOf2(answer: Answer | undefined) {
  expect(answer?.status).toBe(429);
  expect(answer?.body.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', limit: 2, window: '2s' });
  expect(Number(answer?.retryAfter)).toBe(1);
}
