// Automatic persisted queries (Apollo's protocol) over real HTTP and graphql-ws: a hash alone is
// PersistedQueryNotFound until the text is sent with it; the text is checked against the hash;
// then the hash alone runs it, on this gateway and (with Redis) on another. Refusals make no REST call.
import { randomBytes } from 'node:crypto';
import { ApolloClient, gql as apolloGql, HttpLink, InMemoryCache } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../../src/config';
import { createGateway, type Gateway } from '../../../src/gateway/create-gateway';
import { memoryApqStore } from '../../../src/gateway/persisted/apq-store';
import type { TestUser } from '../../helpers/emulator';
import { startEmulator, type TestEmulator } from '../../helpers/emulator';
import { startStack, suiteEnv, type Stack } from '../../helpers/stack';
import { wsClient } from '../../helpers/subscriptions/clients';
import { type Answer, codes, get, persistedQuery, post, sha256 } from './send';

const ME = '{ me { id nickName } }';

let stack: Stack;
let user: TestUser;
const as = () => ({ 'access-token': user.token, app_id: stack.emu.appId });

beforeAll(async () => {
  stack = await startStack();
  user = await stack.emu.user();
});
afterAll(() => stack.stop());

/** A query text no other test sends (its hash is new to the store). */
const fresh = () => `{ me { id } } # ${randomBytes(6).toString('hex')}`;
const meOf = (a: Answer) => (a.body?.data?.me as { id: string } | undefined)?.id;

describe('APQ on one gateway', () => {
  it('answers a new hash with PersistedQueryNotFound, registers it with the text, then runs the hash alone', async () => {
    const query = fresh();
    const hash = sha256(query);
    stack.emu.mark();
    const miss = await post(stack.url, { extensions: persistedQuery(hash) }, as());
    expect(miss.body?.errors).toEqual([expect.objectContaining({ message: 'PersistedQueryNotFound' })]);
    expect(codes(miss)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    expect(miss.headers.get('cache-control')).toMatch(/no-cache/);
    expect(stack.emu.calls()).toHaveLength(0);

    const registered = await post(stack.url, { query, extensions: persistedQuery(hash) }, as());
    expect(registered.status).toBe(200);
    expect(meOf(registered)).toBe(String(user.id));

    const hit = await post(stack.url, { extensions: persistedQuery(hash) }, as());
    expect(hit.status).toBe(200);
    expect(meOf(hit)).toBe(String(user.id));
  });

  it('serves a registered hash by GET, as useGETForHashedQueries sends it', async () => {
    const query = fresh();
    const hash = sha256(query);
    await post(stack.url, { query, extensions: persistedQuery(hash) }, as());
    const hit = await get(stack.url, { extensions: persistedQuery(hash) }, as());
    expect(hit.status).toBe(200);
    expect(meOf(hit)).toBe(String(user.id));
    expect(hit.headers.get('cache-control')).toBe('private, no-cache');
    expect(hit.headers.get('etag')).toMatch(/^"[\w-]+"$/);
  });

  it('refuses a text that does not match its hash: nothing stored, no REST call', async () => {
    const query = fresh();
    const wrong = sha256(`${query} `);
    stack.emu.mark();
    const refused = await post(stack.url, { query, extensions: persistedQuery(wrong) }, as());
    expect(refused.status).toBe(400);
    expect(codes(refused)).toEqual(['PERSISTED_QUERY_HASH_MISMATCH']);
    const after = await post(stack.url, { extensions: persistedQuery(wrong) }, as());
    expect(codes(after)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    expect(stack.emu.calls()).toHaveLength(0);
  });

  it('refuses a malformed hash, an unknown version or a persistedQuery that is no object with 400 and the field, no REST call', async () => {
    stack.emu.mark();
    const cases: [unknown, string][] = [
      [{ persistedQuery: { version: 1, sha256Hash: 'abc' } }, 'extensions.persistedQuery.sha256Hash'],
      [{ persistedQuery: { version: 1, sha256Hash: 'g'.repeat(64) } }, 'extensions.persistedQuery.sha256Hash'],
      [{ persistedQuery: { version: 2, sha256Hash: sha256(ME) } }, 'extensions.persistedQuery.version'],
      [{ persistedQuery: 'yes' }, 'extensions.persistedQuery'],
    ];
    for (const [extensions, field] of cases) {
      const refused = await post(stack.url, { query: ME, extensions }, as());
      expect(refused.status).toBe(400);
      expect(refused.body?.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
    expect(stack.emu.calls()).toHaveLength(0);
  });

  it('does not keep a registered text that fails validation', async () => {
    const query = `{ me { noSuchField } } # ${randomBytes(4).toString('hex')}`;
    const hash = sha256(query);
    const invalid = await post(stack.url, { query, extensions: persistedQuery(hash) }, as());
    expect(invalid.body?.errors?.[0]?.message).toMatch(/noSuchField/);
    expect(codes(await post(stack.url, { extensions: persistedQuery(hash) }, as()))).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
  });

  it('registers and runs a hash over graphql-ws (an empty query stands for none)', async () => {
    const query = `subscription { unreadCounts { conversationId } } # ${randomBytes(4).toString('hex')}`;
    const hash = sha256(query);
    const ws = wsClient(stack.url, as());
    try {
      const miss = ws.feed('', undefined, persistedQuery(hash));
      expect(JSON.stringify(await miss.ending)).toContain('PERSISTED_QUERY_NOT_FOUND');
      const registered = ws.feed(query, undefined, persistedQuery(hash));
      expect((await registered.next()).data).toEqual({ unreadCounts: [] });
      await registered.close();
      const hit = ws.feed('', undefined, persistedQuery(hash));
      expect((await hit.next()).data).toEqual({ unreadCounts: [] });
      await hit.close();
    } finally {
      await ws.dispose();
    }
  });

  it("works with Apollo Client's PersistedQueryLink over GET", async () => {
    // What went over the wire: the method, and whether the query's text was sent.
    const sent: string[] = [];
    const recording: typeof fetch = (input, init) => {
      const url = String(input);
      sent.push(`${init?.method ?? 'GET'} ${url.includes('query=') || String(init?.body ?? '').includes('"query"') ? 'text' : 'hash'}`);
      return fetch(input, init);
    };
    const client = new ApolloClient({
      cache: new InMemoryCache(),
      link: new PersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(
        new HttpLink({ uri: `${stack.url}/graphql`, headers: as(), fetch: recording }),
      ),
    });
    const query = apolloGql`
      query ApqMe {
        me {
          id
          nickName
        }
      }
    `;
    stack.emu.mark();
    const first = await client.query({ query, fetchPolicy: 'network-only' });
    expect(first.data).toMatchObject({ me: { id: String(user.id) } });
    const second = await client.query({ query, fetchPolicy: 'network-only' });
    expect(second.data).toMatchObject({ me: { id: String(user.id) } });
    expect(sent).toEqual(['GET hash', 'POST text', 'GET hash']);
  });
});

describe('the in-memory APQ store', () => {
  it('keeps at most its bound, dropping the least recently used first', async () => {
    const store = memoryApqStore(2);
    await store.set('a', 'A');
    await store.set('b', 'B');
    expect(await store.get('a')).toBe('A'); // a is now the most recent
    await store.set('c', 'C');
    expect(await store.get('b')).toBeUndefined();
    expect([await store.get('a'), await store.get('c')]).toEqual(['A', 'C']);
  });

  it('drops the oldest registration on a gateway over APQ_MAX_ENTRIES', async () => {
    const small = await startStack({ APQ_MAX_ENTRIES: '2' });
    try {
      const u = await small.emu.user();
      const headers = { 'access-token': u.token, app_id: small.emu.appId };
      const queries = [fresh(), fresh(), fresh()];
      for (const query of queries) await post(small.url, { query, extensions: persistedQuery(sha256(query)) }, headers);
      const lookups = await Promise.all(queries.map((q) => post(small.url, { extensions: persistedQuery(sha256(q)) }, headers)));
      expect(lookups.map((a) => codes(a)[0] ?? 'ran')).toEqual(['PERSISTED_QUERY_NOT_FOUND', 'ran', 'ran']);
    } finally {
      await small.stop();
    }
  });
});

describe('APQ across replicas on one Redis', () => {
  const REDIS_URL = inject('redisUrl');
  const prefix = `test-apq-${randomBytes(6).toString('hex')}:`;
  let emu: TestEmulator;
  let gateways: { gateway: Gateway; url: string }[];
  let peer: TestUser;

  beforeAll(async () => {
    emu = await startEmulator();
    peer = await emu.user();
    gateways = await Promise.all(
      [0, 1].map(async () => {
        const config = { ...loadConfig({ PORT: '1', ...suiteEnv(), IM_APP_ID: emu.appId, REDIS_URL }), port: 0 };
        const gateway = createGateway(config, { imBaseUrl: emu.url, redisPrefix: prefix });
        return { gateway, url: await gateway.start() };
      }),
    );
  });
  afterAll(async () => {
    await Promise.all((gateways ?? []).map((g) => g.gateway.stop()));
    await emu?.stop();
  });

  it('serves on gateway B a hash registered through gateway A', async () => {
    const [a, b] = [gateways[0]!, gateways[1]!];
    const query = fresh();
    const hash = sha256(query);
    const headers = { 'access-token': peer.token };
    expect(codes(await post(b.url, { extensions: persistedQuery(hash) }, headers))).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    const registered = await post(a.url, { query, extensions: persistedQuery(hash) }, headers);
    expect(registered.body?.errors).toBeUndefined();
    const hit = await post(b.url, { extensions: persistedQuery(hash) }, headers);
    expect(hit.body).toEqual({ data: { me: { id: String(peer.id) } } });
  });
});
