// The fast path (src/gateway/http/fast-path.ts) answers exactly as yoga does: two gateways over one
// emulator, one with FAST_PATH=false, get the same requests over raw HTTP; status line, headers
// (but Date) and body bytes must be equal, for answers the fast path gives and for those it
// leaves to yoga after reading the body. (The whole suite also runs with FAST_PATH=false:
// `npm run test:yoga-path`.)
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config';
import { createGateway, type Gateway } from '../../../src/gateway/create-gateway';
import { startEmulator, type TestEmulator } from '../../helpers/emulator';

interface Raw {
  status: string;
  headers: string[];
  body: string;
}

function send(origin: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${origin}${path}`,
      { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headerPairs: string[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            if (res.rawHeaders[i]!.toLowerCase() !== 'date') headerPairs.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
          }
          resolve({ status: `${res.statusCode} ${res.statusMessage}`, headers: headerPairs, body: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the fast path', () => {
  let emu: TestEmulator;
  let fast: Gateway;
  let yoga: Gateway;
  let fastUrl: string;
  let yogaUrl: string;
  let user: Awaited<ReturnType<TestEmulator['user']>>;

  beforeAll(async () => {
    emu = await startEmulator();
    user = await emu.user('fastpath-user');
    fast = createGateway({
      config: { ...loadConfig({ PORT: '1', FAST_PATH: 'true', MAX_QUERY_DEPTH: '4' }), port: 0 },
      imBaseUrl: emu.url,
    });
    yoga = createGateway({
      config: { ...loadConfig({ PORT: '1', FAST_PATH: 'false', MAX_QUERY_DEPTH: '4' }), port: 0 },
      imBaseUrl: emu.url,
    });
    fastUrl = await fast.start();
    yogaUrl = await yoga.start();
  });
  afterAll(async () => {
    await fast?.stop();
    await yoga?.stop();
    await emu?.stop();
  });

  const json = { 'content-type': 'application/json' };
  const cases: [string, string, string, () => Record<string, string>, string?][] = [
    [
      'a query, Accept graphql-response+json',
      'POST',
      '/graphql',
      () => ({ ...json, accept: 'application/graphql-response+json', 'access-token': user.token }),
      '{"query":"{ me { id username nickName } }"}',
    ],
    ['a query, no Accept', 'POST', '/graphql', () => ({ ...json, 'access-token': user.token }), '{"query":"{ me { username } }"}'],
    [
      'a query, Accept application/json, charset in the Content-Type',
      'POST',
      '/graphql',
      () => ({ 'content-type': 'application/json; charset=utf-8', accept: 'application/json', 'access-token': user.token }),
      '{"query":"{ me { username } }"}',
    ],
    [
      'a query, Accept */*',
      'POST',
      '/graphql',
      () => ({ ...json, accept: '*/*', 'access-token': user.token }),
      '{"query":"query Me($x: Boolean!) { me { username @include(if: $x) } }","variables":{"x":true},"operationName":"Me"}',
    ],
    [
      'both JSON media types accepted',
      'POST',
      '/graphql',
      () => ({ ...json, accept: 'application/graphql-response+json, application/json', 'access-token': user.token }),
      '{"query":"{ me { username } }"}',
    ],
    [
      'an upstream refusal (bad token)',
      'POST',
      '/graphql',
      () => ({ ...json, accept: 'application/graphql-response+json', 'access-token': 'not-a-token' }),
      '{"query":"{ me { username } }"}',
    ],
    ['a syntax error', 'POST', '/graphql', () => ({ ...json, accept: 'application/graphql-response+json' }), '{"query":"{ me { "}'],
    ['a validation error', 'POST', '/graphql', () => ({ ...json, accept: 'application/graphql-response+json' }), '{"query":"{ nope }"}'],
    [
      'a validation error, Accept application/json',
      'POST',
      '/graphql',
      () => ({ ...json, accept: 'application/json' }),
      '{"query":"{ nope }"}',
    ],
    [
      'a query over the depth limit',
      'POST',
      '/graphql',
      () => ({ ...json, accept: 'application/graphql-response+json' }),
      '{"query":"{ me { joinedGroups { members { nodes { user { username } } } } } }"}',
    ],
    [
      'a variable of the wrong type',
      'POST',
      '/graphql',
      () => ({ ...json, accept: 'application/graphql-response+json' }),
      '{"query":"query($id: ID!) { user(id: $id) { username } }","variables":{"id":{"a":1}}}',
    ],
    ['invalid JSON (left to yoga)', 'POST', '/graphql', () => ({ ...json, accept: 'application/graphql-response+json' }), '{"query":'],
    [
      'a JSON array (left to yoga)',
      'POST',
      '/graphql',
      () => ({ ...json, accept: 'application/graphql-response+json' }),
      '[{"query":"{ me { id } }"}]',
    ],
    ['a JSON string (left to yoga)', 'POST', '/graphql', () => ({ ...json, accept: 'application/graphql-response+json' }), '"hello"'],
    [
      'a query that is not a string (left to yoga)',
      'POST',
      '/graphql',
      () => ({ ...json, accept: 'application/graphql-response+json' }),
      '{"query":1}',
    ],
    ['no query (left to yoga)', 'POST', '/graphql', () => ({ ...json, accept: 'application/graphql-response+json' }), '{"variables":{}}'],
    [
      'an unknown parameter (left to yoga)',
      'POST',
      '/graphql',
      () => ({ ...json, accept: 'application/graphql-response+json' }),
      '{"query":"{ me { id } }","bogus":1}',
    ],
    [
      'a GET query',
      'GET',
      `/graphql?query=${encodeURIComponent('{ me { username } }')}`,
      () => ({ accept: 'application/graphql-response+json', 'access-token': user.token, 'x-graphql-yoga-csrf': '1' }),
    ],
    [
      'a GET mutation (refused)',
      'GET',
      `/graphql?query=${encodeURIComponent('mutation { setNickname(input: { nickName: "x" }) { ok } }')}`,
      () => ({ accept: 'application/graphql-response+json', 'access-token': user.token, 'x-graphql-yoga-csrf': '1' }),
    ],
    ['a GET without a query (left to yoga)', 'GET', '/graphql?x=1', () => ({ accept: 'application/graphql-response+json' })],
  ];

  for (const [name, method, path, headers, body] of cases) {
    it(`answers ${name} byte for byte as yoga does`, async () => {
      const viaYoga = await send(yogaUrl, method, path, headers(), body);
      const answered = fast.fastPathAnswers();
      const viaFast = await send(fastUrl, method, path, headers(), body);
      expect(viaFast).toEqual(viaYoga);
      // Every case but those left to yoga is answered by the fast path itself.
      expect(fast.fastPathAnswers() - answered).toBe(name.includes('left to yoga') ? 0 : 1);
      expect(yoga.fastPathAnswers()).toBe(0);
    });
  }

  it('answers a mutation as yoga does, and runs it once', async () => {
    const mutation = (nick: string) =>
      JSON.stringify({ query: `mutation { setNickname(input: { nickName: "${nick}" }) { ok user { nickName } } }` });
    const headers = { ...json, accept: 'application/graphql-response+json', 'access-token': user.token };
    const before = emu.server.calls.length;
    const viaYoga = await send(yogaUrl, 'POST', '/graphql', headers, mutation('same'));
    const yogaCalls = emu.server.calls.length - before;
    const viaFast = await send(fastUrl, 'POST', '/graphql', headers, mutation('same'));
    expect(viaFast).toEqual(viaYoga);
    expect(JSON.parse(viaFast.body)).toEqual({ data: { setNickname: { ok: true, user: { nickName: 'same' } } } });
    expect(yogaCalls).toBeGreaterThan(0);
    expect(emu.server.calls.length - before - yogaCalls).toBe(yogaCalls);
  });

  it('leaves CORS requests, GraphiQL and other routes to yoga', async () => {
    const answered = fast.fastPathAnswers();
    for (const [method, path, headers, body] of [
      [
        'POST',
        '/graphql',
        { ...json, origin: 'http://example.test', accept: 'application/graphql-response+json' },
        '{"query":"{ __typename }"}',
      ],
      ['OPTIONS', '/graphql', { origin: 'http://example.test', 'access-control-request-method': 'POST' }, undefined],
      ['GET', '/graphql', { accept: 'text/html' }, undefined],
      ['GET', '/health', {}, undefined],
      ['POST', '/graphql?x=1', { ...json }, '{"query":"{ __typename }"}'],
    ] as const) {
      const viaYoga = await send(yogaUrl, method, path, headers, body);
      const viaFast = await send(fastUrl, method, path, headers, body);
      expect(viaFast.status).toBe(viaYoga.status);
      expect(viaFast.headers).toEqual(viaYoga.headers);
    }
    expect(fast.fastPathAnswers()).toBe(answered);
  });
});
