// The probe's finding 1 replayed (issue 35): the rate limit keyed on whatever token was sent, so
// made-up tokens, a random app_id beside a real token, or other headers named in a WebSocket
// operation's extensions were each a fresh bucket. Now only a token the service has accepted is
// an identity of its own; anything else is its client's address, over HTTP and WebSocket alike.
// Behind a proxy that address comes from X-Forwarded-For, but only from TRUSTED_PROXIES.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, freshLoopback, proveToken, sendFrom } from '../helpers/http-from';
import { startStack, type Stack } from '../helpers/stack';
import { wsClient } from '../helpers/subscriptions/clients';
import { identity } from '../helpers/users';
import { until } from '../helpers/wait';

const LOGIN = 'mutation ($name: String!, $password: String!) { loginByName(input: { username: $name, password: $password }) { ok } }';
const ME = '{ me { id } }';
const madeUp = () => randomBytes(16).toString('hex');
const passed = (answers: Answer[]) => answers.filter((a) => a.status === 200).length;
/** What a bucket of 5 per 10 s lets through since `started`: the burst, and one more every 2 s (a busy machine is slow). */
const budgetSince = (started: number) => 5 + Math.floor((Date.now() - started) / 2_000);

describe('RATE_LIMIT=5/10s (sign-in limits off, to see the rate limit alone)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ RATE_LIMIT: '5/10s', SIGN_IN_LIMIT_ADDRESS: 'off', SIGN_IN_LIMIT_NAME: 'off' });
  });
  afterAll(() => stack.stop());

  it("lets 200 password guesses, each with a made-up token, through no more than the address's budget", async () => {
    const victim = await stack.emu.user();
    const from = freshLoopback();
    stack.emu.mark();
    const started = Date.now();
    const answers: Answer[] = [];
    for (let round = 0; round < 10; round++) {
      const guesses = Array.from({ length: 20 }, (_, i) =>
        sendFrom(stack.url, {
          headers: { app_id: stack.emu.appId, 'access-token': madeUp() },
          body: { query: LOGIN, variables: { name: victim.name, password: `guess-${round}-${i}` } },
          localAddress: from,
        }),
      );
      answers.push(...(await Promise.all(guesses)));
    }
    const budget = budgetSince(started);
    expect(passed(answers)).toBeLessThanOrEqual(budget);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(answers.length - passed(answers));
    expect(stack.emu.calls('POST /token/user').length).toBeLessThanOrEqual(budget);
    // The refused tokens are proven in the background at most as often as the address may send:
    // a few profile reads, not one per token.
    expect(stack.emu.calls('GET /user/profile').length).toBeLessThanOrEqual(budget);
  });

  it('keys a real token sent with a random app_id by its address, and leaves its own bucket alone', async () => {
    const user = await stack.emu.user();
    await proveToken(stack.url, identity(stack.emu, user));
    const from = freshLoopback();
    stack.emu.mark();
    const started = Date.now();
    const answers: Answer[] = [];
    for (let i = 0; i < 30; i++) {
      answers.push(
        await sendFrom(stack.url, {
          headers: { app_id: `app-${madeUp()}`, 'access-token': user.token },
          body: { query: ME },
          localAddress: from,
        }),
      );
    }
    expect(passed(answers)).toBeLessThanOrEqual(budgetSince(started));
    // Each let through makes its read (refused: APP_NOT_FOUND), and the refused are proven at most as often.
    expect(stack.emu.calls().length).toBeLessThanOrEqual(2 * budgetSince(started));
    // The token's own bucket (its real app) is untouched but for its proof: 4 pass from yet another address.
    const own: Answer[] = [];
    for (let i = 0; i < 4; i++)
      own.push(await sendFrom(stack.url, { headers: identity(stack.emu, user), body: { query: ME }, localAddress: freshLoopback() }));
    expect(passed(own)).toBe(4);
  });

  it('proves a real token refused behind a busy shared address, so that its next try has a bucket of its own', async () => {
    const from = freshLoopback();
    while ((await sendFrom(stack.url, { body: { query: '{ __typename }' }, localAddress: from })).status === 200);
    const user = await stack.emu.user();
    const mine = { headers: identity(stack.emu, user), body: { query: ME }, localAddress: from };
    expect((await sendFrom(stack.url, mine)).status).toBe(429);
    // Proven in the background by its own profile read; the address's bucket is still empty.
    await until('the token has a bucket of its own', async () => (await sendFrom(stack.url, mine)).status === 200);
    expect((await sendFrom(stack.url, { body: { query: '{ __typename }' }, localAddress: from })).status).toBe(429);
  });

  it("keys WebSocket operations naming other headers in extensions.headers the same way: made-up tokens share the socket's address", async () => {
    const user = await stack.emu.user();
    // The connection's own token is proven when the socket connects.
    const client = wsClient(stack.url, identity(stack.emu, user));
    try {
      const started = Date.now();
      const results = [];
      for (let i = 0; i < 30; i++) {
        const headers = { app_id: i % 2 ? `app-${madeUp()}` : stack.emu.appId, 'access-token': i % 3 ? madeUp() : user.token };
        const feed = client.feed<unknown>('{ __typename }', undefined, { headers });
        results.push(await feed.ending);
      }
      const refused = results.filter((r) => 'error' in r && JSON.stringify(r.error).includes('RATE_LIMITED'));
      // The real token with the real app (every sixth) has a bucket of its own, proven at connect.
      expect(results.length - refused.length).toBeLessThanOrEqual(2 * budgetSince(started));
      expect(refused.length).toBeGreaterThanOrEqual(30 - 2 * budgetSince(started));
    } finally {
      await client.dispose();
    }
  });
});

describe('TRUSTED_PROXIES', () => {
  const anonymous = (stack: Stack, forwardedFor: string) =>
    sendFrom(stack.url, { headers: { 'x-forwarded-for': forwardedFor }, body: { query: '{ __typename }' }, localAddress: '127.0.0.9' });

  describe('listing the proxy (127.0.0.9)', () => {
    let stack: Stack;
    beforeAll(async () => {
      stack = await startStack({ RATE_LIMIT: '2/1m', TRUSTED_PROXIES: '127.0.0.9, 10.0.0.0/8' });
    });
    afterAll(() => stack.stop());

    it('keys each client behind it by the address X-Forwarded-For names, and what a client writes there itself is not believed', async () => {
      for (let i = 0; i < 2; i++) expect((await anonymous(stack, '203.0.113.1')).status).toBe(200);
      expect((await anonymous(stack, '203.0.113.1')).status).toBe(429);
      // A client writing another address in front: the proxy appends the one it saw.
      expect((await anonymous(stack, '198.51.100.7, 203.0.113.1')).status).toBe(429);
      // Through a second trusted proxy (10.0.0.5): still the client's own address.
      expect((await anonymous(stack, '203.0.113.1, 10.0.0.5')).status).toBe(429);
      // Another client behind the same proxy: a bucket of its own.
      expect((await anonymous(stack, '203.0.113.2')).status).toBe(200);
    });
  });

  describe('unset', () => {
    let stack: Stack;
    beforeAll(async () => {
      stack = await startStack({ RATE_LIMIT: '2/1m' });
    });
    afterAll(() => stack.stop());

    it('ignores X-Forwarded-For: every client of one peer shares its bucket', async () => {
      expect((await anonymous(stack, '203.0.113.1')).status).toBe(200);
      expect((await anonymous(stack, '203.0.113.2')).status).toBe(200);
      expect((await anonymous(stack, '203.0.113.3')).status).toBe(429);
    });
  });
});
