// Subscription load benchmark: 10,000 WebSocket subscribers of unreadCounts on 1,000 identities
// against one gateway over the emulator, all on 127.0.0.1. Prints the polls per second the
// emulator receives, the gateway's memory per subscriber, and the delay from sending a message to
// its delivery at each subscriber (median and p99). Bounded in time; the clients run in a child
// process (bench/subscription-clients.ts), so this process holds only the gateway and the emulator
// (whose record of calls is emptied before each memory reading). A tenth of the subscribers come
// and go before the baseline reading, so that the figure is what holding subscribers costs, not
// code compiled on first use.
//
//   npm run bench:subscriptions        (BENCH_SUBSCRIBERS, BENCH_IDENTITIES, BENCH_INTERVAL_MS, BENCH_MESSAGES)
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config';
import { createEmulator } from '../src/emulator';
import { createGateway } from '../src/gateway/create-gateway';
import { channel } from './ipc';
import type { ClientsPlan, FromClients, ToClients } from './subscription-clients';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SUBSCRIBERS = env('BENCH_SUBSCRIBERS', 10_000);
const IDENTITIES = env('BENCH_IDENTITIES', 1_000);
const INTERVAL_MS = env('BENCH_INTERVAL_MS', 2_000);
const MESSAGES = env('BENCH_MESSAGES', 200);
// A whole number of intervals, so that the count does not depend on where the rounds fall.
const IDLE_WINDOW_MS = 4 * INTERVAL_MS;
const TIME_LIMIT_MS = 600_000;

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function memory() {
  gc?.();
  gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function main() {
  const watchdog = setTimeout(() => {
    console.error(`bench: over ${TIME_LIMIT_MS / 1000} s, giving up`);
    process.exit(1);
  }, TIME_LIMIT_MS);
  if (!gc) console.warn('bench: run with --expose-gc (npm run bench:subscriptions) for steady memory figures');

  const adminToken = randomBytes(12).toString('hex');
  const emulator = createEmulator({ adminToken, host: '127.0.0.1', port: 0, recordCalls: 1_000_000 });
  const emulatorUrl = await emulator.start();
  const appId = emulator.state.options.appId;

  async function rest<T>(path: string, body: unknown): Promise<T> {
    const res = await fetch(`${emulatorUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', app_id: appId },
      body: JSON.stringify(body),
    });
    const reply = (await res.json()) as { code: number; data: T; message: string };
    if (reply.code !== 200) throw new Error(`${path}: ${reply.code} ${reply.message}`);
    return reply.data;
  }
  async function newUser(name: string) {
    await rest('/user/register/v2', { username: name, password: 'bench-pass' });
    const grant = await rest<{ token: string; user_id: number }>('/token/user', { name, password: 'bench-pass' });
    return { id: grant.user_id, token: grant.token };
  }
  const users = [];
  for (let i = 0; i < IDENTITIES; i++) users.push(await newUser(`bench${i}`));
  const sender = await newUser('bench-sender');

  const config = { ...loadConfig({ PORT: '1', IM_APP_ID: appId, POLL_INTERVAL_MS: String(INTERVAL_MS) }), port: 0 };
  const gateway = createGateway(config, { imBaseUrl: emulatorUrl });
  const gatewayUrl = await gateway.start();
  // The emulator runs in this process: its record of calls would count as the gateway's memory.
  const settle = () => {
    emulator.resetCalls();
    return memory();
  };

  /** A child process of clients (bench/subscription-clients.ts), and a way to ask it things. */
  const startClients = () =>
    channel<ToClients, FromClients>(fork(fileURLToPath(new URL('./subscription-clients.ts', import.meta.url))), 'clients');

  const plan: ClientsPlan = {
    gatewayUrl,
    emulatorUrl,
    appId,
    users,
    sender,
    subscribers: SUBSCRIBERS,
    messages: MESSAGES,
    messageGapMs: 25,
    intervalMs: INTERVAL_MS,
  };
  const warmUp = startClients();
  await warmUp({ type: 'plan', plan: { ...plan, subscribers: Math.max(IDENTITIES, Math.floor(SUBSCRIBERS / 10)) } }, 'subscribed');
  await warmUp({ type: 'close' }, 'closed');
  await new Promise((resolve) => setTimeout(resolve, 2 * INTERVAL_MS)); // pollers stopped, topics gone
  const before = settle();

  const ask = startClients();
  const subscribed = await ask({ type: 'plan', plan }, 'subscribed');
  const held = settle();

  await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS));
  const polls = emulator.calls.filter((c) => c.endpoint === 'GET /message/unread').length;

  const { delays, expected, sends } = await ask({ type: 'send' }, 'delays');
  await ask({ type: 'close' }, 'closed');
  await gateway.stop();
  await emulator.stop();
  clearTimeout(watchdog);

  const sorted = [...delays].sort((a, b) => a - b);
  const sendSorted = [...sends].sort((a, b) => a - b);
  const line = (label: string, value: string) => console.log(`${label.padEnd(34)} ${value}`);
  console.log(`\nsubscriptions bench (Node ${process.version}, poll interval ${INTERVAL_MS} ms)`);
  line('subscribers (WebSocket connections)', `${SUBSCRIBERS} on ${IDENTITIES} identities`);
  line('all subscribed, first counts in', `${(subscribed.ms / 1000).toFixed(1)} s`);
  line(
    'polls per second at the emulator',
    `${(polls / (IDLE_WINDOW_MS / 1000)).toFixed(1)} (one poller per identity: ${(IDENTITIES / (INTERVAL_MS / 1000)).toFixed(1)})`,
  );
  line(
    'gateway heap per subscriber',
    `${((held.heapUsed - before.heapUsed) / SUBSCRIBERS / 1024).toFixed(1)} KiB (heap ${mb(before.heapUsed)} → ${mb(held.heapUsed)})`,
  );
  line(
    'gateway RSS per subscriber',
    `${((held.rss - before.rss) / SUBSCRIBERS / 1024).toFixed(1)} KiB (RSS ${mb(before.rss)} → ${mb(held.rss)})`,
  );
  line(
    'messages sent',
    `${MESSAGES}, ${delays.length} of ${expected} deliveries timed (send call median ${percentile(sendSorted, 50).toFixed(1)} ms)`,
  );
  line('send → delivery, median', `${percentile(sorted, 50).toFixed(0)} ms`);
  line('send → delivery, p99', `${percentile(sorted, 99).toFixed(0)} ms`);
  line('send → delivery, max', `${(sorted[sorted.length - 1] ?? NaN).toFixed(0)} ms`);
  if (delays.length < expected) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error('bench failed:', err);
  process.exit(1);
});
