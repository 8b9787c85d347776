// Issue 40: one new account sent 60,000 friend requests in 1.8 s (the limit counted operations,
// not recipients, and was off by default); one sendFriendRequests copied a 240 KB message into
// each of 1,000 entries of one upstream body (RSS +1.8 GB, /health stalled 4.2 s; 1.9 MB threw
// `RangeError: Invalid string length`). Now recipients are charged per identity (RECIPIENT_LIMIT,
// on by default) and a body that repeats input per recipient is bounded before it is built.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, freshLoopback, sendFrom } from '../helpers/http-from';
import { startStack, type Stack } from '../helpers/stack';
import { identity } from '../helpers/users';

const FRIEND_REQUESTS =
  'mutation ($ids: [ID!]!, $message: String) { sendFriendRequests(input: { userIds: $ids, message: $message }) { ok userErrors { code field message } } }';
const FRIEND_REQUEST = 'mutation ($id: ID!) { sendFriendRequest(input: { userId: $id }) { ok } }';
const SEND = 'mutation ($to: [ID!]!) { sendMessage(input: { targets: $to, targetType: USER, type: TEXT, content: "hi" }) { ok } }';

/** Distinct user IDs in the real range (nobody has them: the service refuses each entry, which still counts). */
const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => String(3_000_000_000_000 + from + i));
const codeOf = (a: Answer) => a.body.errors?.[0]?.extensions?.code;

describe('RECIPIENT_LIMIT at its default (300 per 10 minutes per identity)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.stop());

  const as = (headers: Record<string, string>, query: string, variables: Record<string, unknown>) =>
    sendFrom(stack.url, { headers, body: { query, variables }, localAddress: freshLoopback() });

  it('stops one new account sending friend requests to many users at the limit, before any REST call', async () => {
    const spammer = identity(stack.emu, await stack.emu.user());
    expect((await as(spammer, FRIEND_REQUESTS, { ids: ids(250) })).status).toBe(200);
    expect((await as(spammer, FRIEND_REQUESTS, { ids: ids(50, 250) })).status).toBe(200);
    stack.emu.mark();
    const refused = await as(spammer, FRIEND_REQUEST, { id: ids(1, 300)[0] });
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toMatch(/^[1-9]\d*$/);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', limit: 300, window: '10m' });
    expect(refused.body.errors?.[0]?.message).toMatch(/recipients reached by this caller/);
    expect(stack.emu.calls()).toHaveLength(0);
    // Another account is untouched.
    const other = identity(stack.emu, await stack.emu.user());
    expect((await as(other, FRIEND_REQUEST, { id: ids(1, 400)[0] })).status).toBe(200);
  });

  it('refuses at once a batch of more recipients than the bucket holds, and counts every alias', async () => {
    const caller = identity(stack.emu, await stack.emu.user());
    stack.emu.mark();
    expect(codeOf(await as(caller, FRIEND_REQUESTS, { ids: ids(301) }))).toBe('RATE_LIMITED');
    const aliases = Array.from({ length: 2 }, (_, i) => `a${i}: sendFriendRequests(input: { userIds: $ids }) { ok }`).join(' ');
    expect(codeOf(await as(caller, `mutation ($ids: [ID!]!) { ${aliases} }`, { ids: ids(151) }))).toBe('RATE_LIMITED');
    expect(stack.emu.calls()).toHaveLength(0);
  });

  it('charges a message per target when it has several, and a message to one conversation not at all', async () => {
    const caller = identity(stack.emu, await stack.emu.user());
    const friend = await stack.emu.user();
    for (let i = 0; i < 5; i++) expect((await as(caller, SEND, { to: [String(friend.id)] })).status).toBe(200);
    expect((await as(caller, SEND, { to: ids(300) })).status).toBe(200);
    expect(codeOf(await as(caller, SEND, { to: ids(2, 300) }))).toBe('RATE_LIMITED');
    // One target still goes: a conversation is not a fan-out.
    expect((await as(caller, SEND, { to: [String(friend.id)] })).body.errors).toBeUndefined();
  });
});

describe('a fan-out body is bounded before it is built (RECIPIENT_LIMIT off, to see the bound alone)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ RECIPIENT_LIMIT: 'off' });
  });
  afterAll(() => stack.stop());

  it('refuses 1,000 users × a 240 KB message with a userError naming the bound, and /health answers meanwhile', async () => {
    const caller = identity(stack.emu, await stack.emu.user());
    const message = 'x'.repeat(240 * 1024);
    stack.emu.mark();
    const rssBefore = process.memoryUsage().rss;
    const sending = Array.from({ length: 4 }, () =>
      sendFrom(stack.url, { headers: caller, body: { query: FRIEND_REQUESTS, variables: { ids: ids(1000), message } } }),
    );
    const health = await fetch(`${stack.url}/health`);
    expect(health.status).toBe(200);
    for (const answer of await Promise.all(sending)) {
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({
        sendFriendRequests: {
          ok: false,
          userErrors: [
            { code: 'TOO_LARGE', field: ['input', 'message'], message: expect.stringMatching(/over the gateway's bound of 4194304 bytes/) },
          ],
        },
      });
    }
    expect(stack.emu.calls()).toHaveLength(0);
    // Nothing near 4 × 240 MB was built (the bodies were never made).
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
  });

  it('refuses a 1.9 MB message to three users the same way, never a RangeError', async () => {
    const caller = identity(stack.emu, await stack.emu.user());
    const answer = await sendFrom(stack.url, {
      headers: caller,
      body: { query: FRIEND_REQUESTS, variables: { ids: ids(3), message: 'y'.repeat(1_900_000) } },
    });
    expect(answer.body.errors).toBeUndefined();
    expect((answer.body.data as { sendFriendRequests: { userErrors: { code: string }[] } }).sendFriendRequests.userErrors).toEqual([
      expect.objectContaining({ code: 'TOO_LARGE' }),
    ]);
  });

  it('sends a long message to a few users as before', async () => {
    const caller = identity(stack.emu, await stack.emu.user());
    const answer = await sendFrom(stack.url, {
      headers: caller,
      body: { query: FRIEND_REQUESTS, variables: { ids: ids(2), message: 'z'.repeat(100_000) } },
    });
    // Unknown users: the service refuses each entry; the body went.
    expect((answer.body.data as { sendFriendRequests: { userErrors: { code: string }[] } }).sendFriendRequests.userErrors).toHaveLength(2);
  });
});
