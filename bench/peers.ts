// The gateway raced side by side against Tailcall (a Rust GraphQL gateway) and the raw REST call,
// over the same emulator, on 127.0.0.1 only. Three queries: `me` (1 REST call), a 20-member group's
// members with each member's nickName (1 + 20 calls; the gateway adds 1, the read that says the
// group exists, as `group(id:)` answers null for a missing group), and the names of the 50 groups
// the user joined (the gateway batches them into 2 calls; Tailcall, which batches GETs by a query
// parameter only, makes 1 + 50). The peers alternate within one run (ROUNDS rounds of every case
// and peer), so that a change in the machine's load touches them all alike.
//
// Every figure comes from outside the peer: wrk (Debian's `wrk`, `apt-get install -y wrk`) makes
// the load and measures req/s and latency; the peer's CPU is read from /proc/<pid>/stat (all its
// threads) around the measured window; the emulator counts the REST calls it receives. The gateway
// runs as production does (the bundle, metrics on; see bench-processes.ts), in a child process
// with IM_BASE_URL set.
// Tailcall comes from @tailcallhq/core-linux-x64-gnu, which the bench installs on first use into
// ~/.cache/im-gateway/tailcall (config: bench/tailcall/peers.graphql); where it cannot (not Linux
// x64, no registry), the bench races the gateway against raw REST alone.
// Tailcall's usage tracking and update check are turned off (TAILCALL_TRACKER=false, a fresh
// update-check stamp in a private cache directory): it sends nothing beyond 127.0.0.1.
//
//   npm run bench:peers      (BENCH_ROUNDS, BENCH_MEASURE_S, BENCH_WARMUP_S, BENCH_START_WARMUP_S, BENCH_CONCURRENCY,
//                             BENCH_PEERS=gateway,tailcall,rest,node,jit,yoga, BENCH_ACCEPT_ENCODING=gzip|br,
//                             BENCH_FRESH=1, BENCH_TOGETHER=1 (below);
//                             gateway env vars pass through, COMPRESSION among them)
//
// BENCH_BASELINE=<another checkout> races that checkout's gateway too, as the peer `baseline`, in
// the same alternating windows: a change measured against the commit before it while the
// machine's load drifts alike for both (git worktree add ../base HEAD~1; its node_modules
// installed or linked). BENCH_BASELINE_ENV="METRICS=false COMPRESSION=false" gives the baseline
// settings of its own (BENCH_BASELINE=. races this checkout against itself so set).
//
// The `me` case also runs three floors (bench/floors.ts): `node`, node:http answering constant
// JSON; `jit`, the query compiled by graphql-jit behind it with no framework; `yoga`, graphql-yoga
// with its defaults and one constant resolver. No Node gateway answers faster than the first, nor
// one without a framework much faster than the second: what a target against Tailcall can ask of
// the gateway reads off them.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/helpers/free-port';
import { benchWorkspace, cpuMs, startBenchEmulator, startFloor, startGatewayProcess, started } from './bench-processes';
import { cases, historyCase, type PeerName, requestsOf } from './peers-cases';
import type { ToEmulator } from './query-emulator';
import { printTable } from './print-table';
import { requireWrk, wrk, wrkScript } from './wrk';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ROUNDS = env('BENCH_ROUNDS', 2);
const MEASURE_S = env('BENCH_MEASURE_S', 5);
const WARMUP_S = env('BENCH_WARMUP_S', 2);
/**
 * A process's first window (after it started, or a BENCH_FRESH restart) warms up this long instead:
 * a Node process answers at its steady rate only after some seconds of load (its JIT's tiers, its
 * heap's sizes), where Tailcall needs none. Measured 2026-12-07 on Node 24, fresh processes each
 * round: the gateway's first case 1,790-1,900 req/s after 2 s, 2,480-3,500 after 6 s (0.39× of
 * Tailcall against 0.65×).
 */
const START_WARMUP_S = env('BENCH_START_WARMUP_S', 8);
const CONCURRENCY = env('BENCH_CONCURRENCY', 32);
const PEERS = (process.env.BENCH_PEERS ?? 'gateway,tailcall,rest,node,jit,yoga').split(',');
const BASELINE = process.env.BENCH_BASELINE;
/**
 * BENCH_FRESH=1: each round after the first starts the gateway builds afresh. A process's JIT
 * settles differently from one start to the next: two processes of the same build, raced for a
 * whole run, differed by up to 0.63× and 1.19× (2026-12-07), so a race of two builds measures
 * each in several processes (bench:compare sets it).
 */
const FRESH = process.env.BENCH_FRESH === '1';
/**
 * BENCH_TOGETHER=1: a case's peers are loaded at the same time (each by its own wrk, with
 * BENCH_CONCURRENCY connections), in one window, instead of one after another: two builds then
 * share every moment of the machine's load, where windows in turn meet whatever load each moment
 * brings. Each peer's CPU per request is its own process's; the REST calls are the window's,
 * shared by requests. For builds of the gateway (one thread each) only: a peer with threads of its
 * own (Tailcall) takes the other's core, and a case only one peer runs is compared with a row that
 * ran beside another (2026-12-07: the gateway 0.32× of Tailcall so, 0.46× in turn).
 */
const TOGETHER = process.env.BENCH_TOGETHER === '1';
const BASELINE_ENV = Object.fromEntries(
  (process.env.BENCH_BASELINE_ENV ?? '')
    .split(' ')
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
/** Sent by every request (`gzip`, `br`): what compression costs; unset, no coding is asked for. */
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING;
// A bound on the whole run (a wrk or a start that hangs): ten minutes, more for many rounds.
const TIME_LIMIT_MS = Math.max(600_000, ROUNDS * 180_000);
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

interface Peer {
  name: PeerName | 'baseline';
  /** Whose requests and checks the peer takes (the baseline: the gateway's). */
  asks: PeerName;
  origin: string;
  /** The process whose CPU is the peer's (for raw REST: the emulator's). */
  pid: number;
  /** A gateway build's: stops its process and starts another (BENCH_FRESH), origin and pid updated. */
  restart?: () => Promise<void>;
  /** False once the process has had a window; until then (unset at start, true after a restart) it warms up START_WARMUP_S. */
  fresh?: boolean;
}

/** The Tailcall release raced (its npm package holds the binary for Linux x64 only). */
const TAILCALL_PACKAGE = '@tailcallhq/core-linux-x64-gnu@1.0.0';

/**
 * Tailcall's binary, installed on first use into a cache outside the repository (as .ci/run keeps
 * Node 24): 23 MB that only this bench needs, so it is not in the project's dependencies.
 */
function tailcallBinary(): string | undefined {
  const dir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'im-gateway', 'tailcall');
  const bin = join(dir, 'node_modules', '@tailcallhq', 'core-linux-x64-gnu', 'bin', 'tailcall');
  if (!existsSync(bin) && process.platform === 'linux' && process.arch === 'x64') {
    console.log(`bench: installing ${TAILCALL_PACKAGE} into ${dir}`);
    spawnSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', TAILCALL_PACKAGE], { stdio: 'inherit' });
  }
  return existsSync(bin) ? bin : undefined;
}

interface Row {
  caseLabel: string;
  peer: Peer['name'];
  requests: number;
  seconds: number;
  cpuMs: number;
  calls: number;
  p50: number[];
  p99: number[];
  /** REST calls of one query, checked alone. */
  oneQueryCalls: number;
  /** REST calls in the measured windows by endpoint. */
  byEndpoint: Record<string, number>;
  /** Each round's window alone: req/s and CPU ms per request. */
  windows: { rate: number; cpu: number }[];
}

/** The median; of an even count, the mean of the middle two (not the upper one: 6 rounds would lean high). */
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main() {
  const watchdog = setTimeout(() => {
    console.error(`bench: over ${TIME_LIMIT_MS / 1000} s, giving up`);
    process.exit(1);
  }, TIME_LIMIT_MS);
  try {
    await requireWrk();
  } catch (err) {
    console.error(`bench: ${(err as Error).message}`);
    process.exit(1);
  }
  const { children, scratch, cleanup } = benchWorkspace('peers');

  const { process: emulatorProcess, ask: emulator, setup } = await startBenchEmulator(children);
  const peers: Peer[] = [];
  if (PEERS.includes('rest')) peers.push({ name: 'rest', asks: 'rest', origin: setup.url, pid: emulatorProcess.pid! });

  /** A gateway build as a peer, with what restarts it. */
  const gatewayPeer = async (name: 'gateway' | 'baseline', start: () => ReturnType<typeof startGatewayProcess>): Promise<Peer> => {
    let running = await start();
    const peer: Peer = { name, asks: 'gateway', origin: running.origin, pid: running.process.pid! };
    peer.restart = async () => {
      const exited = new Promise((resolve) => running.process.once('exit', resolve));
      running.process.kill();
      await exited;
      running = await start();
      Object.assign(peer, { origin: running.origin, pid: running.process.pid!, fresh: true });
    };
    return peer;
  };
  if (PEERS.includes('gateway')) peers.push(await gatewayPeer('gateway', () => startGatewayProcess(children, setup)));
  if (BASELINE) peers.push(await gatewayPeer('baseline', () => startGatewayProcess(children, setup, [], BASELINE_ENV, BASELINE)));

  for (const floor of ['node', 'jit', 'yoga'] as const) {
    if (!PEERS.includes(floor)) continue;
    const floorPeer = await startFloor(children, floor);
    peers.push({ name: floor, asks: floor, origin: floorPeer.origin, pid: floorPeer.process.pid! });
  }

  const binary = tailcallBinary();
  if (PEERS.includes('tailcall') && !binary) console.warn(`bench: ${TAILCALL_PACKAGE} could not be installed: racing without Tailcall`);
  if (PEERS.includes('tailcall') && binary) {
    const port = await freePort();
    const config = readFileSync(here('./tailcall/peers.graphql'), 'utf8').replace(/port: \d+/, `port: ${port}`);
    writeFileSync(join(scratch, 'peers.graphql'), config);
    writeFileSync(join(scratch, 'peers.js'), readFileSync(here('./tailcall/peers.js')));
    // A fresh stamp: Tailcall then skips its daily update check (a call to GitHub).
    const cache = join(scratch, 'cache');
    mkdirSync(join(cache, 'tailcall'), { recursive: true });
    writeFileSync(join(cache, 'tailcall', '.state'), String(Math.floor(Date.now() / 1000)));
    const tailcall = spawn(binary, ['start', 'peers.graphql'], {
      cwd: scratch,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: scratch,
        XDG_CACHE_HOME: cache,
        TAILCALL_TRACKER: 'false',
        TC_TRACKER: 'false',
        TAILCALL_LOG_LEVEL: 'warn',
        IM_URL: setup.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(tailcall);
    const ready = started(tailcall, 'tailcall', /listening|started|running/i);
    // Tailcall at `warn` prints nothing when it starts: poll the port instead.
    const polled = (async () => {
      for (let i = 0; i < 100; i++) {
        if (
          await fetch(`http://127.0.0.1:${port}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"query":"{__typename}"}',
          }).then(
            () => true,
            () => false,
          )
        )
          return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('tailcall did not answer within 10 s');
    })();
    await Promise.race([ready, polled]);
    peers.push({ name: 'tailcall', asks: 'tailcall', origin: `http://127.0.0.1:${port}`, pid: tailcall.pid! });
  }

  const identity = {
    app_id: setup.appId,
    'access-token': setup.adminToken,
    user_id: String(setup.ownerId),
    // The gateway codes answers of 1 KiB or more when asked (COMPRESSION=false: never).
    ...(ACCEPT_ENCODING ? { 'accept-encoding': ACCEPT_ENCODING } : {}),
  };
  const rows = new Map<string, Row>();
  // BENCH_CASES=1,3 runs those cases only (numbered from 1, in the order of the table).
  const chosen = (process.env.BENCH_CASES ?? '').split(',').filter(Boolean).map(Number);
  const all = [...cases(setup), historyCase(setup)].filter((_c, i) => chosen.length === 0 || chosen.includes(i + 1));

  // Each query alone first: its answer checked, its REST calls counted (a rotation: every request
  // of it once, the calls averaged).
  for (const c of all) {
    for (const peer of peers) {
      const entry = c.requests[peer.asks];
      if (!entry) continue;
      const list = requestsOf(entry);
      await emulator({ type: 'mark' }, 'marked');
      for (const request of list) {
        const res = await fetch(peer.origin + request.path, {
          method: request.method,
          headers: request.headers ?? { ...identity, ...(request.body ? { 'content-type': 'application/json' } : {}) },
          ...(request.body ? { body: request.body } : {}),
        });
        const body = await res.text();
        const wrong = res.status === 200 ? c.check(peer.asks, body) : `HTTP ${res.status}: ${body.slice(0, 200)}`;
        if (wrong) throw new Error(`${peer.name}, ${c.label}: ${wrong}`);
      }
      const mark = await emulator({ type: 'mark' }, 'marked');
      rows.set(`${c.label}|${peer.name}`, {
        caseLabel: c.label,
        peer: peer.name,
        requests: 0,
        seconds: 0,
        cpuMs: 0,
        calls: 0,
        p50: [],
        p99: [],
        oneQueryCalls: mark.calls / list.length,
        byEndpoint: {},
        windows: [],
      });
    }
  }

  /** Waits until the queries the warm-up left in flight have made their calls (at most 5 s). */
  async function drained() {
    for (let i = 0; i < 25; i++) {
      await new Promise((r) => setTimeout(r, 200));
      if ((await emulator({ type: 'mark' }, 'marked')).calls === 0) return;
    }
  }

  const began = performance.now();
  for (let round = 1; round <= ROUNDS; round++) {
    if (FRESH && round > 1) for (const peer of peers) await peer.restart?.();
    for (const c of all) {
      // Alternate the order too: no peer always goes first after another one's load.
      const order = (round % 2 === 1 ? peers : [...peers].reverse()).filter((peer) => c.requests[peer.asks]);
      // TOGETHER: the case's peers loaded at the same time, one window for all; else one after another.
      for (const group of TOGETHER ? [order] : order.map((peer) => [peer])) {
        const loads = group.map((peer) => {
          const list = requestsOf(c.requests[peer.asks]!);
          const [request] = list;
          const headers = { ...identity, ...(request!.body ? { 'content-type': 'application/json' } : {}) };
          return { peer, path: request!.path, script: wrkScript(scratch, list, headers, new URL(peer.origin).host) };
        });
        const warmUp = group.some((peer) => peer.fresh !== false) ? START_WARMUP_S : WARMUP_S;
        await Promise.all(loads.map((l) => wrk(l.peer.origin, l.path, l.script, warmUp, CONCURRENCY)));
        for (const peer of group) peer.fresh = false;
        await drained();
        const cpuBefore = loads.map((l) => cpuMs(l.peer.pid));
        const results = await Promise.all(loads.map((l) => wrk(l.peer.origin, l.path, l.script, MEASURE_S, CONCURRENCY)));
        const cpus = loads.map((l, i) => cpuMs(l.peer.pid) - cpuBefore[i]!);
        // The emulator counts calls, not whose they are: a window of several peers shares its count by requests.
        const mark = await emulator({ type: 'mark' }, 'marked');
        const requests = results.reduce((sum, r) => sum + r.requests, 0);
        loads.forEach(({ peer }, i) => {
          const result = results[i]!;
          const cpu = cpus[i]!;
          const share = result.requests / requests;
          if (result.bad > 0) throw new Error(`${peer.name}, ${c.label}: ${result.bad} failed requests`);
          const row = rows.get(`${c.label}|${peer.name}`)!;
          row.requests += result.requests;
          row.seconds += result.seconds;
          row.cpuMs += cpu;
          row.calls += mark.calls * share;
          for (const [endpoint, n] of Object.entries(mark.byEndpoint))
            row.byEndpoint[endpoint] = (row.byEndpoint[endpoint] ?? 0) + n * share;
          row.windows.push({ rate: result.requests / result.seconds, cpu: cpu / result.requests });
          row.p50.push(result.p50);
          row.p99.push(result.p99);
          process.stderr.write(`round ${round}: ${peer.name.padEnd(8)} ${c.label}: ${Math.round(result.perSecond)} req/s\n`);
        });
      }
    }
  }
  clearTimeout(watchdog);

  const fmt = (n: number, digits = 2) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  console.log(
    `\npeers bench (Node ${process.version}, wrk -t1 -c${CONCURRENCY}, ${ROUNDS} rounds × ${MEASURE_S} s measured per case and peer after ${WARMUP_S} s warm-up, ${START_WARMUP_S} s in a process's first window)\n`,
  );
  const header = ['case', 'peer', 'req/s', 'p50', 'p99', 'CPU ms/req', 'REST calls/request (each alone, first pass)'];
  const table = [header];
  for (const row of rows.values()) {
    const cpuLabel = row.peer === 'rest' ? `${fmt(row.cpuMs / row.requests, 3)} (emulator)` : fmt(row.cpuMs / row.requests, 3);
    table.push([
      row.caseLabel,
      row.peer,
      fmt(row.requests / row.seconds, 0),
      `${fmt(median(row.p50))} ms`,
      `${fmt(median(row.p99))} ms`,
      cpuLabel,
      `${fmt(row.calls / row.requests)} (${fmt(row.oneQueryCalls, 1)})`,
    ]);
  }
  printTable(table);

  console.log('\nREST calls per request by endpoint (measured windows):');
  for (const row of rows.values()) {
    const parts = Object.entries(row.byEndpoint).map(([endpoint, n]) => `${endpoint} ${fmt(n / row.requests)}`);
    console.log(`  ${row.caseLabel} | ${row.peer}: ${parts.join(', ')}`);
  }

  console.log('\nRatios (gateway against each peer; req/s: higher is better for the gateway, CPU: lower):');
  for (const c of all) {
    const gw = rows.get(`${c.label}|gateway`);
    if (!gw) continue;
    for (const other of ['baseline', 'tailcall', 'rest', 'node', 'jit', 'yoga'] as const) {
      const o =
        rows.get(`${c.label}|${other}`) ?? (other === 'tailcall' && c.comparedWith ? rows.get(`${c.comparedWith}|${other}`) : undefined);
      if (!o) continue;
      const against = o.caseLabel === c.label ? other : `${other} (its row of "${o.caseLabel}")`;
      if (gw.windows.length >= 3 && o.windows.length === gw.windows.length) {
        // Each round's windows of the two ran close together on the same machine, so their ratio is
        // taken round by round and the median kept (a window or a process disturbed by something
        // else moves one round, not the figure).
        const paired = (pick: (w: Row['windows'][number]) => number) =>
          gw.windows.map((w, i) => pick(w) / pick(o.windows[i]!)).sort((a, b) => a - b);
        const rates = paired((w) => w.rate);
        const cpus = paired((w) => w.cpu);
        console.log(
          `  ${c.label}: gateway/${against} req/s ${fmt(median(rates))}×, CPU per request ${fmt(median(cpus))}× ` +
            `(median of ${rates.length} paired rounds; req/s ${fmt(rates[0]!)}-${fmt(rates.at(-1)!)}×)`,
        );
        continue;
      }
      const rate = gw.requests / gw.seconds / (o.requests / o.seconds);
      const cpu = gw.cpuMs / gw.requests / (o.cpuMs / o.requests);
      console.log(`  ${c.label}: gateway/${against} req/s ${fmt(rate)}×, CPU per request ${fmt(cpu)}×`);
    }
  }
  console.log(`\nmeasured ${((performance.now() - began) / 1000).toFixed(0)} s`);
  emulatorProcess.send({ type: 'stop' } satisfies ToEmulator);
  cleanup();
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error('bench failed:', err);
  process.exit(1);
});
