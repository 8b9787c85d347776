// What a user waits for when the IM service is far away (issue 34): every example screen and the
// main mutations through the gateway, with our delay proxy (bench/latency-proxy.ts) between the
// gateway and the emulator. Per operation: the REST calls it makes, its depth (the longest chain
// of calls one after another, read off the proxy's log at concurrency 1) beside the minimal depth
// its data allows (test/helpers/screen-depths.ts, with the reason for each; bench/latency-depths.ts for the rest), and p50/p95 at each RTT,
// warm and cold, for 1 and 8 concurrent clients (distinct users). "Cold": the gateway's 5 s
// caches expired, by moving its wall clock on (bench/latency-gateway.ts) rather than waiting.
// Each RTT gets a fresh gateway process: its first request after /ready answered 200 is timed
// against the same screen warm (what warm start, issue 34 item 2, is about).
//
//   npm run bench:latency   (BENCH_RTTS=0,40,150; BENCH_SAMPLES=7 per cell at concurrency 1;
//                            BENCH_ROUNDS=2 rounds of 8 concurrent clients; BENCH_CONNECT_RTTS=2:
//                            a new connection costs this many RTTs, TCP and TLS;
//                            BENCH_OPS=ChatHome,GroupScreen to run some operations only;
//                            BENCH_QUICK=1: RTT 150 only, 3 samples, 1 round)
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createEmulator } from '../src/emulator';
import { freePort } from '../test/helpers/free-port';
import { minimalDepthOf } from './latency-depths';
import { depthOf, type ProxiedCall, startLatencyProxy } from './latency-proxy';
import { CLIENTS, type Operation, operations, type Request, seedWorld, type World } from './latency-screens';
import { printTable } from './print-table';

const QUICK = process.env.BENCH_QUICK === '1';
const numbers = (value: string) => value.split(',').map(Number);
const RTTS = numbers(process.env.BENCH_RTTS ?? (QUICK ? '150' : '0,40,150'));
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? (QUICK ? 3 : 7));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 1 : 2));
const CONNECT_RTTS = Number(process.env.BENCH_CONNECT_RTTS ?? 2);
const ONLY = process.env.BENCH_OPS?.split(',');
const TRACE = process.env.BENCH_TRACE === '1';
/** Moves the gateway's clock past the 5 s of its caches. */
const EXPIRE_MS = 6_000;

const chosen = ONLY ? operations.filter((op) => ONLY.includes(op.name)) : operations;

interface Gateway {
  child: ChildProcess;
  origin: string;
  skew(ms: number): Promise<void>;
  stop(): void;
}

async function startGateway(imBaseUrl: string, world: World): Promise<Gateway> {
  const port = await freePort();
  const child = fork(fileURLToPath(new URL('./latency-gateway.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      PORT: String(port),
      IM_BASE_URL: imBaseUrl,
      IM_APP_ID: world.appId,
      IM_ADMIN_TOKEN: world.adminToken,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      // LogIn runs dozens of times as one user from one address: the sign-in limits would refuse it.
      SIGN_IN_LIMIT_ADDRESS: 'off',
      SIGN_IN_LIMIT_NAME: 'off',
    },
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  const origin = `http://127.0.0.1:${port}`;
  let exited = false;
  child.once('exit', () => (exited = true));
  // Ready as a load balancer sees it: /ready answers 200.
  const ready = async () => {
    for (;;) {
      if (exited) throw new Error('the gateway exited before it was ready');
      const status = await fetch(`${origin}/ready`).then(
        (res) => res.status,
        () => 0,
      );
      if (status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  await ready().catch((err: unknown) => {
    throw new Error(`${String(err)}:\n${output}`);
  });
  let skewed = 0;
  return {
    child,
    origin,
    skew: (ms) =>
      new Promise<void>((resolve) => {
        skewed += ms;
        child.once('message', () => resolve());
        child.send({ skewMs: skewed });
      }),
    stop: () => void child.kill(),
  };
}

async function send(origin: string, appId: string, req: Request): Promise<number> {
  const began = performance.now();
  const res = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', app_id: appId, ...req.headers },
    body: JSON.stringify({ documentId: req.documentId, variables: req.variables }),
  });
  const reply = (await res.json()) as { data?: Record<string, { userErrors?: unknown[] } | null> | null; errors?: unknown[] };
  const ms = performance.now() - began;
  // A sample that failed measures nothing: the bench stops with what went wrong.
  const refused = reply.errors ?? Object.values(reply.data ?? {}).find((payload) => payload?.userErrors?.length)?.userErrors;
  if (!reply.data || refused?.length) throw new Error(`${res.status}: ${JSON.stringify(refused ?? reply).slice(0, 400)}`);
  return ms;
}

/** Prints one sample's calls on a time line (BENCH_TRACE=1): what the minimal depths were read from. */
function traceOf(what: string, calls: readonly ProxiedCall[]): void {
  const t0 = Math.min(...calls.map((c) => c.start));
  console.log(`  ${what}: depth ${depthOf(calls)}`);
  for (const c of [...calls].sort((a, b) => a.start - b.start)) {
    console.log(
      `    ${fmt(c.start - t0).padStart(5)} → ${fmt(c.end - t0).padStart(5)}  ${c.method} ${c.path}${c.newConnection ? ' (new connection)' : ''}`,
    );
  }
}

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
};
const median = (values: readonly number[]) => quantile(values, 0.5);

interface Cell {
  ms: number[];
  /** Concurrency 1 only: REST calls and depth per sample. */
  calls: number[];
  depths: number[];
}

/** Samples of one operation, one mode (warm or cold), one concurrency. */
async function measure(gateway: Gateway, world: World, proxyCalls: ProxiedCall[], op: Operation, cold: boolean, concurrency: number) {
  const cell: Cell = { ms: [], calls: [], depths: [] };
  const clients = Array.from({ length: concurrency }, (_, k) => k);
  const once = async () => {
    if (cold) await gateway.skew(EXPIRE_MS);
    proxyCalls.length = 0;
    const ms = await Promise.all(clients.map((k) => send(gateway.origin, world.appId, op.request(world, k))));
    cell.ms.push(...ms);
    if (concurrency === 1) {
      cell.calls.push(proxyCalls.length);
      cell.depths.push(depthOf(proxyCalls));
      if (TRACE) traceOf(`${op.name} ${cold ? 'cold' : 'warm'}`, proxyCalls);
    }
    if (op.after) await Promise.all(clients.map((k) => op.after!(world, k)));
  };
  // Warm: each client has made the request once (and the gateway's caches hold its reads).
  if (!cold) {
    await Promise.all(clients.map((k) => send(gateway.origin, world.appId, op.request(world, k))));
    if (op.after) await Promise.all(clients.map((k) => op.after!(world, k)));
  }
  const times = concurrency === 1 ? SAMPLES : ROUNDS;
  for (let i = 0; i < times; i++) await once();
  return cell;
}

const fmt = (ms: number) => (Number.isNaN(ms) ? '-' : ms < 10 ? ms.toFixed(1) : ms.toFixed(0));
const spread = (cell: Cell) => `${fmt(median(cell.ms))}/${fmt(quantile(cell.ms, 0.95))}`;
const modal = (values: readonly number[]) => (values.length ? String(median(values)) : '-');

async function main(): Promise<void> {
  const adminToken = `bench-${Date.now().toString(36)}`;
  const emulator = createEmulator({ adminToken, host: '127.0.0.1', port: 0 });
  const emulatorUrl = await emulator.start();
  const appId = emulator.state.options.appId;
  const world = await seedWorld(emulatorUrl, appId, adminToken);
  const proxy = await startLatencyProxy(emulatorUrl, { rtt: 0, connectMs: 0 });
  console.log(
    `bench:latency: ${chosen.length} operations, RTT ${RTTS.join('/')} ms (a new connection: +${CONNECT_RTTS} RTT), ` +
      `${SAMPLES} samples at concurrency 1, ${ROUNDS} rounds of ${CLIENTS} clients at concurrency ${CLIENTS}; p50/p95 in ms`,
  );
  const firsts: string[][] = [['RTT', 'first request', 'warm p50', 'difference']];
  try {
    for (const rtt of RTTS) {
      // The distance from the start: warm start's connections pay their set-up too.
      proxy.rtt = rtt;
      proxy.connectMs = CONNECT_RTTS * rtt;
      const gateway = await startGateway(proxy.url, world);
      // Over a real network warm start's connect() resolves after the handshakes, so /ready comes
      // after them; on the loopback it resolves at once and the proxy charges the set-up on first
      // use instead. Waiting it out here times the first request as it would be over the network.
      await new Promise((resolve) => setTimeout(resolve, proxy.connectMs));
      try {
        // The first request after start: the home screen, as an app opens on it.
        const home = operations.find((op) => op.name === 'ChatHome')!;
        const seen = proxy.calls.length;
        const first = await send(gateway.origin, appId, home.request(world, 0));
        if (TRACE) traceOf('ChatHome, the first request after start', proxy.calls.slice(seen));
        // Global IDs of the home rows (Refetch conversation), once.
        if (!world.viewers[0]!.conversationGlobalId) await globalIds(gateway, world);
        const table: string[][] = [
          ['operation', 'calls w/c', 'depth w/c', 'min w/c', 'warm c1', 'cold c1', `warm c${CLIENTS}`, `cold c${CLIENTS}`],
        ];
        let homeWarm = NaN;
        for (const op of chosen) {
          const warm1 = await measure(gateway, world, proxy.calls, op, false, 1);
          const cold1 = await measure(gateway, world, proxy.calls, op, true, 1);
          const warm8 = await measure(gateway, world, proxy.calls, op, false, CLIENTS);
          const cold8 = await measure(gateway, world, proxy.calls, op, true, CLIENTS);
          if (op === home) homeWarm = median(warm1.ms);
          const min = minimalDepthOf(op.name);
          table.push([
            op.name,
            `${modal(warm1.calls)}/${modal(cold1.calls)}`,
            rtt === 0 ? '-' : `${modal(warm1.depths)}/${modal(cold1.depths)}`,
            min === undefined ? '?' : `${min.warm}/${min.cold}`,
            spread(warm1),
            spread(cold1),
            spread(warm8),
            spread(cold8),
          ]);
        }
        console.log(`\nRTT ${rtt} ms (depth at RTT 0 is not told apart: '-')`);
        printTable(table);
        firsts.push([String(rtt), fmt(first), fmt(homeWarm), fmt(first - homeWarm)]);
      } finally {
        gateway.stop();
      }
    }
    console.log('\nFirst request after /ready (ChatHome, a fresh gateway) against the same screen warm, ms');
    printTable(firsts);
  } finally {
    await proxy.close();
    await emulator.stop();
  }
}

/** Each viewer's global ID of a conversation on its home list (the first row), read through the gateway. */
async function globalIds(gateway: Gateway, world: World): Promise<void> {
  for (const viewer of world.viewers) {
    const res = await fetch(`${gateway.origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', app_id: world.appId, 'access-token': viewer.token, 'x-id-format': 'global' },
      body: JSON.stringify({ query: '{ me { conversations(first: 1) { edges { node { id } } } } }' }),
    });
    const reply = (await res.json()) as { data?: { me: { conversations: { edges: { node: { id: string } }[] } } } };
    const id = reply.data?.me.conversations.edges[0]?.node.id;
    if (!id) throw new Error(`no home row: ${JSON.stringify(reply).slice(0, 300)}`);
    viewer.conversationGlobalId = id;
  }
}

await main();
