// Introspection under NODE_ENV=production: refused with INTROSPECTION_DISABLED over HTTP and
// WebSocket unless INTROSPECTION=true (or GraphiQL, which needs it, is on); `__typename` always
// answers; and graphql-js's "Did you mean" suggestions, which would spell the schema out anyway,
// are gone from request errors while introspection is off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config';
import type { Gateway } from '../../../src/gateway/create-gateway';
import { startEmulator, type TestEmulator } from '../../helpers/emulator';
import { type GqlReply, gatewayVia } from '../../helpers/stack';
import { wsClient } from '../../helpers/subscriptions/clients';

const SCHEMA = '{ __schema { types { name } } }';
const TYPE = '{ __type(name: "User") { fields { name } } }';
const TYPO = '{ mee { id } }';
const ENUM_VARIABLE = 'query($p: PushProvider!) { pushCertificate(provider: $p) { __typename } }';

let emu: TestEmulator;
const gateways: Gateway[] = [];
let production: string;
let opened: string;
let development: string;

beforeAll(async () => {
  emu = await startEmulator();
  const start = async (env: Record<string, string>) => {
    const { gateway, url } = await gatewayVia(emu.url, env);
    gateways.push(gateway);
    return url;
  };
  [production, opened, development] = await Promise.all([
    start({ NODE_ENV: 'production', METRICS: 'false' }),
    start({ NODE_ENV: 'production', METRICS: 'false', INTROSPECTION: 'true' }),
    start({}),
  ]);
});
afterAll(async () => {
  await Promise.all(gateways.map((g) => g.stop()));
  await emu.stop();
});

async function post(origin: string, query: string, variables?: Record<string, unknown>): Promise<{ status: number; reply: GqlReply }> {
  const res = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', app_id: emu.appId },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, reply: (await res.json()) as GqlReply };
}

describe('NODE_ENV=production', () => {
  it('refuses __schema and __type with INTROSPECTION_DISABLED, before any REST call', async () => {
    emu.mark();
    for (const query of [SCHEMA, TYPE]) {
      const { reply } = await post(production, query);
      expect(reply.data).toBeUndefined();
      expect(reply.errors?.map((e) => e.extensions?.code)).toEqual(['INTROSPECTION_DISABLED']);
      expect(reply.errors?.[0]?.message).toMatch(/Introspection is disabled/);
    }
    expect(emu.calls()).toEqual([]);
  });

  it('answers __typename', async () => {
    expect((await post(production, '{ __typename }')).reply).toEqual({ data: { __typename: 'Query' } });
  });

  it('leaves "Did you mean" out of validation errors and of refused variables', async () => {
    const typo = (await post(production, TYPO)).reply.errors?.[0]?.message;
    expect(typo).toBe('Cannot query field "mee" on type "Query".');
    const variable = (await post(production, ENUM_VARIABLE, { p: 'APN' })).reply.errors?.[0]?.message;
    expect(variable).toMatch(/^Variable "\$p" got invalid value "APN"; Value "APN" does not exist in "PushProvider" enum\.$/);
  });

  it('refuses introspection over WebSocket too, with the same code', async () => {
    const client = wsClient(production, { app_id: emu.appId });
    try {
      const ending = await client.feed(SCHEMA).ending;
      expect(ending).toMatchObject({ error: [{ extensions: { code: 'INTROSPECTION_DISABLED' } }] });
      const typo = await client.feed(TYPO).ending;
      expect(typo).toMatchObject({ error: [{ message: 'Cannot query field "mee" on type "Query".' }] });
    } finally {
      await client.dispose();
    }
  });

  it('answers introspection with INTROSPECTION=true', async () => {
    const { reply } = await post(opened, '{ __schema { queryType { name } } }');
    expect(reply).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });
});

describe('outside production', () => {
  it('answers introspection and suggests names', async () => {
    expect((await post(development, '{ __type(name: "User") { name } }')).reply).toEqual({ data: { __type: { name: 'User' } } });
    expect((await post(development, TYPO)).reply.errors?.[0]?.message).toMatch(/Did you mean "me"\?$/);
  });
});

describe('configuration', () => {
  it('turns introspection off in production only, and on with GraphiQL', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).introspection).toBe(false);
    expect(loadConfig({}).introspection).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', GRAPHIQL: 'true' }).introspection).toBe(true);
    expect(loadConfig({ INTROSPECTION: 'false' })).toMatchObject({ introspection: false, graphiql: false });
  });

  it('refuses GRAPHIQL=true with INTROSPECTION=false, and a value that is no boolean', () => {
    expect(() => loadConfig({ GRAPHIQL: 'true', INTROSPECTION: 'false' })).toThrow(ConfigError);
    expect(() => loadConfig({ INTROSPECTION: 'maybe' })).toThrow(/INTROSPECTION must be true or false/);
  });
});
