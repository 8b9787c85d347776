// Downloads: the file is streamed through (never buffered whole), a redirect to the storage (the
// service's own host or a storage host it is given) is followed with no identity under the same
// retry, timeout and body rules, any other redirect is handed back as it is, and an error envelope
// (or an error status, the storage's XML error) becomes an UpstreamError.
import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestClient } from '../../src/rest/client';
import { UpstreamError } from '../../src/rest/errors';
import { failure, type Script, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server';
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

/** 'closed' when the answer's connection closes, well before the idle limit could close it; else 'still open'. */
const closeOf = (res: ServerResponse) =>
  Promise.race([
    new Promise<string>((resolve) => res.on('close', () => resolve('closed'))),
    sleep(EVENT_DEADLINE_MS).then(() => 'still open'),
  ]);

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

describe('REST client downloads redirected to the storage', () => {
  let storage: ScriptedServer;
  let storageHost: string;
  beforeAll(async () => {
    storage = await startScriptedServer(() => undefined);
    storageHost = `127.0.0.1:${storage.port}`;
  });
  afterAll(() => storage.close());

  /** A client that may fetch from the storage server, with short idle limits for the failure cases. */
  const clientFor = (more: Partial<Parameters<typeof createRestClient>[0]> = {}) =>
    createRestClient({ baseUrl: server.url, appId: 'app1', storageHosts: [storageHost], retryBaseDelayMs: 1, ...more });

  /** The service redirects 6.2 to `location`. */
  const redirectTo = (location: string) => server.setScript(() => ({ status: 302, headers: { location }, body: '' }));

  /** The service redirects 6.2 to `path` on its own host, where `stored` answers. */
  const storedOnService = (path: string, stored: Script) =>
    server.setScript((req, res, index) =>
      req.path === path ? stored(req, res, index) : { status: 302, headers: { location: path }, body: '' },
    );

  const IDENTITY = ['access-token', 'app_id', 'user_id', 'group_id'];

  it('follows a redirect on the service’s own host and streams the storage’s bytes, sending them no identity', async () => {
    let firstChunkSeen: () => void = () => undefined;
    const clientHasStarted = new Promise<void>((resolve) => {
      firstChunkSeen = resolve;
    });
    server.setScript(async (req, res) => {
      if (req.path === '/file/download/chat')
        return { status: 302, headers: { location: '/_storage/object/chat/abc?Expires=9' }, body: '' };
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(FIVE_MB.length) });
      res.write(FIVE_MB.subarray(0, FIVE_MB.length / 2));
      // A client that buffered the storage's body before answering would wait here forever.
      await clientHasStarted;
      res.end(FIVE_MB.subarray(FIVE_MB.length / 2));
    });
    const before = server.requests.length;
    const file = await rest.download('GET /file/download/chat', { file_sign: 'sig' }, { token: 'tok', userId: '7' });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('video/mp4');
    expect(file.headers.location).toBeUndefined();
    const chunks: Buffer[] = [];
    for await (const chunk of file.body as AsyncIterable<Buffer>) {
      if (chunks.length === 0) firstChunkSeen();
      chunks.push(chunk);
    }
    expect(sha256(Buffer.concat(chunks))).toBe(sha256(FIVE_MB));
    const [service, stored] = server.requests.slice(before);
    expect(service?.headers['access-token']).toBe('tok');
    expect(stored?.url).toBe('/_storage/object/chat/abc?Expires=9');
    for (const header of IDENTITY) expect(stored?.headers[header]).toBeUndefined();
  });

  it('follows one to a storage host it is given; one to any other host comes back as it is, and that host gets nothing', async () => {
    const client = clientFor();
    try {
      storage.setScript(() => ({ status: 200, headers: { 'content-type': 'image/png' }, body: 'png bytes' }));
      redirectTo(`${storage.url}/bucket/a.png?Signature=x`);
      const file = await client.download('GET /file/download/avatar', { object_name: 'a' }, { token: 'tok' });
      expect(file.status).toBe(200);
      expect((await readAll(file.body)).toString()).toBe('png bytes');
      expect(storage.requests.at(-1)?.url).toBe('/bucket/a.png?Signature=x');
      for (const header of IDENTITY) expect(storage.requests.at(-1)?.headers[header]).toBeUndefined();

      // The shared client is given no storage host: the same answer is handed back.
      const seen = storage.requests.length;
      const relayed = await rest.download('GET /file/download/avatar', { object_name: 'a' }, { token: 'tok' });
      expect(relayed.status).toBe(302);
      expect(relayed.headers.location).toBe(`${storage.url}/bucket/a.png?Signature=x`);
      await readAll(relayed.body);
      // Nor is a host of the list reached by another scheme.
      redirectTo(`ftp://${storageHost}/a.png`);
      expect((await client.download('GET /file/download/avatar', { object_name: 'a' }, {})).status).toBe(302);
      expect(storage.requests.length).toBe(seen);
    } finally {
      await client.close();
    }
  });

  it('reads the storage’s refusal from its XML error, and takes a storage JSON file for a file, never an envelope', async () => {
    storedOnService('/_storage/object/x', () => ({
      status: 403,
      headers: { 'content-type': 'application/xml' },
      body: '<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Request has expired.</Message></Error>',
    }));
    const err = await rest.download('GET /file/download/chat', { file_sign: 's' }, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err).toMatchObject({
      endpoint: 'GET /file/download/chat',
      kind: 'http',
      httpStatus: 403,
      upstreamMessage: 'AccessDenied: Request has expired.',
    });

    const lookalike = '{"code":10002,"data":null,"message":"a JSON file a user shared"}';
    storedOnService('/_storage/object/j', () => ({ headers: { 'content-type': 'application/json' }, body: lookalike }));
    const file = await rest.download('GET /file/download/chat', { file_sign: 'j' }, {});
    expect((await readAll(file.body)).toString()).toBe(lookalike);
  });

  it('retries the whole chain, from the service, when the storage answers 503', async () => {
    const client = clientFor();
    try {
      redirectTo(`${storage.url}/o`);
      const first = storage.requests.length;
      storage.setScript((_req, _res, index) => (index === first ? { status: 503, body: 'busy' } : { body: 'finally' }));
      const before = server.requests.length;
      const file = await client.download('GET /file/download/chat', { file_sign: 's' }, {});
      expect((await readAll(file.body)).toString()).toBe('finally');
      expect(server.requests.length - before).toBe(2);
      expect(storage.requests.length - first).toBe(2);
    } finally {
      await client.close();
    }
  });

  it('times out when the storage sends no answer, and leaves no connection to it open', async () => {
    const client = clientFor({ callTimeoutMs: 300, retries: 0 });
    try {
      redirectTo(`${storage.url}/slow`);
      let closing: Promise<string> | undefined;
      // ...and no answer ever comes.
      storage.setScript((_req, res) => void (closing = closeOf(res)));
      await expect(client.download('GET /file/download/chat', { file_sign: 's' }, {})).rejects.toMatchObject({ kind: 'timeout' });
      await expect(closing).resolves.toBe('closed');
    } finally {
      await client.close();
    }
  });

  it('releases the storage connection at once when the reader destroys the body unread', async () => {
    const client = clientFor();
    try {
      redirectTo(`${storage.url}/big`);
      let closing: Promise<string> | undefined;
      storage.setScript((_req, res) => {
        closing = closeOf(res);
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.write(FIVE_MB.subarray(0, 1024 * 1024));
      });
      const file = await client.download('GET /file/download/chat', { file_sign: 's' }, {});
      file.body.destroy();
      await expect(closing).resolves.toBe('closed');
    } finally {
      await client.close();
    }
  });

  it('gives up after three storage redirects', async () => {
    redirectTo('/_storage/loop');
    const before = server.requests.length;
    const err = await rest.download('GET /file/download/chat', { file_sign: 's' }, {}).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'http', httpStatus: 302, detail: 'too many storage redirects' });
    expect(server.requests.length - before).toBe(4);
  });
});
