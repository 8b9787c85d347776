// Live updates at the service's speed (issue 41 item 6): what the subscriptions cost the IM service
// and how fast a message reaches its subscriber, with polling alone and with the service's message
// callbacks (document 6) pushed by the emulator to the gateway's callback route. All on 127.0.0.1,
// the emulator and the gateway in this process. Prints, per mode:
//   - idle REST calls per minute per online user holding the four subscriptions of a chat app
//     (unreadCounts, conversationEvents with one peer, friendRequestReceived, friendEvents);
//   - delivery latency p50/p99, from the send's answer to the conversationEvents event;
//   - with 10% of callbacks dropped (EMULATOR_CALLBACK_FAULTS drop=10): every message delivered,
//     none twice, and the longest a message waited;
// then, at scale (BENCH_SUBSCRIBERS on BENCH_IDENTITIES, unreadCounts, clients in a child process:
// bench/subscription-clients.ts): the REST calls per second while idle, and the callbacks per
// second one replica accepts when they are POSTed as fast as it answers.
// Where the hub does not take callbacks yet (before issue 41's hub side), "callbacks" shows the
// polling figures with the route's cost added: the bench runs on either build.
//
//   npm run bench:live     BENCH_QUICK=1 (a short run); BENCH_LIVE_USERS, BENCH_LIVE_MESSAGES,
//                          BENCH_LIVE_IDLE_S, BENCH_SUBSCRIBERS, BENCH_IDENTITIES, BENCH_LIVE_BLAST_S
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { loadConfig, parseCallbackFaults } from '../src/config';
import { createEmulator, type Emulator } from '../src/emulator';
import { createGateway, type Gateway } from '../src/gateway/create-gateway';
import { parseJson } from '../src/rest/json';
import { channel } from './ipc';
import type { ClientsPlan, FromClients, ToClients } from './subscription-clients';

const QUICK = process.env.BENCH_QUICK === '1';
const env = (name: string, full: number, quick: number) => Number(process.env[name] ?? (QUICK ? quick : full));
const USERS = env('BENCH_LIVE_USERS', 20, 4);
const MESSAGES = env('BENCH_LIVE_MESSAGES', 40, 8);
const IDLE_MS = env('BENCH_LIVE_IDLE_S', 60, 10) * 1000;
const SUBSCRIBERS = env('BENCH_SUBSCRIBERS', 10_000, 500);
const IDENTITIES = env('BENCH_IDENTITIES', 1_000, 50);
const BLAST_MS = env('BENCH_LIVE_BLAST_S', 10, 3) * 1000;
/** How long a message may take to arrive before it counts as lost: beyond two slow intervals (30 s each). */
const DELIVERY_DEADLINE_MS = 70_000;
const BLAST_CONCURRENCY = 32;
/** How often the app's other users send a message while the measured ones idle. */
const BACKGROUND_MS = 2_000;
const TIME_LIMIT_MS = 1_800_000;
const SECRET = randomBytes(12).toString('hex');

type Mode = 'polling' | 'callbacks' | 'callbacks, 10% dropped';

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const line = (label: string, value: string) => console.log(`  ${label.padEnd(44)} ${value}`);

interface User {
  id: number;
  token: string;
}

/** An emulator and a gateway in front of it; with callbacks, the emulator POSTs each message to the gateway's route. */
async function world(mode: Mode | 'scale', extraEnv: Record<string, string> = {}) {
  const emulator: Emulator = createEmulator({
    adminToken: randomBytes(12).toString('hex'),
    host: '127.0.0.1',
    port: 0,
    recordCalls: 2_000_000,
  });
  const emulatorUrl = await emulator.start();
  const appId = emulator.state.options.appId;
  const pushed = mode !== 'polling';
  const config = loadConfig({
    PORT: '1',
    IM_APP_ID: appId,
    ...(pushed ? { IM_CALLBACK_SECRET: SECRET, IM_CALLBACK_RATE: '1000000', IM_CALLBACK_MAX_IN_FLIGHT: '10000' } : {}),
    ...extraEnv,
  });
  const gateway: Gateway = createGateway({ ...config, port: 0 }, { imBaseUrl: emulatorUrl });
  const gatewayUrl = await gateway.start();
  if (pushed && mode !== 'scale') {
    const faults = parseCallbackFaults(mode === 'callbacks' ? '' : 'drop=10,seed=41');
    emulator.callBack({ urls: [`${gatewayUrl}/im/callback`], secret: SECRET, faults });
  }
  async function rest<T>(path: string, body: unknown, token?: string): Promise<T> {
    const res = await fetch(`${emulatorUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', app_id: appId, ...(token ? { 'access-token': token } : {}) },
      body: JSON.stringify(body),
    });
    // Message IDs are beyond 2^53: read with every digit.
    const reply = parseJson(await res.text()) as { code: number; data: T; message: string; msg_ids?: (number | bigint)[] };
    if (reply.code !== 200) throw new Error(`${path}: ${reply.code} ${reply.message}`);
    return (path === '/message/send' ? String(reply.msg_ids![0]) : reply.data) as T;
  }
  async function newUser(name: string): Promise<User> {
    await rest('/user/register/v2', { username: name, password: 'bench-pass' });
    const grant = await rest<{ token: string; user_id: number }>('/token/user', { name, password: 'bench-pass' });
    return { id: grant.user_id, token: grant.token };
  }
  return {
    emulator,
    emulatorUrl,
    gateway,
    gatewayUrl,
    appId,
    rest,
    newUser,
    async stop() {
      await gateway.stop();
      await emulator.stop();
    },
  };
}

const SUBSCRIPTIONS = [
  ['subscription { unreadCounts { conversationId unreadCount } }', false],
  ['subscription($with: ID!) { conversationEvents(with: $with) { __typename conversationId messageId } }', true],
  ['subscription { friendRequestReceived { cursor } }', false],
  ['subscription { friendEvents { __typename id } }', false],
] as const;

/** One online user of a chat app: the four subscriptions over one WebSocket; `events` sees conversationEvents. */
function online(gatewayUrl: string, appId: string, user: User, peer: User, events: (messageId: string) => void): Client {
  const client = createClient({
    url: `${gatewayUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { app_id: appId, 'access-token': user.token },
    retryAttempts: 0,
  });
  for (const [query, withPeer] of SUBSCRIPTIONS) {
    client.subscribe<{ conversationEvents?: { messageId: string } }>(
      { query, ...(withPeer ? { variables: { with: String(peer.id) } } : {}) },
      {
        next: (result) => {
          const id = result.data?.conversationEvents?.messageId;
          if (id) events(id);
        },
        error: (err) => console.error('subscription failed:', err),
        complete: () => {},
      },
    );
  }
  return client;
}

async function runMode(mode: Mode): Promise<void> {
  const w = await world(mode);
  const users: User[] = [];
  const peers: User[] = [];
  for (let i = 0; i < USERS; i++) {
    users.push(await w.newUser(`live${i}`));
    peers.push(await w.newUser(`peer${i}`));
  }
  const arrivals = new Map<string, number[]>();
  const clients = users.map((u, i) =>
    online(w.gatewayUrl, w.appId, u, peers[i]!, (id) => {
      const list = arrivals.get(id) ?? [];
      list.push(now());
      arrivals.set(id, list);
    }),
  );
  // The app's other traffic: a replica slows its polls while callbacks arrive, and an app whose
  // users talk is called back all the time. Two users outside the measured ones exchange a message
  // every BACKGROUND_MS while the measured users idle (those sends are the bench's, not counted;
  // polling mode gets the same traffic, which concerns none of its subscribers either).
  const background = [await w.newUser('other0'), await w.newUser('other1')];
  let talking = true;
  const talk = (async () => {
    for (let n = 0; talking; n++) {
      await w.rest(
        '/message/send',
        { type: 1, targets: [background[(n + 1) % 2]!.id], content_type: 0, content: `bg${n}` },
        background[n % 2]!.token,
      );
      await sleep(BACKGROUND_MS);
    }
  })();
  // Every poller through its first rounds (their baselines) before counting.
  await sleep(5_000);
  w.emulator.resetCalls();
  const idleStart = now();
  await sleep(IDLE_MS);
  const idleCalls = w.emulator.calls.filter((c) => c.endpoint !== 'PUT /message/send').length;
  const perMinute = idleCalls / USERS / ((now() - idleStart) / 60_000);
  talking = false;
  await talk;

  // Messages one at a time from a user's peer, round robin, each timed from the send's answer.
  const sentAt = new Map<string, number>();
  for (let m = 0; m < MESSAGES; m++) {
    const i = m % USERS;
    const id = await w.rest<string>(
      '/message/send',
      { type: 1, targets: [users[i]!.id], content_type: 0, content: `m${m}` },
      peers[i]!.token,
    );
    sentAt.set(id, now());
    await sleep(mode === 'polling' ? 50 : 20);
  }
  const deadline = now() + DELIVERY_DEADLINE_MS;
  while (now() < deadline && [...sentAt.keys()].some((id) => !arrivals.has(id))) await sleep(100);
  const waits = [...sentAt].filter(([id]) => arrivals.has(id)).map(([id, at]) => arrivals.get(id)![0]! - at);
  const sorted = waits.sort((a, b) => a - b);
  const twice = [...sentAt.keys()].filter((id) => (arrivals.get(id)?.length ?? 0) > 1).length;
  const stats = w.emulator.callbacks?.stats();

  console.log(`\n${mode}`);
  line(
    'idle REST calls a minute per online user',
    `${perMinute.toFixed(1)} (${idleCalls} calls, ${USERS} users, ${(IDLE_MS / 1000).toFixed(0)} s)`,
  );
  line('delivered / sent / twice', `${waits.length} / ${MESSAGES} / ${twice}`);
  line('send answer → event, p50', `${percentile(sorted, 50).toFixed(0)} ms`);
  line('send answer → event, p99', `${percentile(sorted, 99).toFixed(0)} ms`);
  line('longest wait', `${(sorted[sorted.length - 1] ?? NaN).toFixed(0)} ms`);
  if (stats) line('callbacks sent / dropped / failed', `${stats.sent} / ${stats.dropped} / ${stats.failed}`);
  for (const c of clients) await c.dispose();
  await w.stop();
}

/** Many subscribers (a child process of clients): idle REST calls a second; then callbacks a second the route accepts. */
async function runScale(): Promise<void> {
  const w = await world('scale');
  const users: User[] = [];
  for (let i = 0; i < IDENTITIES; i++) users.push(await w.newUser(`scale${i}`));
  const sender = await w.newUser('scale-sender');
  const ask = channel<ToClients, FromClients>(fork(fileURLToPath(new URL('./subscription-clients.ts', import.meta.url))), 'clients');
  const plan: ClientsPlan = {
    gatewayUrl: w.gatewayUrl,
    emulatorUrl: w.emulatorUrl,
    appId: w.appId,
    users,
    sender,
    subscribers: SUBSCRIBERS,
    messages: 0,
    messageGapMs: 25,
    intervalMs: 2_000,
  };
  const subscribed = await ask({ type: 'plan', plan }, 'subscribed');
  await sleep(4_000);
  w.emulator.resetCalls();
  const idleStart = now();
  await sleep(Math.min(IDLE_MS, 20_000));
  const restPerSecond = w.emulator.calls.length / ((now() - idleStart) / 1000);

  // Callbacks POSTed back to back by BLAST_CONCURRENCY senders, each a new message between two identities.
  let accepted = 0;
  let refused = 0;
  let next = 10n ** 18n;
  const until = now() + BLAST_MS;
  const blaster = async () => {
    while (now() < until) {
      const from = users[Number(next % BigInt(users.length))]!;
      const to = users[Number((next + 1n) % BigInt(users.length))]!;
      const body = JSON.stringify({
        appId: w.appId,
        msgId: String((next += 1n)),
        from: { uid: String(from.id), deviceSN: 0 },
        to: { uid: String(to.id), deviceSN: 0 },
        type: 'CHAT',
        ctype: 'TEXT',
        content: 'x',
        config: '',
        attachment: '',
        ext: '',
        timestamp: String(Date.now()),
      });
      const res = await fetch(`${w.gatewayUrl}/im/callback`, { method: 'POST', headers: { signature: SECRET }, body });
      await res.arrayBuffer();
      if (res.status === 200) accepted++;
      else refused++;
    }
  };
  const blastStart = now();
  await Promise.all(Array.from({ length: BLAST_CONCURRENCY }, blaster));
  const callbacksPerSecond = accepted / ((now() - blastStart) / 1000);

  console.log(`\nscale: ${SUBSCRIBERS} subscribers (unreadCounts) on ${IDENTITIES} identities, one replica`);
  line('all subscribed in', `${(subscribed.ms / 1000).toFixed(1)} s`);
  line('idle REST calls a second', `${restPerSecond.toFixed(1)}`);
  line(
    'callbacks accepted a second',
    `${callbacksPerSecond.toFixed(0)} (${BLAST_CONCURRENCY} senders in this process; ${refused} refused)`,
  );
  await ask({ type: 'close' }, 'closed');
  await w.stop();
}

async function main() {
  const watchdog = setTimeout(() => {
    console.error(`bench: over ${TIME_LIMIT_MS / 1000} s, giving up`);
    process.exit(1);
  }, TIME_LIMIT_MS);
  console.log(
    `live bench (Node ${process.version}${QUICK ? ', quick' : ''}); load average at start ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const mode of ['polling', 'callbacks', 'callbacks, 10% dropped'] as const) await runMode(mode);
  await runScale();
  console.log(
    `\nload average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  clearTimeout(watchdog);
}

main().catch((err: unknown) => {
  console.error('bench failed:', err);
  process.exit(1);
});
