// The server's response class on its own, under handlers that write as Node allows rather than as
// yoga does: a head set field by field and written by the first write or by end (no writeHead),
// and a body in several writes. An armed answer is coded or sent whole either way, with its head.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { COMPRESSION, CompressibleResponse, compressing } from '../../../src/gateway/http/compression';
import { header, requestBytes, sendRaw } from '../../helpers/raw-http';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

const LARGE = JSON.stringify({ data: { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item ${i}` })) } });

async function serve(handler: RequestListener) {
  server = createServer({ ServerResponse: CompressibleResponse }, compressing(handler, COMPRESSION));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return (accept: string) =>
    sendRaw(
      port,
      requestBytes({
        method: 'GET',
        target: '/',
        headers: [
          ['Host', '127.0.0.1'],
          ['Accept-Encoding', accept],
        ],
      }),
      'GET',
    );
}

describe('CompressibleResponse with a head written implicitly', () => {
  it.each([
    ['end', (res: Parameters<RequestListener>[1]) => res.end(LARGE)],
    [
      'the first of two writes',
      (res: Parameters<RequestListener>[1]) => {
        res.write(LARGE.slice(0, 100));
        res.write(Buffer.from(LARGE.slice(100)));
        res.end();
      },
    ],
  ])('codes an answer whose head %s writes implicitly, keeping the fields set before', async (_label, send) => {
    const ask = await serve((_req, res) => {
      res.statusCode = 201;
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.setHeader('x-kept', 'yes');
      send(res);
    });
    const answer = await ask('gzip');
    expect(answer.status).toBe(201);
    expect(header(answer, 'x-kept')).toBe('yes');
    expect(header(answer, 'content-encoding')).toBe('gzip');
    expect(header(answer, 'vary')).toMatch(/accept-encoding/i);
    expect(Number(header(answer, 'content-length'))).toBe(answer.body.byteLength);
    expect(gunzipSync(answer.body).toString()).toBe(LARGE);
  });

  it('sends such an answer whole and uncoded when no coding is accepted, still varying by Accept-Encoding', async () => {
    const ask = await serve((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.write(LARGE.slice(0, 100));
      res.end(LARGE.slice(100));
    });
    const answer = await ask('identity');
    expect(answer.status).toBe(200);
    expect(header(answer, 'content-encoding')).toBeUndefined();
    expect(header(answer, 'vary')).toMatch(/accept-encoding/i);
    expect(answer.body.toString()).toBe(LARGE);
  });
});
