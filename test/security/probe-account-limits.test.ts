// Issue 40: the sign-in limits counted what a request did to others. One tokenless registerUsers
// naming 999 users five times locked them out of sign-in (registration charged each name's
// sign-in bucket, the address once); successful sign-ins counted against the name (the README's
// first login, run a sixth time within a minute, got 429); and name, `id:` and mobile were three
// buckets of one account. Now: a registration charges the address per name registered and no
// sign-in bucket; a success gives its try back; the spellings of an account the gateway has seen
// sign in share one bucket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, freshLoopback, sendFrom } from '../helpers/http-from';
import { startStack, type Stack } from '../helpers/stack';
import type { TestUser } from '../helpers/users';

const LOGIN_BY_NAME =
  'mutation ($name: String!, $password: String!) { loginByName(input: { username: $name, password: $password }) { ok userErrors { code } } }';
const LOGIN_BY_ID =
  'mutation ($id: ID!, $password: String!) { loginById(input: { userId: $id, password: $password }) { ok userErrors { code } } }';
const LOGIN_BY_LOGIN_NAME =
  'mutation ($login: String!, $password: String!) { loginByLoginName(input: { loginName: $login, password: $password }) { ok userErrors { code } } }';
const REGISTER_USERS = 'mutation ($users: [RegisterUserInput!]!) { registerUsers(input: { users: $users }) { ok } }';

const send = (stack: Stack, query: string, variables: Record<string, unknown>) =>
  sendFrom(stack.url, { body: { query, variables }, localAddress: freshLoopback() });
const codeOf = (a: Answer) => a.body.errors?.[0]?.extensions?.code;
const signedIn = (a: Answer) => Object.values((a.body.data ?? {}) as Record<string, { ok: boolean }>)[0]?.ok;

/** `count` users, and a registerUsers input naming each of them `times` times. */
async function victims(stack: Stack, count: number, times: number): Promise<{ users: TestUser[]; entries: unknown[] }> {
  const users: TestUser[] = [];
  for (let i = 0; i < count; i++) users.push(await stack.emu.user());
  const entries = users.flatMap((u) => Array.from({ length: times }, (_, i) => ({ username: u.name, password: `guess-${i}` })));
  return { users, entries };
}

describe('registration never charges sign-in buckets (registration limit off, sign-in limits at their defaults)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ SIGN_IN_LIMIT_ADDRESS: '10/1m', REGISTRATION_LIMIT_ADDRESS: 'off' });
  });
  afterAll(() => stack.stop());

  it('one tokenless registerUsers naming 50 existing users five times does not keep them from signing in', async () => {
    const { users, entries } = await victims(stack, 50, 5);
    const registered = await sendFrom(stack.url, {
      body: { query: REGISTER_USERS, variables: { users: entries } },
      localAddress: freshLoopback(),
    });
    // Every name is taken: the service refuses each entry (the batch ran: nothing limited it here).
    expect(registered.status).toBe(200);
    expect(registered.body.data).toEqual({ registerUsers: { ok: false } });
    for (const victim of users) {
      const answer = await send(stack, LOGIN_BY_NAME, { name: victim.name, password: victim.password });
      expect(answer.status).toBe(200);
      expect(signedIn(answer)).toBe(true);
    }
  });
});

describe('the default limits: registration 20/1m per address, sign-in 10/1m per address and 5/1m per account', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ SIGN_IN_LIMIT_ADDRESS: '10/1m', REGISTRATION_LIMIT_ADDRESS: '20/1m' });
  });
  afterAll(() => stack.stop());

  it('charges a registration per name registered: 250 names are refused whole, before any REST call', async () => {
    const { users, entries } = await victims(stack, 50, 5);
    stack.emu.mark();
    const refused = await sendFrom(stack.url, {
      body: { query: REGISTER_USERS, variables: { users: entries } },
      localAddress: freshLoopback(),
    });
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toMatch(/^[1-9]\d*$/);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', limit: 20, window: '1m' });
    expect(refused.body.errors?.[0]?.message).toMatch(/250 users registered from this address/);
    expect(stack.emu.calls()).toHaveLength(0);
    // One address: 20 names pass, the 21st is refused.
    const from = freshLoopback();
    const register = (names: string[]) =>
      sendFrom(stack.url, {
        body: { query: REGISTER_USERS, variables: { users: names.map((username) => ({ username, password: 'pw-123456' })) } },
        localAddress: from,
      });
    const fresh = (n: number) => Array.from({ length: n }, (_, i) => `fresh${i}_${Math.random().toString(36).slice(2, 8)}`);
    expect((await register(fresh(20))).body.data).toEqual({ registerUsers: { ok: true } });
    expect(codeOf(await register(fresh(1)))).toBe('RATE_LIMITED');
    // The victims sign in with their passwords.
    for (const victim of users.slice(0, 10))
      expect(signedIn(await send(stack, LOGIN_BY_NAME, { name: victim.name, password: victim.password }))).toBe(true);
  });

  it('does not count successful sign-ins: the README login runs ten times in a row from one address', async () => {
    const user = await stack.emu.user();
    const from = freshLoopback();
    for (let i = 0; i < 10; i++) {
      const answer = await sendFrom(stack.url, {
        body: { query: LOGIN_BY_NAME, variables: { name: user.name, password: user.password } },
        localAddress: from,
      });
      expect(answer.status).toBe(200);
      expect(signedIn(answer)).toBe(true);
    }
    // Wrong passwords still count: five, then the account is held back, even for the right password.
    for (let i = 0; i < 5; i++) expect(signedIn(await send(stack, LOGIN_BY_NAME, { name: user.name, password: `wrong-${i}` }))).toBe(false);
    expect(codeOf(await send(stack, LOGIN_BY_NAME, { name: user.name, password: user.password }))).toBe('RATE_LIMITED');
  });

  it('counts the user name, the ID and the mobile of one account in one bucket once the account has signed in with them', async () => {
    const user = await stack.emu.user();
    const mobile = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    await stack.emu.ok('PUT', '/user/mobile', { token: user.token, query: { mobile } });
    // Successes teach the gateway the spellings (and cost nothing); the profile read teaches the
    // ones not used yet (sign-in-accounts.test.ts: it lands in the background).
    expect(signedIn(await send(stack, LOGIN_BY_NAME, { name: user.name, password: user.password }))).toBe(true);
    expect(signedIn(await send(stack, LOGIN_BY_LOGIN_NAME, { login: mobile, password: user.password }))).toBe(true);
    const guesses: [string, Record<string, unknown>][] = [
      [LOGIN_BY_NAME, { name: user.name, password: 'wrong-1' }],
      [LOGIN_BY_ID, { id: String(user.id), password: 'wrong-2' }],
      [LOGIN_BY_LOGIN_NAME, { login: mobile, password: 'wrong-3' }],
      [LOGIN_BY_NAME, { name: user.name.toUpperCase(), password: 'wrong-4' }],
      [LOGIN_BY_ID, { id: String(user.id), password: 'wrong-5' }],
    ];
    for (const [query, variables] of guesses) expect(signedIn(await send(stack, query, variables))).toBe(false);
    // The sixth guess, whatever its spelling, finds the account's bucket empty.
    expect(codeOf(await send(stack, LOGIN_BY_LOGIN_NAME, { login: mobile, password: 'wrong-6' }))).toBe('RATE_LIMITED');
    expect(codeOf(await send(stack, LOGIN_BY_NAME, { name: user.name, password: 'wrong-7' }))).toBe('RATE_LIMITED');
    expect(codeOf(await send(stack, LOGIN_BY_ID, { id: String(user.id), password: 'wrong-8' }))).toBe('RATE_LIMITED');
  });
});
