// Downloads: the file is streamed through (never buffered whole), redirects are handed back as they
// are, and an error envelope (or an error status) becomes an UpstreamError.
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestClient } from '../../src/rest/client';
import { UpstreamError } from '../../src/rest/errors';
import { failure, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server';
import { EVENT_DEADLINE_MS, sleep } from '../helpers/wait';

/** The client's idle limit: a body left open ends by it only after the test's event deadline. */
const IDLE_MS = 2 * EVENT_DEADLINE_MS;

const FIVE_MB = randomBytes(5 * 1024 * 1024);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let server: ScriptedServer;
let rest: ReturnType<typeof createRestClient>;

beforeAll(async () => {
  server = await startScriptedServer(() => undefined);
  // maxResponseBytes is far below the file size: it limits JSON answers, not downloads.
  rest = createRestClient({ baseUrl: server.url, appId: 'app1', maxResponseBytes: 64 * 1024, callTimeoutMs: IDLE_MS });
});
afterAll(async () => {
  await rest.close();
  await server.close();
});

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('REST client downloads', () => {
  it('streams a 5 MB file intact, handing the body over before the upstream has sent it all', async () => {
    let firstChunkSeen: () => void = () => undefined;
    const clientHasStarted = new Promise<void>((resolve) => {
      firstChunkSeen = resolve;
    });
    server.setScript(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(FIVE_MB.length) });
      const half = FIVE_MB.length / 2;
      res.write(FIVE_MB.subarray(0, half));
      // The second half only goes once the client holds bytes of the first: a client that
      // buffered the whole body before answering would wait here forever.
      await clientHasStarted;
      res.end(FIVE_MB.subarray(half));
    });
    const file = await rest.download('GET /file/download/chat', { file_sign: 'abc', image_type: 2 }, { token: 'tok' });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    const chunks: Buffer[] = [];
    for await (const chunk of file.body as AsyncIterable<Buffer>) {
      if (chunks.length === 0) firstChunkSeen();
      chunks.push(chunk);
    }
    const received = Buffer.concat(chunks);
    expect(received.length).toBe(FIVE_MB.length);
    expect(sha256(received)).toBe(sha256(FIVE_MB));

    const req = server.requests.at(-1);
    expect(req?.path).toBe('/file/download/chat');
    expect(Object.fromEntries(req?.query ?? [])).toEqual({ file_sign: 'abc', image_type: '2' });
    expect(req?.headers['access-token']).toBe('tok');
    expect(req?.headers.app_id).toBe('app1');
  });

  it('turns an HTTP 200 error envelope into an UpstreamError', async () => {
    server.setScript(() => failure(10002, 'object_name is invalid'));
    const err = await rest.download('GET /file/download/avatar', { object_name: 'nope' }, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err).toMatchObject({ endpoint: 'GET /file/download/avatar', kind: 'envelope', code: 10002 });
    expect((err as Error).message).toBe('GET /file/download/avatar failed: upstream code 10002: object_name is invalid');
  });

  it('turns an error status into an UpstreamError, keeping the envelope code when there is one', async () => {
    server.setScript(() => failure(20022, 'file does not exist', 404));
    await expect(rest.download('GET /file/download/chat', { file_sign: 'x' }, {})).rejects.toMatchObject({
      kind: 'http',
      httpStatus: 404,
      code: 20022,
    });
    server.setScript(() => ({ status: 403, headers: { 'content-type': 'text/html' }, body: '<h1>Forbidden</h1>' }));
    await expect(rest.download('GET /file/download/chat', { file_sign: 'x' }, {})).rejects.toMatchObject({
      kind: 'http',
      httpStatus: 403,
    });
  });

  it('types download params per endpoint', () => {
    // @ts-expect-error: file_sign belongs to GET /file/download/chat, not to the avatar download
    const wrong = () => rest.download('GET /file/download/avatar', { file_sign: 'x' }, {});
    expect(typeof wrong).toBe('function');
  });

  it('hands a redirect back as it is, without following it', async () => {
    server.setScript(() => ({ status: 302, headers: { location: 'https://cdn.example/file.png' }, body: '' }));
    const before = server.requests.length;
    const file = await rest.download('GET /file/download/avatar', { object_name: 'a.png' }, {});
    expect(file.status).toBe(302);
    expect(file.headers.location).toBe('https://cdn.example/file.png');
    await readAll(file.body);
    expect(server.requests.length).toBe(before + 1);
  });

  it('passes a JSON file that is not an error envelope through intact, small or large', async () => {
    const small = '{"code":200,"hello":"a shared JSON file"}';
    const large = JSON.stringify({ rows: Array.from({ length: 20_000 }, (_, i) => ({ i, name: `row ${i}` })) });
    for (const text of [small, large]) {
      server.setScript(() => ({ headers: { 'content-type': 'application/json' }, body: text }));
      const file = await rest.download('GET /file/download/chat', { file_sign: 'j' }, {});
      expect((await readAll(file.body)).toString('utf8')).toBe(text);
    }
  });

  it.each(['image/png', 'application/json'])(
    'releases the upstream connection at once when the reader destroys a %s body unread',
    async (type) => {
      let closed: () => void = () => undefined;
      const upstreamClosed = new Promise<void>((resolve) => {
        closed = resolve;
      });
      server.setScript((_req, res) => {
        res.on('close', closed);
        res.writeHead(200, { 'content-type': type });
        res.write(FIVE_MB.subarray(0, 1024 * 1024));
        // ...and the rest never comes: only the client can end this.
      });
      const file = await rest.download('GET /file/download/chat', { file_sign: 'big' }, {});
      file.body.destroy();
      // Well before the idle limit could end it instead.
      const within = sleep(EVENT_DEADLINE_MS).then(() => 'still open');
      await expect(Promise.race([upstreamClosed.then(() => 'closed'), within])).resolves.toBe('closed');
    },
  );

  it('destroys the body when the caller aborts mid-file', async () => {
    server.setScript((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.alloc(1024));
      // ...and never finishes.
    });
    const controller = new AbortController();
    const file = await rest.download('GET /file/download/chat', { file_sign: 'slow' }, {}, { signal: controller.signal });
    const reading = readAll(file.body);
    controller.abort(new Error('viewer left'));
    await expect(reading).rejects.toThrow();
    expect(file.body.destroyed).toBe(true);
  });

  it('closes without hanging while a download body is left unread', async () => {
    const client = createRestClient({ baseUrl: server.url, callTimeoutMs: 200 });
    server.setScript((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.alloc(1024));
    });
    const file = await client.download('GET /file/download/chat', { file_sign: 'left' }, {});
    file.body.on('error', () => undefined);
    const started = performance.now();
    await client.close();
    // Ended by the client's own 200 ms limit; a busy machine delays it, never to seconds.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
