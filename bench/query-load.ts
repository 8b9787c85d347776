// The load generator of bench/queries.ts, in a process of its own (so that the gateway's CPU and
// memory figures are its own): a fixed number of workers over an undici Pool, each sending one
// request at a time (closed loop), until a request count or a time limit is reached.
import { Pool } from 'undici';

export interface LoadRun {
  origin: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  concurrency: number;
  /** Stop after this many requests, or after this long, whichever comes first. */
  maxRequests: number;
  maxMs: number;
  /** A reply counts as a success when it is HTTP 200, contains `mustContain` and not `mustNotContain`. */
  mustContain?: string;
  mustNotContain?: string;
}

export interface LoadResult {
  ok: number;
  failed: number;
  firstFailure?: string;
  elapsedMs: number;
  /** CPU time of this process during the run (user + system), µs. */
  cpuMicros: number;
  /** Latency of the successful requests, ms. */
  p50: number;
  p99: number;
}

export type ToLoad = { type: 'run'; run: LoadRun } | { type: 'close' };
export type FromLoad = { type: 'done'; result: LoadResult } | { type: 'closed' } | { type: 'failed'; error: string };

function post(message: FromLoad) {
  process.send!(message);
}

// One pool per origin, kept between runs: the measured runs reuse the warm-up's connections.
const pools = new Map<string, Pool>();
function poolFor(origin: string, connections: number): Pool {
  const key = `${origin} ${connections}`;
  let pool = pools.get(key);
  if (!pool) {
    // A stuck request fails after 10 s instead of holding its worker past the run's time limit.
    pool = new Pool(origin, { connections, pipelining: 1, headersTimeout: 10_000, bodyTimeout: 10_000 });
    pools.set(key, pool);
  }
  return pool;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function run(r: LoadRun): Promise<LoadResult> {
  const pool = poolFor(r.origin, r.concurrency);
  const latencies = new Float64Array(r.maxRequests);
  let started = 0;
  let ok = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  const cpu = process.cpuUsage();
  const begin = performance.now();
  const deadline = begin + r.maxMs;
  let last = begin;

  async function worker(): Promise<void> {
    while (started < r.maxRequests && performance.now() < deadline) {
      started++;
      const t0 = performance.now();
      try {
        const res = await pool.request({ method: r.method, path: r.path, headers: r.headers, body: r.body ?? null });
        const text = await res.body.text();
        const t1 = performance.now();
        last = t1;
        const good =
          res.statusCode === 200 &&
          (r.mustContain === undefined || text.includes(r.mustContain)) &&
          (r.mustNotContain === undefined || !text.includes(r.mustNotContain));
        if (good) latencies[ok++] = t1 - t0;
        else {
          failed++;
          firstFailure ??= `HTTP ${res.statusCode}: ${text.slice(0, 300)}`;
        }
      } catch (err) {
        last = performance.now();
        failed++;
        firstFailure ??= err instanceof Error ? err.message : String(err);
      }
    }
  }

  await Promise.all(Array.from({ length: r.concurrency }, worker));
  const { user, system } = process.cpuUsage(cpu);
  const sorted = latencies.subarray(0, ok).sort();
  const result: LoadResult = {
    ok,
    failed,
    elapsedMs: last - begin,
    cpuMicros: user + system,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
  if (firstFailure !== undefined) result.firstFailure = firstFailure;
  return result;
}

// The bench stopped or died: do not outlive it.
process.on('disconnect', () => process.exit(0));

process.on('message', (message: ToLoad) => {
  if (message.type === 'close') {
    void Promise.all([...pools.values()].map((p) => p.close())).then(() => {
      post({ type: 'closed' });
      process.disconnect();
    });
    return;
  }
  run(message.run).then(
    (result) => post({ type: 'done', result }),
    (err: unknown) => post({ type: 'failed', error: err instanceof Error ? err.message : String(err) }),
  );
});
