// Compiled execution (src/gateway/execution/jit.ts) answers as graphql-js does: the same requests to a
// gateway with GRAPHQL_JIT=false and one with it on (the default) get the same status and body,
// byte for byte: plain queries, variables graphql-js refuses (graphql-jit would word those
// otherwise), and errors raised in resolvers (same locations, path, extensions, key order).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config';
import { createGateway, type Gateway } from '../../../src/gateway/create-gateway';
import { startEmulator, type TestEmulator } from '../../helpers/emulator';

describe('compiled execution', () => {
  let emu: TestEmulator;
  let jit: Gateway;
  let plain: Gateway;
  let jitUrl: string;
  let plainUrl: string;
  let token: string;

  beforeAll(async () => {
    emu = await startEmulator();
    token = (await emu.user('jit-user')).token;
    const config = (on: string) => ({ ...loadConfig({ PORT: '1', GRAPHQL_JIT: on, GRAPHQL_JIT_AFTER: '1' }), port: 0 });
    jit = createGateway(config('true'), { imBaseUrl: emu.url });
    plain = createGateway(config('false'), { imBaseUrl: emu.url });
    jitUrl = await jit.start();
    plainUrl = await plain.start();
  });
  afterAll(async () => {
    await jit?.stop();
    await plain?.stop();
    await emu?.stop();
  });

  async function ask(origin: string, body: unknown, headers: Record<string, string>) {
    const res = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
  }

  const cases: [string, unknown, () => Record<string, string>][] = [
    ['a plain query', { query: '{ me { id username nickName } }' }, () => ({ 'access-token': token })],
    [
      'a query with variables',
      { query: 'query($x: Boolean!) { me { username @include(if: $x) } }', variables: { x: true } },
      () => ({ 'access-token': token }),
    ],
    [
      'an ID variable graphql-js refuses',
      { query: 'query($id: ID!) { user(id: $id) { username } }', variables: { id: 'abc' } },
      () => ({ 'access-token': token }),
    ],
    ['a missing variable', { query: 'query($id: ID!) { user(id: $id) { username } }' }, () => ({ 'access-token': token })],
    ['an upstream refusal on a field', { query: '{ me { username } }' }, () => ({ 'access-token': 'not-a-token' })],
    [
      'errors inside a list, under aliases and fragments',
      {
        query:
          'query Q($ids: [ID!]!) { found: groups(ids: $ids) { ...G } again: groups(ids: $ids) { id } } fragment G on Group { id name }',
        variables: { ids: ['999999001', '999999002'] },
      },
      () => ({ 'access-token': token }),
    ],
  ];
  it('runs the operation a request names, in a document of several (compiled per operation)', async () => {
    const query = 'query A { me { id } } query B { me { username } }';
    const headers = { 'access-token': token };
    const a = await ask(jitUrl, { query, operationName: 'A' }, headers);
    const b = await ask(jitUrl, { query, operationName: 'B' }, headers);
    expect(JSON.parse(a.body)).toEqual({ data: { me: { id: expect.any(String) } } });
    expect(JSON.parse(b.body)).toEqual({ data: { me: { username: 'jit-user' } } });
    expect(b).toEqual(await ask(plainUrl, { query, operationName: 'B' }, headers));
  });

  for (const [name, body, headers] of cases) {
    it(`answers ${name} as graphql-js does`, async () => {
      const compiled = await ask(jitUrl, body, headers());
      expect(compiled).toEqual(await ask(plainUrl, body, headers()));
      if (name.includes('error')) expect(compiled.body).toMatch(/^\{"errors":\[\{"message":"[^"]*","locations":\[\{"line"/);
    });
  }
});
