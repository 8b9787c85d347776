// Answers of 1 KiB or more are coded as the request's Accept-Encoding asks (br or gzip, q-values
// honoured), inflate to the very bytes sent uncoded, and say `Vary: Accept-Encoding`; small answers,
// event streams and multipart answers go uncoded; COMPRESSION=false codes nothing.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { header, type RawAnswer, requestBytes, sendRaw } from '../../helpers/raw-http';
import { gatewayVia, startStack, type Stack } from '../../helpers/stack';

/** Well over 1 KiB: every type's name (introspection is on outside production). */
const LARGE = '{ __schema { types { name description } } }';
const SMALL = '{ __typename }';

function post(port: number, query: string, headers: [string, string][] = []): Promise<RawAnswer> {
  const body = JSON.stringify({ query });
  const given = new Set(headers.map(([name]) => name.toLowerCase()));
  const base = (
    [
      ['Host', '127.0.0.1'],
      ['Content-Type', 'application/json'],
      ['Accept', 'application/graphql-response+json'],
    ] as [string, string][]
  ).filter(([name]) => !given.has(name.toLowerCase()));
  return sendRaw(port, requestBytes({ method: 'POST', target: '/graphql', headers: [...base, ...headers], body }), 'POST');
}

const portOf = (origin: string) => Number(new URL(origin).port);

describe('compression of answers', () => {
  let stack: Stack;
  let port: number;
  let plain: Buffer;
  beforeAll(async () => {
    stack = await startStack();
    port = portOf(stack.url);
    const uncoded = await post(port, LARGE);
    expect(uncoded.status).toBe(200);
    expect(header(uncoded, 'content-encoding')).toBeUndefined();
    plain = uncoded.body;
    expect(plain.byteLength).toBeGreaterThan(4096);
  });
  afterAll(() => stack.stop());

  it.each([
    ['gzip', 'gzip', gunzipSync],
    ['br', 'br', brotliDecompressSync],
    ['gzip, deflate, br', 'br', brotliDecompressSync],
    ['br;q=0.5, gzip', 'gzip', gunzipSync],
    ['br;q=0, gzip;q=0.1', 'gzip', gunzipSync],
    ['*', 'br', brotliDecompressSync],
    ['*;q=0.2, gzip;q=0.9', 'gzip', gunzipSync],
  ] as const)('Accept-Encoding %j is answered in %s, which inflates to the uncoded bytes', async (accept, coding, inflate) => {
    const answer = await post(port, LARGE, [['Accept-Encoding', accept]]);
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-encoding')).toBe(coding);
    expect(header(answer, 'vary')).toMatch(/accept-encoding/i);
    expect(Number(header(answer, 'content-length'))).toBe(answer.body.byteLength);
    expect(answer.body.byteLength).toBeLessThan(plain.byteLength / 3);
    expect(inflate(answer.body).equals(plain)).toBe(true);
  });

  it.each(['identity', 'gzip;q=0, br;q=0', 'br;q=0, *;q=0', 'deflate', ''])(
    'Accept-Encoding %j leaves the answer uncoded, still varying by it',
    async (accept) => {
      const answer = await post(port, LARGE, [['Accept-Encoding', accept]]);
      expect(answer.status).toBe(200);
      expect(header(answer, 'content-encoding')).toBeUndefined();
      expect(header(answer, 'vary')).toMatch(/accept-encoding/i);
      expect(answer.body.equals(plain)).toBe(true);
    },
  );

  it('leaves an answer under 1 KiB uncoded', async () => {
    const answer = await post(port, SMALL, [['Accept-Encoding', 'gzip, br']]);
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-encoding')).toBeUndefined();
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual({ data: { __typename: 'Query' } });
  });

  it('codes an error answer as large as any other (a validation error naming many fields)', async () => {
    const answer = await post(port, `{ ${Array.from({ length: 60 }, (_, i) => `nosuchfield${i}`).join(' ')} }`, [
      ['Accept-Encoding', 'gzip'],
    ]);
    expect(header(answer, 'content-encoding')).toBe('gzip');
    const reply = JSON.parse(gunzipSync(answer.body).toString('utf8')) as { errors: unknown[] };
    expect(reply.errors.length).toBeGreaterThan(0);
  });

  it.each([
    ['text/event-stream', /^text\/event-stream/],
    ['multipart/mixed', /^multipart\/mixed/],
  ])('never codes a %s answer, however large', async (accept, type) => {
    const answer = await post(port, LARGE, [
      ['Accept', accept],
      ['Accept-Encoding', 'gzip, br'],
    ]);
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-type')).toMatch(type);
    // yoga marks its event streams `Content-Encoding: none`.
    expect(header(answer, 'content-encoding') ?? 'none').toBe('none');
    expect(answer.body.toString('utf8')).toContain('"__schema"');
    expect(answer.body.byteLength).toBeGreaterThan(4096);
  });

  it('leaves HEAD-less health answers small and uncoded', async () => {
    const answer = await sendRaw(
      port,
      requestBytes({
        method: 'GET',
        target: '/health',
        headers: [
          ['Host', '127.0.0.1'],
          ['Accept-Encoding', 'gzip'],
        ],
      }),
      'GET',
    );
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-encoding')).toBeUndefined();
  });
});

/** A gateway of its own with these settings for the describe block it is called in: its port. */
function gatewayWith(env: Record<string, string>): () => number {
  let stack: Stack;
  let gateway: Awaited<ReturnType<typeof gatewayVia>>;
  beforeAll(async () => {
    stack = await startStack();
    gateway = await gatewayVia(stack.emu.url, env);
  });
  afterAll(async () => {
    await gateway.gateway.stop();
    await stack.stop();
  });
  return () => portOf(gateway.url);
}

describe('COMPRESSION=false', () => {
  const port = gatewayWith({ COMPRESSION: 'false' });

  it('sends every answer uncoded and without Vary: Accept-Encoding', async () => {
    const answer = await post(port(), LARGE, [['Accept-Encoding', 'gzip, br']]);
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-encoding')).toBeUndefined();
    expect(header(answer, 'vary') ?? '').not.toMatch(/accept-encoding/i);
    expect(JSON.parse(answer.body.toString('utf8'))).toHaveProperty('data.__schema');
  });
});

describe('Vary beside CORS (CORS_ORIGINS=*)', () => {
  const port = gatewayWith({ CORS_ORIGINS: '*' });

  it.each([
    ['coded', LARGE, 'gzip'],
    ['uncoded (no coding asked)', LARGE, undefined],
    ['uncoded (under 1 KiB)', SMALL, 'gzip'],
  ])('an answer %s names Origin and Accept-Encoding in one Vary header, beside the CORS headers', async (_kind, query, coding) => {
    const answer = await post(port(), query, [
      ['Origin', 'https://app.example'],
      ...(coding ? ([['Accept-Encoding', coding]] as [string, string][]) : []),
    ]);
    expect(answer.status).toBe(200);
    const varies = answer.headers.filter(([name]) => name === 'vary');
    expect(varies).toHaveLength(1);
    expect(varies[0]![1].split(/\s*,\s*/).map((v) => v.toLowerCase())).toEqual(expect.arrayContaining(['origin', 'accept-encoding']));
    expect(header(answer, 'access-control-allow-origin')).toBe('https://app.example');
    expect(answer.headers.filter(([name]) => name === 'content-type')).toHaveLength(1);
    expect(header(answer, 'content-encoding')).toBe(query === LARGE && coding ? coding : undefined);
  });
});
