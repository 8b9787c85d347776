// The call timeout holds for the whole call (waiting for a connection, headers, body), frees the
// connection, reaches every coalesced waiter, and leaves nothing behind that keeps the process
// alive. Over real sockets, against a scripted server. How precisely the limit is kept (one tick
// of the deadline clock) is proven with fake timers in deadlines.test.ts: here the limit is long
// enough, and the late answers late enough, that a machine with busy cores keeps them apart.
import { spawn } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestClient, type RestClient } from '../../src/rest/client';
import { coalescing } from '../../src/rest/coalesce';
import { UpstreamError } from '../../src/rest/errors';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-server';
import { EVENT_DEADLINE_MS, sleep } from '../helpers/wait';

const caller = { appId: 'app1', token: 'tok' };
const TIMEOUT_MS = 1_000;
/** When a late answer comes: far enough past the limit that only the timeout can end the call first. */
const LATE_MS = 10 * TIMEOUT_MS;
const ANSWER = JSON.stringify({ code: 200, data: { user_id: 1 }, message: null });

let server: ScriptedServer;
let rest: RestClient;

beforeAll(async () => {
  server = await startScriptedServer(() => undefined);
  rest = createRestClient({ baseUrl: server.url, callTimeoutMs: TIMEOUT_MS, retries: 0 });
});
afterAll(async () => {
  await rest.close();
  await server.close();
});

/**
 * The call's outcome and how long it took, ms, from before it starts (its deadline starts inside),
 * or from `started` when several calls share one deadline (the first's).
 */
async function timed(start: () => Promise<unknown>, started = performance.now()): Promise<{ ms: number; error?: unknown }> {
  try {
    await start();
    return { ms: performance.now() - started };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

function expectTimeout(outcome: { ms: number; error?: unknown }) {
  expect(outcome.error).toBeInstanceOf(UpstreamError);
  expect(outcome.error).toMatchObject({ kind: 'timeout', message: `GET /user/profile failed: no answer within ${TIMEOUT_MS} ms` });
  expect(outcome.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
  expect(outcome.ms).toBeLessThan(LATE_MS / 2);
}

/** Resolves after `ms`, or at once when the call has gone (no timer left behind). */
const heldFor = (res: ServerResponse, ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    res.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Answers in full after `ms`. */
const answerAfter = (ms: number) => async (_req: unknown, res: ServerResponse) => {
  await heldFor(res, ms);
  if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER);
};

describe('REST call timeout', () => {
  it('fails a call answered after ten times the limit with a timeout error at the limit', async () => {
    server.setScript(answerAfter(LATE_MS));
    expectTimeout(await timed(() => rest.call('GET /user/profile', {}, caller)));
  });

  it('lets a call answered after a twentieth of the limit through', async () => {
    server.setScript(answerAfter(TIMEOUT_MS / 20));
    const outcome = await timed(() => rest.call('GET /user/profile', {}, caller));
    expect(outcome.error).toBeUndefined();
  });

  it('times out a body that stalls half-way', async () => {
    server.setScript(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(ANSWER.slice(0, 10));
      await heldFor(res, LATE_MS);
      if (!res.destroyed) res.end(ANSWER.slice(10));
    });
    expectTimeout(await timed(() => rest.call('GET /user/profile', {}, caller)));
  });

  it('times out a body that trickles in, a byte every fifth of the limit, past the limit', async () => {
    server.setScript(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (const byte of ANSWER) {
        if (res.destroyed) return;
        res.write(byte);
        await heldFor(res, TIMEOUT_MS / 5);
      }
      res.end();
    });
    expectTimeout(await timed(() => rest.call('GET /user/profile', {}, caller)));
  });

  it('closes the timed-out connection at once, and the next call succeeds', async () => {
    let closed: Promise<number> | undefined;
    server.setScript((_req, res) => {
      closed = new Promise((resolve) => res.once('close', () => resolve(performance.now())));
      return new Promise<void>(() => undefined);
    });
    const started = performance.now();
    expectTimeout(await timed(() => rest.call('GET /user/profile', {}, caller)));
    expect(closed).toBeDefined();
    // Closed with the timeout, not left open for an answer that comes late or never.
    expect((await closed!) - started).toBeLessThan(LATE_MS / 2);
    server.setScript(answerAfter(0));
    expect((await timed(() => rest.call('GET /user/profile', {}, caller))).error).toBeUndefined();
  });

  it('counts the wait for a free connection: a call queued behind a stalled one times out too', async () => {
    const single = createRestClient({ baseUrl: server.url, callTimeoutMs: TIMEOUT_MS, retries: 0, connections: 1 });
    try {
      server.setScript(() => new Promise<void>(() => undefined));
      const [first, queued] = await Promise.all([
        timed(() => single.call('GET /user/profile', {}, caller)),
        timed(() => single.call('GET /user/profile', {}, caller)),
      ]);
      expectTimeout(first);
      expectTimeout(queued);
    } finally {
      await single.close();
    }
  });

  it('never sends a call ended while it waited for a connection', async () => {
    const single = createRestClient({ baseUrl: server.url, callTimeoutMs: TIMEOUT_MS, retries: 0, connections: 1 });
    try {
      server.setScript(() => new Promise<void>(() => undefined));
      const requestsBefore = server.requests.length;
      const stalled = timed(() => single.call('GET /user/profile', {}, caller));
      const controller = new AbortController();
      const queued = timed(() => single.call('GET /user/profile', {}, caller, { signal: controller.signal }));
      setTimeout(() => controller.abort(new Error('client went away')), 20);
      const ended = await queued;
      expect(ended.error).toEqual(new Error('client went away'));
      expect(ended.ms).toBeLessThan(TIMEOUT_MS);
      expectTimeout(await stalled);
      // The connection is free again: undici gets to the queued call and drops it unsent.
      await sleep(100);
      expect(server.requests.length).toBe(requestsBefore + 1);
    } finally {
      await single.close();
    }
  });

  it('gives every coalesced waiter of a timed-out call the timeout error, from one upstream request', async () => {
    const shared = coalescing(rest);
    server.setScript(answerAfter(LATE_MS));
    const requestsBefore = server.requests.length;
    // The waiters share the first call's deadline: each is timed from before the first started (on a
    // busy machine the three starts may lie milliseconds apart).
    const first = performance.now();
    const outcomes = await Promise.all([1, 2, 3].map(() => timed(() => shared.call('GET /user/profile', {}, caller), first)));
    for (const outcome of outcomes) expectTimeout(outcome);
    expect(server.requests.length).toBe(requestsBefore + 1);
  });

  it('leaves nothing that keeps the process alive after a timeout', async () => {
    server.setScript(() => new Promise<void>(() => undefined));
    const client = fileURLToPath(new URL('../../src/rest/client.ts', import.meta.url));
    // The client is never closed: the process must still exit once the call has timed out.
    const script = `
      import { createRestClient } from ${JSON.stringify(client)};
      const rest = createRestClient({ baseUrl: process.env.URL, callTimeoutMs: ${TIMEOUT_MS}, retries: 0 });
      await rest.call('GET /user/profile', {}, {}).catch((e) => console.log(e.kind, performance.now()));
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, URL: server.url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = await Promise.race([
      new Promise<number | null>((resolve) => child.once('exit', resolve)),
      sleep(EVENT_DEADLINE_MS).then(() => 'still running'),
    ]);
    if (exited === 'still running') child.kill();
    expect(exited).toBe(0);
    expect(output).toMatch(/^timeout /);
  });
});
