// The download route (GET /files/avatar, GET /files/chat): the file comes from 6.1/6.2 with the
// caller's identity (headers, or query parameters as image tags need) and is streamed through with
// its status and headers; failures answer JSON errors with a matching status.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config';
import { createGateway, type Gateway } from '../../../src/gateway/create-gateway';
import { failure, type ScriptedServer, startScriptedServer } from '../../helpers/scripted-server';
import type { TestUser as User } from '../../helpers/emulator';
import { useStack } from '../../helpers/stack';
import { storedFile } from '../../helpers/stored-file';
import { identity } from '../../helpers/users';

const stack = useStack();

const stored = (u: User, kind: 'chat' | 'avatar', bytes: Buffer, type: string) => storedFile(stack.emu, u, kind, bytes, type);

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${stack.url}${path}`, { headers, redirect: 'manual' });

describe('download route over the service', () => {
  it('streams a chat file with the caller headers, passing status, type and length on', async () => {
    const u = await stack.emu.user();
    const bytes = randomBytes(300_000);
    const key = await stored(u, 'chat', bytes, 'image/png');
    stack.emu.server.resetCalls();
    const res = await get(`/files/chat?fileSign=${encodeURIComponent(key)}&format=mp3`, identity(stack.emu, u));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect(stack.emu.server.calls).toMatchObject([
      {
        endpoint: 'GET /file/download/chat',
        query: { file_sign: key, format: 'mp3' },
        headers: { app_id: stack.emu.appId, hasToken: true },
      },
    ]);
  });

  it('takes the identity from query parameters, as an image tag sends it, and does not pass them on as parameters', async () => {
    const u = await stack.emu.user();
    const bytes = randomBytes(5000);
    const key = await stored(u, 'avatar', bytes, 'image/jpeg');
    stack.emu.server.resetCalls();
    const search = new URLSearchParams({
      objectName: key,
      imageType: '2',
      w: '100',
      h: '50',
      app_id: stack.emu.appId,
      'access-token': stack.emu.adminToken,
      user_id: String(u.id),
    });
    const res = await get(`/files/avatar?${search}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect(stack.emu.server.calls.map((c) => [c.endpoint, c.query, c.headers])).toEqual([
      [
        'GET /file/download/avatar',
        { object_name: key, image_type: '2', w: '100', h: '50' },
        expect.objectContaining({ app_id: stack.emu.appId, user_id: String(u.id), hasToken: true }),
      ],
    ]);
    // Identity headers only: nothing of the URL's query rides along as a header.
    expect(Object.keys(stack.emu.server.calls[0]!.headers).sort()).toEqual(['app_id', 'hasToken', 'traceparent', 'user_id']);
  });

  it('answers a missing file with the service status (404) and a JSON error', async () => {
    const u = await stack.emu.user();
    const res = await get('/files/chat?fileSign=chat%2Fnothing', identity(stack.emu, u));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toMatchObject({
      errors: [{ extensions: { code: 'BAD_USER_INPUT', upstreamCode: 10002, endpoint: 'GET /file/download/chat' } }],
    });
  });

  it('answers a missing token as 401 UNAUTHENTICATED', async () => {
    const res = await get('/files/avatar?objectName=avatar%2Fx', { app_id: stack.emu.appId });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ errors: [{ extensions: { code: 'UNAUTHENTICATED', upstreamCode: 10003 } }] });
  });

  it('refuses a request without the file parameter, and other methods, before any REST call', async () => {
    stack.emu.server.resetCalls();
    const missing = await get('/files/chat?format=mp3', { app_id: stack.emu.appId });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ errors: [{ extensions: { code: 'BAD_USER_INPUT', field: 'fileSign' } }] });
    const posted = await fetch(`${stack.url}/files/avatar?objectName=a`, { method: 'POST' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET');
    expect(stack.emu.server.calls).toHaveLength(0);
  });
});

describe('download route over a scripted service', () => {
  let upstream: ScriptedServer;
  let gateway: Gateway;
  let url: string;
  beforeAll(async () => {
    upstream = await startScriptedServer(() => undefined);
    gateway = createGateway({ ...loadConfig({ PORT: '1', IM_RETRIES: '0' }), port: 0 }, { imBaseUrl: upstream.url });
    url = await gateway.start();
  });
  afterAll(async () => {
    await gateway.stop();
    await upstream.close();
  });

  it('passes a redirect through without following it', async () => {
    upstream.setScript(() => ({ status: 302, headers: { location: 'https://cdn.example/a.png' }, body: '' }));
    const res = await fetch(`${url}/files/avatar?objectName=a`, { redirect: 'manual', headers: { 'access-token': 't' } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://cdn.example/a.png');
    expect(upstream.requests.at(-1)?.headers['access-token']).toBe('t');
  });

  it('hands bytes on before the service has sent them all', async () => {
    const half = randomBytes(256 * 1024);
    let clientHasBytes: () => void = () => undefined;
    const seen = new Promise<void>((resolve) => {
      clientHasBytes = resolve;
    });
    upstream.setScript(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(half.length * 2) });
      res.write(half);
      // A route that buffered the whole body would wait here forever.
      await seen;
      res.end(half);
    });
    const res = await fetch(`${url}/files/chat?fileSign=s`);
    expect(res.headers.get('content-length')).toBe(String(half.length * 2));
    let size = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (size === 0) clientHasBytes();
      size += chunk.length;
    }
    expect(size).toBe(half.length * 2);
  });

  it('stops the upstream transfer when the client goes away', async () => {
    let upstreamClosed: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => {
      upstreamClosed = resolve;
    });
    upstream.setScript((_req, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(randomBytes(64 * 1024));
      res.on('close', upstreamClosed);
    });
    const abort = new AbortController();
    const res = await fetch(`${url}/files/chat?fileSign=endless`, { signal: abort.signal });
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    await closed;
  });

  it.each([
    ['an error envelope (HTTP 200)', failure(10008, 'access-token invalid'), 401, 'UNAUTHENTICATED'],
    ['HTTP 503', failure(500, 'down', 503), 503, 'UPSTREAM_UNAVAILABLE'],
    ['HTTP 500 without an envelope', { status: 500, body: 'oops' }, 503, 'UPSTREAM_UNAVAILABLE'],
  ])('answers %s as JSON with its status and code', async (_what, answer, status, code) => {
    upstream.setScript(() => answer);
    const res = await fetch(`${url}/files/chat?fileSign=s`);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ errors: [{ extensions: { code, endpoint: 'GET /file/download/chat' } }] });
  });
});
