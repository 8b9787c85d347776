// SIGTERM drains the gateway (`node src/main.ts`, a process of its own): the query whose REST call
// the upstream holds still gets its answer, /ready says 503, a keep-alive client's next request is
// answered with `Connection: close`, subscriptions end so that clients resume elsewhere, and the
// process exits 0, saying that the drain ended. Past SHUTDOWN_TIMEOUT_MS what remains is cut and logged; a second signal exits at
// once. Stopping hands the Redis leases of its pollers back.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../../src/config';
import { createGateway } from '../../../src/gateway/create-gateway';
import { freePort } from '../../helpers/free-port';
import { envelope, type ScriptedServer, startScriptedServer } from '../../helpers/scripted-server';
import { type Feed, sseFeed, wsClient } from '../../helpers/subscriptions/clients';
import { UNREAD, type UnreadData } from '../../helpers/subscriptions/operations';
import { until } from '../../helpers/wait';
import { waitForLine } from '../../helpers/wait-for-line';

const IDENTITY = { app_id: 'app', 'access-token': 'token' };
/** The token whose profile call the upstream holds until the test lets it go. */
const HELD = 'held';

let upstream: ScriptedServer;
/** Lets the held calls go on. */
const held: (() => void)[] = [];
const letGo = () => held.splice(0).forEach((release) => release());

beforeAll(async () => {
  upstream = await startScriptedServer(async (req) => {
    if (req.path === '/message/unread') return envelope([]);
    if (req.headers['access-token'] === HELD) await new Promise<void>((resolve) => held.push(resolve));
    return envelope({ user_id: 5, username: 'u' });
  });
});
afterAll(() => upstream.close());

interface Gateway {
  child: ChildProcess;
  origin: string;
  /** What it logged (JSON lines on stdout). */
  log: () => string;
  exited: Promise<number | null>;
}
const started: ChildProcess[] = [];
afterEach(() => {
  letGo();
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function startGateway(env: Record<string, string>): Promise<Gateway> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: String(port), IM_BASE_URL: upstream.url, IM_ADMIN_TOKEN: '', POLL_INTERVAL_MS: '200', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await waitForLine(child, /GraphQL\s+http/);
  return { child, origin: `http://127.0.0.1:${port}`, log: () => log, exited };
}

/** POSTs `{ me { id } }` as the held identity; resolves to the answer's status and body. */
function heldQuery(origin: string): Promise<{ status: number; body: unknown }> {
  return fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', app_id: 'app', 'access-token': HELD },
    body: JSON.stringify({ query: '{ me { id } }' }),
  }).then(async (res) => ({ status: res.status, body: await res.json() }));
}

const heldCallArrived = () => until('the held REST call reaches the upstream', () => held.length > 0);

/** A GET on a keep-alive agent of one socket: its status, Connection header and whether the socket was reused. */
function get(agent: Agent, url: string): Promise<{ status: number; connection: string | undefined; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, reused: req.reusedSocket }));
    });
    req.once('error', reject);
    req.end();
  });
}

describe('SIGTERM', () => {
  it('lets the query in flight finish, answers /ready 503 with Connection: close on an open connection, ends subscriptions, exits 0', async () => {
    const gateway = await startGateway({ SHUTDOWN_TIMEOUT_MS: '120000' });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const client = wsClient(gateway.origin, IDENTITY);
    try {
      const before = await get(agent, `${gateway.origin}/ready`);
      expect(before).toMatchObject({ status: 200, connection: 'keep-alive' });
      const feeds: Feed<UnreadData>[] = [sseFeed<UnreadData>(gateway.origin, IDENTITY, UNREAD), client.feed<UnreadData>(UNREAD)];
      for (const feed of feeds) expect((await feed.next()).data).toEqual({ unreadCounts: [] });
      const answer = heldQuery(gateway.origin);
      await heldCallArrived();

      gateway.child.kill('SIGTERM');
      // Both transports end their subscriptions: graphql-ws with `complete`, SSE with its stream's end.
      const [sse, ws] = await Promise.all(feeds.map((feed) => feed.ending));
      expect(ws).toEqual({ complete: true });
      expect(sse).toEqual({ complete: true });
      // The keep-alive connection is still open: its next request is answered, and told to close.
      const during = await get(agent, `${gateway.origin}/ready`);
      expect(during).toEqual({ status: 503, connection: 'close', reused: true });
      // No new connection is accepted: a load balancer tries another replica.
      await expect(get(new Agent(), `${gateway.origin}/health`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      expect(gateway.child.exitCode).toBeNull();

      letGo();
      expect(await answer).toEqual({ status: 200, body: { data: { me: { id: '5' } } } });
      expect(await gateway.exited).toBe(0);
      expect(gateway.log()).not.toContain('cut');
      // The line that says the replica is done.
      expect(gateway.log()).toMatch(
        /"msg":"drain ended: every request in flight answered, every connection closed \(\d+ ms after SIGTERM\)"/,
      );
    } finally {
      agent.destroy();
      await client.dispose();
    }
  }, 180_000);

  it('cuts what is still in flight at SHUTDOWN_TIMEOUT_MS, says so, and exits', async () => {
    const timeoutMs = 1_500;
    const gateway = await startGateway({ SHUTDOWN_TIMEOUT_MS: String(timeoutMs) });
    const answer = heldQuery(gateway.origin).catch((err: unknown) => err);
    await heldCallArrived();
    const sent = performance.now();
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(1);
    const took = performance.now() - sent;
    expect(took).toBeGreaterThanOrEqual(timeoutMs);
    // The margin is generous for a busy machine; the drain's own log line proves it, not the backstop.
    expect(took).toBeLessThan(timeoutMs + 15_000);
    expect(gateway.log()).toContain(`SHUTDOWN_TIMEOUT_MS (${timeoutMs} ms) passed: cut 1 request(s) in flight: 1 × POST /graphql`);
    expect(await answer).toBeInstanceOf(Error);
  }, 120_000);

  it('exits at once on a second signal', async () => {
    const gateway = await startGateway({ SHUTDOWN_TIMEOUT_MS: '600000' });
    void heldQuery(gateway.origin).catch(() => undefined);
    await heldCallArrived();
    const stopping = waitForLine(gateway.child, /SIGTERM: stopping/);
    gateway.child.kill('SIGTERM');
    await stopping;
    gateway.child.kill('SIGINT');
    // Without the second signal it would wait ten minutes for the held call.
    expect(await gateway.exited).toBe(1);
    expect(gateway.log()).toContain('SIGINT while stopping: exiting at once');
  }, 120_000);
});

describe('stopping with Redis', () => {
  it('releases the leases of its pollers, so that another replica polls at once', async () => {
    const prefix = `im-gateway-test:${randomBytes(6).toString('hex')}:`;
    const redis = new Redis(inject('redisUrl'));
    const config = { ...loadConfig({ PORT: '1', REDIS_URL: inject('redisUrl'), POLL_INTERVAL_MS: '200' }), port: 0 };
    const gateway = createGateway(config, { imBaseUrl: upstream.url, redisPrefix: prefix });
    const client = wsClient(await gateway.start(), IDENTITY);
    try {
      const feed = client.feed<UnreadData>(UNREAD);
      expect((await feed.next()).data).toEqual({ unreadCounts: [] });
      expect(await redis.keys(`${prefix}lease:*`)).toHaveLength(1);
      expect(await gateway.stop(60_000)).toEqual({ cut: [] });
      expect(await feed.ending).toEqual({ complete: true });
      expect(await redis.keys(`${prefix}lease:*`)).toEqual([]);
    } finally {
      await client.dispose();
      redis.disconnect();
    }
  }, 120_000);
});
