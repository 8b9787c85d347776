// Batched operations in one HTTP request (a JSON array body, as Apollo's BatchHttpLink sends it):
// answered as an array in order, at most MAX_BATCH per request (a coded 400 above it, or for any
// array when MAX_BATCH=1, before any REST call); each operation goes through the cost limit on its
// own and takes its own share of the rate limit.
import { ApolloClient, gql, InMemoryCache } from '@apollo/client';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BATCH, loadConfig } from '../../../src/config';
import type { TestUser } from '../../helpers/emulator';
import { startStack, type Stack } from '../../helpers/stack';
import { identity } from '../../helpers/users';
import { proveToken } from '../../helpers/http-from';

interface Result {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

async function postBatch(stack: Stack, user: TestUser, body: unknown): Promise<{ status: number; body: Result | Result[] }> {
  const res = await fetch(`${stack.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...identity(stack.emu, user) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Result | Result[] };
}

/** A new user whose token the gateway has proven: the rate limit counts it apart from its address (docs/limits.md). */
async function provenUser(stack: Stack): Promise<TestUser> {
  const user = await stack.emu.user();
  await proveToken(stack.url, identity(stack.emu, user));
  return user;
}

const NICK = { query: 'query Nick { me { nickName } }' };
const codeOf = (result: Result | Result[]) => (Array.isArray(result) ? undefined : result.errors?.[0]?.extensions?.code);

describe('MAX_BATCH=3, MAX_COST=20, RATE_LIMIT=5/1m', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ MAX_BATCH: '3', MAX_COST: '20', RATE_LIMIT: '5/1m' });
  });
  afterAll(() => stack.stop());

  it('answers a batch as an array, in order, each operation with its own variables and name', async () => {
    const user = await provenUser(stack);
    const reply = await postBatch(stack, user, [
      NICK,
      { query: 'query Me($n: Int) { me { id joinedGroups(first: $n) { totalCount } } }', variables: { n: 2 } },
      { query: 'query A { a: __typename } query B { b: __typename }', operationName: 'B' },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([
      { data: { me: { nickName: expect.any(String) as unknown } } },
      { data: { me: { id: String(user.id), joinedGroups: { totalCount: 0 } } } },
      { data: { b: 'Query' } },
    ]);
  });

  it('refuses a batch over MAX_BATCH with 400 BATCH_LIMIT_EXCEEDED, before any REST call and without taking from the rate limit', async () => {
    const user = await provenUser(stack);
    stack.emu.mark();
    const reply = await postBatch(stack, user, [NICK, NICK, NICK, NICK]);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      errors: [
        expect.objectContaining({
          message: expect.stringMatching(/4 operations, over the limit of 3/) as unknown,
          extensions: { code: 'BATCH_LIMIT_EXCEEDED', limit: 3 },
        }),
      ],
    });
    expect(stack.emu.calls()).toHaveLength(0);
    // The rate limit took nothing: 4 operations are still there (the token's proof took the fifth).
    expect((await postBatch(stack, user, [NICK, NICK, NICK])).status).toBe(200);
    expect((await postBatch(stack, user, [NICK])).status).toBe(200);
  });

  it('answers a malformed operation of a batch with its own coded error while its siblings run', async () => {
    const user = await provenUser(stack);
    const reply = await postBatch(stack, user, [{ query: '{ me { nickName' }, NICK, 7]);
    expect(reply.status).toBe(200);
    const [syntax, fine, notAnOperation] = reply.body as Result[];
    expect(syntax!.errors?.map((e) => e.extensions?.code)).toEqual(['GRAPHQL_PARSE_FAILED']);
    expect(fine).toEqual({ data: { me: { nickName: expect.any(String) as unknown } } });
    expect(notAnOperation!.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_REQUEST']);
  });

  it('refuses an empty batch with 400 BAD_REQUEST', async () => {
    const reply = await postBatch(stack, await provenUser(stack), []);
    expect(reply.status).toBe(400);
    expect(codeOf(reply.body)).toBe('BAD_REQUEST');
  });

  it('runs each operation through the cost limit: the one over it is refused, its siblings run', async () => {
    const user = await provenUser(stack);
    stack.emu.mark();
    const reply = await postBatch(stack, user, [NICK, { query: '{ me { joinedGroups(first: 50) { nodes { description } } } }' }]);
    expect(reply.status).toBe(200);
    const [first, second] = reply.body as Result[];
    expect(first).toEqual({ data: { me: { nickName: expect.any(String) as unknown } } });
    expect(second!.errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'MAX_COST_EXCEEDED', cost: 51, limit: 20 }) }),
    ]);
    // Only the first operation's call.
    expect(stack.emu.calls().map((c) => c.endpoint)).toEqual(['GET /user/profile']);
  });

  it('takes one from the rate limit per operation: a batch that does not fit is refused whole, before any REST call', async () => {
    const user = await provenUser(stack);
    // The proof took one: 4 left of 5.
    expect((await postBatch(stack, user, [NICK, NICK])).status).toBe(200);
    stack.emu.mark();
    // 2 left of 5: a batch of 3 is refused whole, and took none of them.
    const refused = await postBatch(stack, user, [NICK, NICK, NICK]);
    expect(refused.status).toBe(429);
    expect(codeOf(refused.body)).toBe('RATE_LIMITED');
    expect(stack.emu.calls()).toHaveLength(0);
    expect((await postBatch(stack, user, [NICK, NICK])).status).toBe(200);
    expect((await postBatch(stack, user, NICK)).status).toBe(429);
  });

  it("serves Apollo Client's BatchHttpLink: concurrent queries go as one request", async () => {
    const user = await provenUser(stack);
    const sent: unknown[] = [];
    const counting: typeof fetch = (input, init) => {
      sent.push(JSON.parse(String(init?.body)));
      return fetch(input, init);
    };
    const client = new ApolloClient({
      link: new BatchHttpLink({
        uri: `${stack.url}/graphql`,
        fetch: counting,
        headers: identity(stack.emu, user),
        batchMax: 3,
        batchInterval: 50,
      }),
      cache: new InMemoryCache(),
    });
    // Each selects the user's id, so that the cache keeps them apart (ids normalize `me`).
    const [me, nick, settings] = await Promise.all([
      client.query<{ me: { id: string } }>({ query: gql('query Id { me { id } }') }),
      client.query<{ me: { id: string; nickName: string } }>({ query: gql('query Nick { me { id nickName } }') }),
      client.query<{ me: { id: string; settings: { noPush: boolean } } }>({
        query: gql('query Settings { me { id settings { noPush } } }'),
      }),
    ]);
    expect(me.data?.me.id).toBe(String(user.id));
    expect(nick.data?.me.nickName).toEqual(expect.any(String));
    expect(settings.data?.me.settings.noPush).toEqual(expect.any(Boolean));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toHaveLength(3);
  });
});

describe('MAX_BATCH=1', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ MAX_BATCH: '1' });
  });
  afterAll(() => stack.stop());

  it('turns batching off: an array body is refused with BATCH_LIMIT_EXCEEDED, a single operation runs', async () => {
    const user = await provenUser(stack);
    stack.emu.mark();
    const refused = await postBatch(stack, user, [NICK]);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ errors: [expect.objectContaining({ extensions: { code: 'BATCH_LIMIT_EXCEEDED', limit: 1 } })] });
    expect(stack.emu.calls()).toHaveLength(0);
    expect((await postBatch(stack, user, NICK)).status).toBe(200);
  });
});

describe('MAX_BATCH', () => {
  it(`is ${DEFAULT_MAX_BATCH} by default, and from 1 to 100`, () => {
    expect(loadConfig({}).maxBatch).toBe(DEFAULT_MAX_BATCH);
    expect(loadConfig({ MAX_BATCH: '100' }).maxBatch).toBe(100);
    for (const bad of ['0', '101', '-1', 'x'])
      expect(() => loadConfig({ MAX_BATCH: bad })).toThrow(/^MAX_BATCH must be an integer from 1 to 100/);
  });
});
