// Retries: only GETs, only when the upstream was unreachable or answered 502/503/504, bounded.
// Requests are counted where they arrive, at the server.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestClient } from '../../src/rest/client';
import { UpstreamError } from '../../src/rest/errors';
import { envelope, failure, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server';
import { freePort } from '../helpers/free-port';

let server: ScriptedServer;
let rest: ReturnType<typeof createRestClient>;
const attempts: number[] = [];

beforeAll(async () => {
  server = await startScriptedServer(() => envelope(true));
  rest = createRestClient({
    baseUrl: server.url,
    retries: 2,
    retryBaseDelayMs: 5,
    callTimeoutMs: 500,
    onCall: (i) => attempts.push(i.attempt),
  });
});
afterAll(async () => {
  await rest.close();
  await server.close();
});

/** Runs `run` against a fresh request log; returns how many requests reached the server. */
async function served(run: () => Promise<unknown>): Promise<{ count: number; result: unknown }> {
  server.requests.length = 0;
  attempts.length = 0;
  const result = await run().catch((err: unknown) => err);
  return { count: server.requests.length, result };
}

describe('REST client retries', () => {
  it('retries a GET after a 502 and returns the answer that follows', async () => {
    server.setScript((_req, _res, i) => (i === 0 ? { status: 502, body: 'Bad Gateway' } : envelope({ online: true })));
    const { count, result } = await served(() => rest.call('GET /user/online_status', {}, {}));
    expect(result).toEqual({ data: { online: true } });
    expect(count).toBe(2);
    expect(attempts).toEqual([1, 2]);
  });

  it.each([502, 503, 504])('retries a GET on %i at most `retries` times, then fails with that status', async (status) => {
    server.setScript(() => ({ status, body: 'unavailable' }));
    const { count, result } = await served(() => rest.call('GET /user/profile', {}, {}));
    expect(count).toBe(3);
    expect(result).toMatchObject({ kind: 'http', httpStatus: status });
  });

  const writes = {
    'PUT /user/push/limit': () => rest.call('PUT /user/push/limit', { no_push_start_hour: 1, no_push_end_hour: 2 }, {}),
    'POST /user/push/tag': () => rest.call('POST /user/push/tag', { tags: ['a'] }, {}),
    'DELETE /user/push/tag': () => rest.call('DELETE /user/push/tag', { tags: ['a'] }, {}),
  };
  it.each(Object.keys(writes) as (keyof typeof writes)[])('never retries %s, even on 502/503/504', async (name) => {
    for (const status of [502, 503, 504]) {
      server.setScript(() => ({ status, body: 'unavailable' }));
      const { count, result } = await served(writes[name]);
      expect(count).toBe(1);
      expect(result).toMatchObject({ kind: 'http', httpStatus: status });
    }
  });

  it('never retries a write whose connection broke mid-call (it may have happened)', async () => {
    server.setScript((_req, res) => {
      res.socket?.destroy();
    });
    const { count, result } = await served(() =>
      rest.call('PUT /message/send', { content_type: 0, content: 'x', attachment: '', targets: [1], type: 1 }, {}),
    );
    expect(count).toBe(1);
    expect(result).toMatchObject({ kind: 'unavailable' });
  });

  it('retries a GET whose connection broke, up to the bound', async () => {
    server.setScript((_req, res) => {
      res.socket?.destroy();
    });
    const { count, result } = await served(() => rest.call('GET /user/settings', {}, {}));
    expect(count).toBe(3);
    expect(result).toMatchObject({ kind: 'unavailable' });
  });

  it('retries GET /message/ack (an idempotent read receipt)', async () => {
    server.setScript((_req, _res, i) => (i < 2 ? { status: 503, body: '' } : envelope(true)));
    const { count, result } = await served(() => rest.call('GET /message/ack', { msg_id: 1 }, {}));
    expect(count).toBe(3);
    expect(result).toEqual({ data: true });
  });

  it('does not retry other errors: 500, an envelope error, a timeout', async () => {
    server.setScript(() => ({ status: 500, body: 'boom' }));
    expect((await served(() => rest.call('GET /user/profile', {}, {}))).count).toBe(1);
    server.setScript(() => failure(10008, 'invalid token'));
    expect((await served(() => rest.call('GET /user/profile', {}, {}))).count).toBe(1);
    server.setScript(() => new Promise<void>(() => undefined));
    const timedOut = await served(() => rest.call('GET /user/profile', {}, {}));
    expect(timedOut.count).toBe(1);
    expect(timedOut.result).toMatchObject({ kind: 'timeout' });
  });

  it('retries a GET while the upstream refuses connections, and succeeds once it listens', async () => {
    const port = await freePort();
    let connections = 0;
    const late = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":200,"data":{"online":true}}');
    });
    const client = createRestClient({
      baseUrl: `http://127.0.0.1:${port}`,
      retries: 5,
      retryBaseDelayMs: 40,
      onCall: (info) => {
        connections += 1;
        // After the first refused attempt, start listening on the port.
        if (info.attempt === 1) late.listen(port, '127.0.0.1');
      },
    });
    try {
      const reply = await client.call('GET /user/online_status', {}, {});
      expect(reply.data.online).toBe(true);
      expect(connections).toBeGreaterThanOrEqual(2);
      expect((late.address() as AddressInfo).port).toBe(port);
    } finally {
      await client.close();
      await new Promise<void>((resolve) => late.close(() => resolve()));
    }
  });

  it('gives up on a refused GET after retries + 1 attempts', async () => {
    const port = await freePort();
    const seen: number[] = [];
    const client = createRestClient({
      baseUrl: `http://127.0.0.1:${port}`,
      retries: 3,
      retryBaseDelayMs: 1,
      onCall: (i) => seen.push(i.attempt),
    });
    try {
      const err = await client.call('GET /user/profile', {}, {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UpstreamError);
      expect(seen).toEqual([1, 2, 3, 4]);
    } finally {
      await client.close();
    }
  });
});

describe('REST client retries and the caller’s signal', () => {
  it('stops retrying when the caller aborts during the backoff, with the caller’s reason', async () => {
    const port = await freePort();
    const client = createRestClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 5, retryBaseDelayMs: 10_000 });
    try {
      const controller = new AbortController();
      const pending = client.call('GET /user/profile', {}, {}, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error('request cancelled')), 50);
      await expect(pending).rejects.toThrow('request cancelled');
    } finally {
      await client.close();
    }
  });
});
