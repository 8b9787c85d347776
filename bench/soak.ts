// Soak: is the gateway's memory flat under steady load (issue 14: "memory flat over a 60 s run")?
// The seeded emulator and the gateway (as production runs it: the bundle, metrics on) in child
// processes, as in bench/peers.ts (BENCH_GATEWAY_SOURCE, BENCH_GATEWAY_NODE_ARGS as there); wrk
// sends the peers bench's three queries and a mutation (setNickname), in turn on each connection,
// for BENCH_SOAK_SECONDS. Meanwhile the gateway's heap is read from its /metrics, on the metrics
// port of its own as in production (prom-client's
// nodejs_heap_size_used_bytes, and the old space alone) every second, and its RSS from
// /proc/<pid>/status; every BENCH_SOAK_SAMPLE_S one row is printed (with the heap V8 holds and the
// memory outside it, where RSS goes, as read last).
//
// Heap used saw-tooths by tens of MB between scavenges whatever the load, so each row's heap figure
// is the lowest of the window's one-second readings (the nearest to what survives a GC), and the
// slope is the least-squares slope of those over the last two thirds of the run (the first third
// is warm-up: code compiled, caches and pools filled), also given per request, the figure a leak
// would show as. The old space still saw-tooths between full GCs, though, so the gateway runs with
// --trace-gc and the heap left after each full GC (Mark-Compact) gets a slope too: the verdict
// judges that one when the last two thirds hold at least 3 full GCs (else the window minima),
// "flat" below BENCH_SOAK_FLAT_MB_PER_MIN.
//
//   npm run bench:soak     (BENCH_SOAK_SECONDS, default 60; BENCH_SOAK_SAMPLE_S, default 5;
//                           BENCH_SOAK_FLAT_MB_PER_MIN, default 5; BENCH_CONCURRENCY, default 32;
//                           gateway env vars pass through)
import { loadavg } from 'node:os';
import { benchWorkspace, rssBytes, startBenchEmulator, startGatewayProcess } from './bench-processes';
import { cases, graphql } from './peers-cases';
import { printTable } from './print-table';
import type { ToEmulator } from './query-emulator';
import { requireWrk, type Request, wrk, wrkScript } from './wrk';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = env('BENCH_SOAK_SECONDS', 60);
const SAMPLE_S = env('BENCH_SOAK_SAMPLE_S', 5);
const FLAT_MB_PER_MIN = env('BENCH_SOAK_FLAT_MB_PER_MIN', 5);
const CONCURRENCY = env('BENCH_CONCURRENCY', 32);
const MB = 1024 * 1024;
// Rows in the last two thirds needed for a verdict (a 60 s run sampled every 5 s has 9).
const MIN_ROWS = 6;
const later = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Reading {
  /** Seconds since the load started. */
  t: number;
  rss: number;
  heapUsed: number;
  oldSpace: number;
  /** The heap V8 holds (used or not), and memory outside it (Buffers, ArrayBuffers): where RSS goes. */
  heapTotal: number;
  external: number;
}

/** The gateway's heap figures from its /metrics. */
async function heap(origin: string): Promise<Omit<Reading, 't' | 'rss'>> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const value = (re: RegExp) => {
    const found = re.exec(text)?.[1];
    if (found === undefined) throw new Error(`no ${String(re)} in /metrics (is METRICS off?)`);
    return Number(found);
  };
  return {
    heapUsed: value(/^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\S+)/m),
    oldSpace: value(/^nodejs_heap_space_size_used_bytes\{[^}]*space="old"[^}]*\} (\S+)/m),
    heapTotal: value(/^nodejs_heap_size_total_bytes(?:\{[^}]*\})? (\S+)/m),
    external: value(/^nodejs_external_memory_bytes(?:\{[^}]*\})? (\S+)/m),
  };
}

/** Least-squares slope of y over t, per second. */
function slope(points: readonly { t: number; y: number }[]): number {
  const n = points.length;
  const mt = points.reduce((s, p) => s + p.t, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.t - mt) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.t - mt) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

async function main() {
  await requireWrk();
  const { children, scratch, cleanup } = benchWorkspace('soak');

  const emulator = await startBenchEmulator(children);
  const { setup } = emulator;
  const gateway = await startGatewayProcess(children, setup, ['--trace-gc']);
  const pid = gateway.process.pid!;
  // "[pid:0xisolate]  12345 ms: Mark-Compact 120.5 (150.2) -> 80.3 (140.1) MB, ...": the heap after a
  // full GC. tsx's loader thread has an isolate (and GC lines) of its own: the main isolate is the
  // one collecting most often under load.
  const afterFullGc: { isolate: string; t: number; y: number }[] = [];
  const gcLines = new Map<string, number>();
  let began = performance.now();
  let partial = '';
  gateway.process.stdout?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const gc = /^\[\d+:(0x[0-9a-f]+)\]\s+\d+ ms: (\S+)(?: \(\w+\))? ([\d.]+) \([\d.]+\) -> ([\d.]+) \(/.exec(line);
      if (!gc) continue;
      const [, isolate = '', kind, , after] = gc;
      gcLines.set(isolate, (gcLines.get(isolate) ?? 0) + 1);
      if (kind === 'Mark-Compact') afterFullGc.push({ isolate, t: (performance.now() - began) / 1000, y: Number(after) * MB });
    }
  });
  const identity = { app_id: setup.appId, 'access-token': setup.adminToken, user_id: String(setup.ownerId) };
  const headers = { ...identity, 'content-type': 'application/json' };

  // The mix, each request checked once alone first (a soak of error answers would prove nothing).
  const mutation = graphql('mutation { setNickname(input: { nickName: "soak" }) { ok } }');
  const checked: { request: Request; check: (body: string) => string | undefined }[] = [
    // The cases of one request (the varied ones carry identities of their own).
    ...cases(setup).flatMap((c) =>
      c.requests.gateway && !Array.isArray(c.requests.gateway)
        ? [{ request: c.requests.gateway, check: (body: string) => c.check('gateway', body) }]
        : [],
    ),
    { request: mutation, check: (body: string) => (body.includes('"ok":true') ? undefined : body.slice(0, 300)) },
  ];
  for (const { request, check } of checked) {
    const res = await fetch(gateway.origin + request.path, { method: request.method, headers, body: request.body ?? null });
    const body = await res.text();
    const wrong = res.status === 200 ? check(body) : `HTTP ${res.status}: ${body.slice(0, 200)}`;
    if (wrong) throw new Error(`soak: ${request.body ?? request.path}: ${wrong}`);
  }

  const script = wrkScript(
    scratch,
    checked.map((c) => c.request),
    headers,
  );
  const idle = { t: 0, rss: rssBytes(pid), ...(await heap(gateway.metricsOrigin)) };
  const loadBefore = loadavg();
  afterFullGc.length = 0;
  gcLines.clear();
  began = performance.now();
  const load = wrk(gateway.origin, '/graphql', script, SECONDS, CONCURRENCY);
  let done = false;
  void load.finally(() => (done = true)).catch(() => undefined);

  // One reading a second; a row per window, holding the window's lowest heap readings.
  const rows: Reading[] = [idle];
  let window: Reading[] = [];
  for (let second = 1; second <= SECONDS && !done; second++) {
    await later(began + second * 1000 - performance.now());
    if (done) break;
    window.push({ t: second, rss: rssBytes(pid), ...(await heap(gateway.metricsOrigin)) });
    if (second % SAMPLE_S === 0) {
      rows.push({
        ...window.at(-1)!,
        heapUsed: Math.min(...window.map((r) => r.heapUsed)),
        oldSpace: Math.min(...window.map((r) => r.oldSpace)),
      });
      window = [];
    }
  }
  const result = await load;
  const loadAfter = loadavg();
  emulator.process.send({ type: 'stop' } satisfies ToEmulator);

  const mb = (bytes: number) => (bytes / MB).toFixed(1);
  console.log(
    `\nsoak (Node ${process.version}, wrk -t1 -c${CONCURRENCY}, ${SECONDS} s, 3 queries + 1 mutation in turn; ` +
      `load average ${loadBefore.map((l) => l.toFixed(2)).join('/')} before, ${loadAfter.map((l) => l.toFixed(2)).join('/')} after)\n`,
  );
  printTable([
    ['t (s)', 'RSS MB', 'heap used MB (window min)', 'old space MB (window min)', 'heap total MB', 'external MB'],
    ...rows.map((r) => [r.t === 0 ? '0 (idle)' : String(r.t), mb(r.rss), mb(r.heapUsed), mb(r.oldSpace), mb(r.heapTotal), mb(r.external)]),
  ]);
  const tail = rows.filter((r) => r.t > 0 && r.t >= SECONDS / 3);
  const perMin = (y: (r: Reading) => number) => (slope(tail.map((r) => ({ t: r.t, y: y(r) }))) * 60) / MB;
  const heapSlope = perMin((r) => r.heapUsed);
  const oldSlope = perMin((r) => r.oldSpace);
  const underLoad = rows.filter((r) => r.t > 0);
  const mainIsolate = [...gcLines].sort((a, b) => b[1] - a[1])[0]?.[0];
  const fullGcTail = afterFullGc.filter((p) => p.isolate === mainIsolate && p.t >= SECONDS / 3 && p.t <= SECONDS);
  console.log(
    `\nrequests: ${result.requests} (${result.perSecond.toFixed(0)}/s), failed: ${result.bad}, p50 ${result.p50} ms, p99 ${result.p99} ms`,
  );
  console.log(
    `RSS: ${mb(idle.rss)} MB idle, ${mb(underLoad[0]?.rss ?? NaN)} MB at the first row under load, ${mb(underLoad.at(-1)?.rss ?? NaN)} MB at the end`,
  );
  console.log(
    `heap used slope over the last two thirds (${tail.length} rows): ${heapSlope.toFixed(2)} MB/min ` +
      `(${((heapSlope * MB) / 60 / result.perSecond).toFixed(1)} bytes per request); old space ${oldSlope.toFixed(2)} MB/min`,
  );
  const fullGcSlope = fullGcTail.length >= 3 ? (slope(fullGcTail) * 60) / MB : undefined;
  console.log(
    fullGcSlope !== undefined
      ? `heap after each full GC, slope over the last two thirds (${fullGcTail.length} GCs, ${mb(fullGcTail[0]!.y)} → ${mb(fullGcTail.at(-1)!.y)} MB): ` +
          `${fullGcSlope.toFixed(2)} MB/min`
      : `heap after each full GC: only ${fullGcTail.length} full GCs in the last two thirds, no slope`,
  );
  // The figure judged: the heap after full GCs when there are enough of them, else the window minima.
  const [judged, basis] = fullGcSlope !== undefined ? [fullGcSlope, 'heap after full GCs'] : [heapSlope, 'heap used, window minima'];
  const verdict =
    tail.length < MIN_ROWS
      ? `too short to tell (${tail.length} rows in the last two thirds, ${MIN_ROWS} needed)`
      : Math.abs(judged) < FLAT_MB_PER_MIN
        ? 'flat'
        : 'NOT flat';
  console.log(
    `verdict: ${verdict} (${basis}: ${judged.toFixed(2)} MB/min, ${((judged * MB) / 60 / result.perSecond).toFixed(1)} bytes per request; threshold ${FLAT_MB_PER_MIN} MB/min)`,
  );
  if (result.bad > 0) console.log(`warning: ${result.bad} requests failed: the figures are not of a healthy run`);
  cleanup();
  process.exit(result.bad > 0 ? 1 : 0);
}

main().catch((err: unknown) => {
  console.error('bench failed:', err);
  process.exit(1);
});
