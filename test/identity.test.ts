// One caller, one key (src/identity.ts): an HTTP request's headers and a WebSocket's params naming
// the same caller make the same identity, and every per-identity structure (rate limits, slots and
// the hub's pollers, shared executions and subscriptions, REST coalescing) keys it alike; a caller
// naming no app_id is the one naming the gateway's default everywhere. Reads and queries share one
// write clock.
import type { IncomingMessage } from 'node:http';
import { buildSchema, type ExecutionArgs, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { type Caller, identityHash, identityOf, type IdentityDefaults } from '../src/identity';
import { paramsLookup } from '../src/context';
import { coalesceKey, coalescing } from '../src/rest/coalesce';
import type { RestClient } from '../src/rest/client';
import { writeClock } from '../src/rest/write-clock';
import { subscriptionSlots } from '../src/subscriptions/slots';
import { incomingLookup } from '../src/gateway/http/event-source';
import { bucketKey } from '../src/gateway/rate-limit/limiter';
import { executionKey } from '../src/gateway/execution/shared-execution';
import { shareOf } from '../src/gateway/ws/shared-subscriptions';

const DEFAULTS: IdentityDefaults = { defaultAppId: 'app-1', idFormat: 'service' };

const fromHeaders = (headers: Record<string, string>, address = '10.0.0.1') =>
  identityOf(incomingLookup({ headers, url: '/graphql' } as IncomingMessage), address, DEFAULTS);
const fromParams = (params: Record<string, unknown>, address = '10.0.0.2') => identityOf(paramsLookup(params), address, DEFAULTS);

const schema = buildSchema('type Query { a: Int } type Subscription { s: Int }');
const argsOf = (query: string, identity: ReturnType<typeof fromHeaders>): ExecutionArgs => ({
  schema,
  document: parse(query),
  contextValue: { identity, idFormat: identity.idFormat },
});

/** Every structure's key of one identity. */
function keysOf(identity: ReturnType<typeof fromHeaders>) {
  return {
    identity: identity.key,
    hub: identityHash(identity.caller, DEFAULTS.defaultAppId),
    rateLimit: bucketKey(identity, 'app-1', () => true),
    execution: executionKey(argsOf('{ a }', identity), 0),
    subscription: shareOf(argsOf('subscription { s }', identity)).key,
    coalescing: coalesceKey('GET /user/profile', identity.caller as Caller, '{}', DEFAULTS.defaultAppId),
  };
}

describe('identity', () => {
  it('is the same for the same caller over HTTP headers and WebSocket params, in every structure', () => {
    const http = fromHeaders({ 'access-token': 'tok', 'user-id': '7', app_id: 'app-1' });
    const ws = fromParams({ access_token: 'tok', user_id: 7 });
    expect(ws.appId).toBe('app-1');
    expect(keysOf(ws)).toEqual(keysOf(http));
    const other = keysOf(fromHeaders({ 'access-token': 'tok', 'user-id': '8' }));
    for (const [structure, key] of Object.entries(keysOf(http)))
      if (structure !== 'rateLimit') expect(other[structure as keyof typeof other], structure).not.toBe(key);
    // Rate limits stay per token: the acting user shares the token's bucket.
    expect(other.rateLimit).toBe(keysOf(http).rateLimit);
  });

  it('resolves the default app_id alike everywhere: naming it is naming none', () => {
    const named = keysOf(fromHeaders({ app_id: 'app-1', authorization: 'Bearer tok' }));
    expect(keysOf(fromHeaders({ authorization: 'Bearer tok' }))).toEqual(named);
    const elsewhere = keysOf(fromHeaders({ app_id: 'app-2', authorization: 'Bearer tok' }));
    for (const [structure, key] of Object.entries(named)) expect(elsewhere[structure as keyof typeof elsewhere], structure).not.toBe(key);
  });

  it('holds one subscription slot count for the same caller read either way', async () => {
    const slots = subscriptionSlots({ limit: 1 });
    const first = await slots.acquire(fromHeaders({ 'access-token': 'tok' }));
    expect(first.admitted).toBe(true);
    expect(await slots.acquire(fromParams({ 'access-token': 'tok', app_id: 'app-1' }))).toEqual({ admitted: false, limit: 1 });
    expect((await slots.acquire(fromParams({ 'access-token': 'other' }))).admitted).toBe(true);
  });

  it('reads the ID format with the identity, keeping a refused one for the context to word', () => {
    expect(fromHeaders({ 'x-id-format': ' Global ' }).idFormat).toBe('global');
    const refused = fromParams({ 'x-id-format': 'bogus' });
    expect([refused.idFormat, refused.refusedIdFormat]).toEqual(['service', 'bogus']);
    expect(executionKey(argsOf('{ a }', fromHeaders({ 'x-id-format': 'global' })), 0)).not.toBe(
      executionKey(argsOf('{ a }', fromHeaders({})), 0),
    );
  });

  it('digests its key once, on first use', () => {
    const identity = fromHeaders({ 'access-token': 'tok' });
    expect(identity.key).toBe(identityHash({ token: 'tok' }, 'app-1'));
    expect(identity.key).toBe(identity.key);
  });
});

describe('the write clock', () => {
  it('keeps a read from joining one in flight once a mutation ticked it, as a REST write does', async () => {
    let calls = 0;
    const pending: (() => void)[] = [];
    const client = {
      call: () => {
        calls++;
        return new Promise((resolve) => pending.push(() => resolve({})));
      },
      download: () => Promise.reject(new Error('unused')),
      close: () => Promise.resolve(),
    } as unknown as RestClient;
    const writes = writeClock();
    const rest = coalescing(client, { defaultAppId: 'app-1', writes });
    const read = (caller: Caller) => rest.call('GET /user/profile', {}, caller);
    const reads = [read({ token: 'tok' }), read({ token: 'tok', appId: 'app-1' })];
    expect(calls).toBe(1);
    // What shared executions tick at a mutation's start (gateway/execution/shared-execution.ts).
    writes.tick();
    reads.push(read({ token: 'tok' }));
    expect(calls).toBe(2);
    pending.forEach((settle) => settle());
    await Promise.all(reads);
  });
});
