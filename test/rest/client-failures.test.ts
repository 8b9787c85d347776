// Every way an upstream answer can fail, over real sockets, and the UpstreamError each becomes.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRestClient, type CallInfo } from '../../src/rest/client';
import { classifyUpstreamError, UpstreamError } from '../../src/rest/errors';
import { envelope, failure, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server';
import { freePort } from '../helpers/free-port';

const TOKEN = 'tok-SECRET-7f3a9c2e-do-not-leak';
const caller = { appId: 'app1', token: TOKEN };

let server: ScriptedServer;
const calls: CallInfo[] = [];
const client = () => createRestClient({ baseUrl: server.url, callTimeoutMs: 300, retries: 0, onCall: (info) => calls.push(info) });
let rest: ReturnType<typeof createRestClient>;

beforeAll(async () => {
  server = await startScriptedServer(() => envelope(true));
  rest = client();
});
afterAll(async () => {
  await rest.close();
  await server.close();
});
afterEach(() => {
  calls.length = 0;
});

async function failureOf(promise: Promise<unknown>): Promise<UpstreamError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamError);
  return err as UpstreamError;
}

describe('REST client failures', () => {
  it('turns a non-200 envelope code into an envelope error with code and message', async () => {
    server.setScript(() => failure(20001, 'group does not exist'));
    const err = await failureOf(rest.call('GET /group/info', { group_id: 1 }, caller));
    expect(err).toMatchObject({ endpoint: 'GET /group/info', kind: 'envelope', code: 20001, httpStatus: 200 });
    expect(err.upstreamMessage).toBe('group does not exist');
    expect(err.message).toBe('GET /group/info failed: upstream code 20001: group does not exist');
    expect(classifyUpstreamError(err)).toBe('NOT_FOUND');
  });

  it('turns HTTP 500 with an envelope into an http error that keeps the envelope code', async () => {
    server.setScript(() => failure(10010, 'no permission', 500));
    const err = await failureOf(rest.call('GET /user/profile', {}, caller));
    expect(err).toMatchObject({ kind: 'http', httpStatus: 500, code: 10010, upstreamMessage: 'no permission' });
    expect(err.message).toBe('GET /user/profile failed: HTTP 500: upstream code 10010: no permission');
    expect(classifyUpstreamError(err)).toBe('FORBIDDEN');
  });

  it('turns HTTP 500 without an envelope into an http error classed as unavailable', async () => {
    server.setScript(() => ({ status: 500, body: 'Internal Server Error' }));
    const err = await failureOf(rest.call('GET /user/profile', {}, caller));
    expect(err).toMatchObject({ kind: 'http', httpStatus: 500 });
    expect(err.code).toBeUndefined();
    expect(err.message).toBe('GET /user/profile failed: HTTP 500');
    expect(classifyUpstreamError(err)).toBe('UPSTREAM_UNAVAILABLE');
  });

  it('turns an empty 200 body into an invalid-body error', async () => {
    server.setScript((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end();
    });
    const err = await failureOf(rest.call('GET /user/profile', {}, caller));
    expect(err).toMatchObject({ kind: 'invalid-body', httpStatus: 200 });
    expect(err.message).toBe('GET /user/profile failed: empty body');
    expect(classifyUpstreamError(err)).toBe('UPSTREAM_ERROR');
  });

  it('turns an HTML 200 body into an invalid-body error', async () => {
    server.setScript(() => ({ headers: { 'content-type': 'text/html' }, body: '<html><body>maintenance</body></html>' }));
    const err = await failureOf(rest.call('GET /user/profile', {}, caller));
    expect(err).toMatchObject({ kind: 'invalid-body', httpStatus: 200 });
    expect(err.message).toBe('GET /user/profile failed: body is not JSON');
  });

  it('turns JSON that is not an envelope into an invalid-body error', async () => {
    server.setScript(() => ({ body: { hello: 'world' } }));
    const err = await failureOf(rest.call('GET /user/profile', {}, caller));
    expect(err).toMatchObject({ kind: 'invalid-body' });
    expect(err.message).toBe('GET /user/profile failed: body is not an envelope');
  });

  it('refuses a body larger than maxResponseBytes', async () => {
    const small = createRestClient({ baseUrl: server.url, maxResponseBytes: 1000, retries: 0 });
    try {
      server.setScript(() => envelope('x'.repeat(5000)));
      const err = await failureOf(small.call('GET /user/profile', {}, caller));
      expect(err).toMatchObject({ kind: 'invalid-body' });
      expect(err.message).toContain('larger than 1000 bytes');
      // Also when the length is not announced (chunked).
      server.setScript((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"code":200,"data":"');
        res.write('y'.repeat(5000));
        res.end('"}');
      });
      const chunked = await failureOf(small.call('GET /user/profile', {}, caller));
      expect(chunked.kind).toBe('invalid-body');
    } finally {
      await small.close();
    }
  });

  it('stops reading a body whose Content-Length, in any case, is over the limit once its head has arrived', async () => {
    // The rest of the body never comes: only the declared length can end the attempt before the call's time limit.
    const small = createRestClient({ baseUrl: server.url, maxResponseBytes: 100_000, callTimeoutMs: 60_000, retries: 0 });
    try {
      server.setScript((_req, res) => {
        res.setHeader('Content-Type', 'application/json');
        res.setHeader('CONTENT-LENGTH', '1000000');
        res.flushHeaders();
        res.write('{"code":200,"data":"' + 'z'.repeat(70_000));
      });
      const err = await failureOf(small.call('GET /user/profile', {}, caller));
      expect(err).toMatchObject({ kind: 'invalid-body' });
      expect(err.message).toContain('larger than 100000 bytes');
      expect(err.bodyHead?.startsWith('{"code":200,"data":"zzz')).toBe(true);
    } finally {
      await small.close();
    }
  });

  it('turns a refused connection into an unavailable error', async () => {
    const port = await freePort();
    const dead = createRestClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 0 });
    try {
      const err = await failureOf(dead.call('GET /user/profile', {}, caller));
      expect(err).toMatchObject({ endpoint: 'GET /user/profile', kind: 'unavailable' });
      expect(err.httpStatus).toBeUndefined();
      expect(err.message).toBe('GET /user/profile failed: upstream unreachable (ECONNREFUSED)');
      expect(classifyUpstreamError(err)).toBe('UPSTREAM_UNAVAILABLE');
    } finally {
      await dead.close();
    }
  });

  it('turns a connection the server drops mid-answer into an unavailable error', async () => {
    server.setScript((_req, res) => {
      res.socket?.destroy();
    });
    const err = await failureOf(rest.call('PUT /user/nickname', { nick_name: 'x' }, caller));
    expect(err.kind).toBe('unavailable');
  });

  it('turns a server that never answers into a timeout error after callTimeoutMs', async () => {
    server.setScript(() => new Promise<void>(() => undefined));
    const started = performance.now();
    const err = await failureOf(rest.call('GET /user/profile', {}, caller));
    const elapsed = performance.now() - started;
    expect(err).toMatchObject({ kind: 'timeout' });
    expect(err.message).toBe('GET /user/profile failed: no answer within 300 ms');
    expect(classifyUpstreamError(err)).toBe('UPSTREAM_UNAVAILABLE');
    expect(elapsed).toBeGreaterThanOrEqual(290);
    // Ended by the limit, not by an answer that never comes (a busy machine delays the timer).
    expect(elapsed).toBeLessThan(10_000);
  });

  it('times out a body that stalls after its headers', async () => {
    server.setScript((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"code":200,');
    });
    const err = await failureOf(rest.call('GET /user/profile', {}, caller));
    expect(err.kind).toBe('timeout');
  });

  it('rejects with the caller’s abort reason, not an UpstreamError, when the caller aborts', async () => {
    server.setScript(() => new Promise<void>(() => undefined));
    const controller = new AbortController();
    const pending = rest.call('GET /user/profile', {}, caller, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('client went away')), 20);
    await expect(pending).rejects.toThrow('client went away');
  });

  it('reports every attempt to onCall with status and error kind, without secrets', async () => {
    server.setScript(() => failure(20001, `group does not exist for ${TOKEN}`));
    await failureOf(rest.call('GET /group/info', { group_id: 7 }, caller));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      endpoint: 'GET /group/info',
      method: 'GET',
      path: '/group/info',
      status: 200,
      attempt: 1,
      error: 'envelope',
    });
    expect(JSON.stringify(calls)).not.toContain(TOKEN);
  });
});

describe('REST client secrets', () => {
  it('never puts the token or a password into an error message, even when the upstream echoes them', async () => {
    const password = 'pw-HUNTER2-secret';
    // The upstream echoes whatever secrets it was sent: the token header and the body.
    server.setScript((req) => failure(10008, `bad token ${String(req.headers['access-token'])} for ${req.rawBody}`));
    const errors = [
      await failureOf(rest.call('GET /user/profile', {}, caller)),
      await failureOf(rest.call('POST /user/change_password', { old_password: password, new_password: 'new-pw-123' }, caller)),
      await failureOf(rest.call('POST /token/id', { user_id: 1, password }, caller)),
    ];
    server.setScript(() => ({ status: 401, body: { code: 402, message: `expired: ${TOKEN}` } }));
    errors.push(await failureOf(rest.call('GET /user/profile', {}, caller)));
    server.setScript(() => new Promise<void>(() => undefined));
    errors.push(await failureOf(rest.call('POST /token/id', { user_id: 1, password }, caller)));
    for (const err of errors) {
      const everything = `${err.message} ${err.upstreamMessage ?? ''} ${String(err.stack)} ${JSON.stringify(err)}`;
      expect(everything).not.toContain(TOKEN);
      expect(everything).not.toContain(password);
    }
    expect(errors[0]?.upstreamMessage).toContain('[redacted]');
    expect(classifyUpstreamError(errors[3] as UpstreamError)).toBe('UNAUTHENTICATED');
    expect(JSON.stringify(calls)).not.toContain(TOKEN);
  });
});
