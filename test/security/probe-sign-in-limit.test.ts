// The probe found loginByName guessed 200 times in 3.8 s. Sign-in, registration and password
// operations now have limits of their own, on by default (RATE_LIMIT unset here): 5 a minute per
// login name from any address, 10 a minute per client address across names. Past them the
// operation is refused with RATE_LIMITED (429 and Retry-After over HTTP) and makes no REST call,
// however it is sent: aliases in one document, a batch, WebSocket, a persisted (APQ) document.
// With REDIS_URL the limits hold across replicas.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway';
import { type Answer, freshLoopback, sendFrom } from '../helpers/http-from';
import { startStack, suiteEnv, type Stack } from '../helpers/stack';
import { wsClient } from '../helpers/subscriptions/clients';
import { freshName } from '../helpers/users';

const LOGIN =
  'mutation ($name: String!, $password: String!) { loginByName(input: { username: $name, password: $password }) { ok userErrors { code } } }';
const guess = (name: string, i: number) => ({ query: LOGIN, variables: { name, password: `guess-${i}` } });
const refusedCode = (a: Answer) => a.body.errors?.[0]?.extensions?.code;

function expectRefused(answer: Answer) {
  expect(answer.status).toBe(429);
  expect(answer.retryAfter).toMatch(/^[1-9]\d*$/);
  expect(refusedCode(answer)).toBe('RATE_LIMITED');
}

describe('the default sign-in limits (5/1m per name, 10/1m per address)', () => {
  let stack: Stack;
  beforeAll(async () => {
    // The default, which the suite's environment turns off (test/helpers/stack.ts).
    stack = await startStack({ SIGN_IN_LIMIT_ADDRESS: '10/1m' });
  });
  afterAll(() => stack.stop());

  it('stops guessing one name after 5 tries from any addresses, with no REST call past them', async () => {
    const victim = await stack.emu.user();
    stack.emu.mark();
    for (let i = 0; i < 5; i++) {
      const answer = await sendFrom(stack.url, { body: guess(victim.name, i), localAddress: freshLoopback() });
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({ loginByName: { ok: false, userErrors: [{ code: 'UNAUTHENTICATED' }] } });
    }
    expect(stack.emu.calls('POST /token/user')).toHaveLength(5);
    for (let i = 5; i < 20; i++) expectRefused(await sendFrom(stack.url, { body: guess(victim.name, i), localAddress: freshLoopback() }));
    // Even the right password: the name's bucket is empty.
    expectRefused(await sendFrom(stack.url, { body: guess(victim.name, 0), localAddress: freshLoopback() }));
    expect(stack.emu.calls('POST /token/user')).toHaveLength(5);
    // Another name is untouched.
    const other = await stack.emu.user();
    const answer = await sendFrom(stack.url, {
      body: { query: LOGIN, variables: { name: other.name, password: other.password } },
      localAddress: freshLoopback(),
    });
    expect(answer.body.data).toEqual({ loginByName: { ok: true, userErrors: [] } });
  });

  it('stops one address after 10 tries across names, with no REST call past them', async () => {
    const from = freshLoopback();
    stack.emu.mark();
    for (let i = 0; i < 10; i++)
      expect((await sendFrom(stack.url, { body: guess(freshName('nobody'), i), localAddress: from })).status).toBe(200);
    expectRefused(await sendFrom(stack.url, { body: guess(freshName('nobody'), 10), localAddress: from }));
    // (The earlier test's sign-in may read its user's profile in the background: sign-ins are counted by their endpoint.)
    expect(stack.emu.calls('POST /token/user')).toHaveLength(10);
    // A registration guesses no password: it is not a sign-in (its own limit is per address, off here).
    const register = 'mutation ($u: String!) { registerUser(input: { username: $u, password: "pw-123456" }) { ok } }';
    const registered = await sendFrom(stack.url, { body: { query: register, variables: { u: freshName() } }, localAddress: from });
    expect(registered.body.data).toEqual({ registerUser: { ok: true } });
  });

  it('counts every alias of one document, and refuses the document whole', async () => {
    const name = (await stack.emu.user()).name;
    const aliases = Array.from({ length: 6 }, (_, i) => `a${i}: loginByName(input: { username: "${name}", password: "g${i}" }) { ok }`);
    stack.emu.mark();
    expectRefused(await sendFrom(stack.url, { body: { query: `mutation { ${aliases.join(' ')} }` }, localAddress: freshLoopback() }));
    expect(stack.emu.calls()).toHaveLength(0);
  });

  it('counts each operation of a batch: the 6th try of a name is refused at its index', async () => {
    const name = (await stack.emu.user()).name;
    stack.emu.mark();
    const answer = await sendFrom(stack.url, { body: Array.from({ length: 6 }, (_, i) => guess(name, i)), localAddress: freshLoopback() });
    const results = answer.body as unknown as { errors?: { extensions?: { code?: string } }[] }[];
    expect(results).toHaveLength(6);
    expect(results.filter((r) => r.errors?.[0]?.extensions?.code === 'RATE_LIMITED')).toHaveLength(1);
    expect(stack.emu.calls('POST /token/user')).toHaveLength(5);
  });

  it('counts WebSocket operations the same, and the socket lives on', async () => {
    const name = (await stack.emu.user()).name;
    const client = wsClient(stack.url, {});
    try {
      stack.emu.mark();
      const results = [];
      for (let i = 0; i < 6; i++) results.push(await client.feed<unknown>(LOGIN, { name, password: `g${i}` }).next());
      expect(results.slice(0, 5).every((r) => r.errors === undefined)).toBe(true);
      expect(results[5]?.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', limit: 5, window: '1m' });
      expect(stack.emu.calls('POST /token/user')).toHaveLength(5);
      expect((await client.feed<unknown>('{ __typename }').next()).data).toEqual({ __typename: 'Query' });
    } finally {
      await client.dispose();
    }
  });

  it('counts persisted (APQ) documents the same', async () => {
    const name = (await stack.emu.user()).name;
    const persistedQuery = { version: 1, sha256Hash: createHash('sha256').update(LOGIN).digest('hex') };
    stack.emu.mark();
    const register = await sendFrom(stack.url, {
      body: { ...guess(name, 0), extensions: { persistedQuery } },
      localAddress: freshLoopback(),
    });
    expect(register.status).toBe(200);
    for (let i = 1; i < 5; i++) {
      const byHash = { variables: { name, password: `g${i}` }, extensions: { persistedQuery } };
      expect((await sendFrom(stack.url, { body: byHash, localAddress: freshLoopback() })).status).toBe(200);
    }
    expectRefused(
      await sendFrom(stack.url, {
        body: { variables: { name, password: 'g5' }, extensions: { persistedQuery } },
        localAddress: freshLoopback(),
      }),
    );
    expect(stack.emu.calls('POST /token/user')).toHaveLength(5);
  });
});

describe('sign-in limits on one Redis, two gateways', () => {
  const prefix = `sign-in-test:${randomBytes(4).toString('hex')}:`;
  const replicas: { gateway: Gateway; url: string }[] = [];
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
    for (let i = 0; i < 2; i++) {
      const env = { ...suiteEnv(), PORT: '1', IM_APP_ID: stack.emu.appId, REDIS_URL: inject('redisUrl'), SIGN_IN_LIMIT_NAME: '3/1m' };
      const gateway = createGateway({ ...loadConfig(env), port: 0 }, { imBaseUrl: stack.emu.url, redisPrefix: prefix });
      replicas.push({ gateway, url: await gateway.start() });
    }
  });
  afterAll(async () => {
    for (const { gateway } of replicas) await gateway.stop();
    await stack.stop();
  });

  it('hold the per-name limit across replicas', async () => {
    const name = (await stack.emu.user()).name;
    const [a, b] = replicas.map((r) => r.url) as [string, string];
    stack.emu.mark();
    for (const url of [a, b, a]) expect((await sendFrom(url, { body: guess(name, 0), localAddress: freshLoopback() })).status).toBe(200);
    for (const url of [b, a]) expectRefused(await sendFrom(url, { body: guess(name, 1), localAddress: freshLoopback() }));
    expect(stack.emu.calls('POST /token/user')).toHaveLength(3);
  });
});
