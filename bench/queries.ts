// Query throughput and latency benchmark: a raw REST baseline straight to the emulator, then four
// GraphQL queries through the gateway, each under a fixed number of concurrent clients (closed
// loop), all on 127.0.0.1. Prints requests per second, latency p50/p99 under load and alone, the
// REST calls each query causes (counted at the emulator), the gateway's CPU time per query, its
// memory, and the CPU other processes took meanwhile (a busy machine disturbs every figure). Three
// processes: this one holds only the gateway; the emulator (bench/query-emulator.ts) and the load
// generator (bench/query-load.ts) run in children, so the gateway's CPU and memory figures are its
// own. Every run is bounded in requests and in time.
//
//   npm run bench:queries        (BENCH_CONCURRENCY, BENCH_MEASURE_MS, BENCH_WARMUP_MS)
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config';
import { createGateway } from '../src/gateway/create-gateway';
import type { EmulatorSetup, FromEmulator, ToEmulator } from './query-emulator';
import { channel } from './ipc';
import type { FromLoad, LoadResult, LoadRun, ToLoad } from './query-load';
import { printTable } from './print-table';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const CONCURRENCY = env('BENCH_CONCURRENCY', 32);
const WARMUP = { maxRequests: 5_000, maxMs: env('BENCH_WARMUP_MS', 2_000) };
const MEASURE = { maxRequests: 300_000, maxMs: env('BENCH_MEASURE_MS', 7_000) };
// One client at a time: the latency of a query on an idle gateway, without queueing.
const ALONE = { maxRequests: 2_000, maxMs: 1_500 };
const TIME_LIMIT_MS = 150_000;

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const ms = (value: number) => `${value.toFixed(2)} ms`;

function memory() {
  gc?.();
  gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

/**
 * Busy CPU time of the whole machine so far, ms, from /proc/stat (undefined off Linux). Set
 * against our three processes' CPU it shows how much other work shared the cores while a case
 * was measured: on a 2-core machine that moves every figure.
 */
function machineBusyMs(): number | undefined {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    // USER_HZ is 100 on Linux: a tick is 10 ms.
    return (ticks.reduce((a, b) => a + b, 0) - idle) * 10;
  } catch {
    return undefined;
  }
}

interface QueryCase {
  label: string;
  query: string;
  /** The REST calls one query must cause (the batching rule). */
  calls: number;
  /** A reason the data is wrong, or undefined. */
  check(data: unknown): string | undefined;
}

function cases(setup: EmulatorSetup): QueryCase[] {
  const at = (data: unknown, ...path: string[]): unknown =>
    path.reduce<unknown>((v, key) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined), data);
  return [
    {
      label: 'me { id username nickName }',
      query: '{ me { id username nickName } }',
      calls: 1,
      check: (d) => (at(d, 'me', 'username') === 'bench-owner' ? undefined : 'me.username is not bench-owner'),
    },
    {
      label: 'me { …settings devices pushTags online }',
      query: '{ me { id username settings { noPush } devices { nodes { deviceSn } } pushTags online } }',
      calls: 5,
      check: (d) =>
        typeof at(d, 'me', 'settings', 'noPush') === 'boolean' &&
        Array.isArray(at(d, 'me', 'devices', 'nodes')) &&
        Array.isArray(at(d, 'me', 'pushTags')) &&
        typeof at(d, 'me', 'online') === 'boolean'
          ? undefined
          : 'me is missing settings, devices, pushTags or online',
    },
    {
      label: `groups(ids: [${setup.groupIds.length}]) { id name memberCount }`,
      query: `{ groups(ids: [${setup.groupIds.map((id) => `"${id}"`).join(', ')}]) { id name memberCount } }`,
      calls: 1,
      check: (d) => {
        const groups = at(d, 'groups');
        return Array.isArray(groups) && groups.length === setup.groupIds.length && groups.every((g) => at(g, 'memberCount') === 1)
          ? undefined
          : `groups is not ${setup.groupIds.length} groups of one member`;
      },
    },
    {
      label: `group { members(first: ${setup.bigGroupSize}) { nodes { userId displayName } } }`,
      query: `{ group(id: "${setup.bigGroupId}") { members(first: ${setup.bigGroupSize}) { nodes { userId displayName } } } }`,
      // The batch read that says the group exists, then the member list.
      calls: 2,
      check: (d) => {
        const nodes = at(d, 'group', 'members', 'nodes');
        return Array.isArray(nodes) && nodes.length === setup.bigGroupSize ? undefined : `members is not ${setup.bigGroupSize} nodes`;
      },
    },
  ];
}

interface Row {
  label: string;
  restPerQuery: string;
  loaded: LoadResult;
  alone: LoadResult;
  cpuPerQuery: string;
  memory: string;
  /** CPU that processes other than ours used during the measured window, in cores. */
  others: number | undefined;
}

async function main() {
  const watchdog = setTimeout(() => {
    console.error(`bench: over ${TIME_LIMIT_MS / 1000} s, giving up`);
    process.exit(1);
  }, TIME_LIMIT_MS);
  if (!gc) console.warn('bench: run with --expose-gc (npm run bench:queries) for steady memory figures');
  const began = performance.now();

  const child = (file: string) => fork(fileURLToPath(new URL(file, import.meta.url)));
  const emulatorProcess = child('./query-emulator.ts');
  const loadProcess = child('./query-load.ts');
  const emulator = channel<ToEmulator, FromEmulator>(emulatorProcess, 'emulator');
  const load = channel<ToLoad, FromLoad>(loadProcess, 'load generator');
  const { setup } = await emulator(undefined, 'ready');

  const config = { ...loadConfig({ PORT: '1', IM_APP_ID: setup.appId }), port: 0 };
  const gateway = createGateway(config, { imBaseUrl: setup.url });
  const gatewayUrl = await gateway.start();

  // Every request acts as the owner through the admin token, as an app backend would.
  const identity = { app_id: setup.appId, 'access-token': setup.adminToken, user_id: String(setup.ownerId) };
  const gqlHeaders = { ...identity, 'content-type': 'application/json', accept: 'application/graphql-response+json' };
  const run = async (
    base: Omit<LoadRun, 'maxRequests' | 'maxMs' | 'concurrency'>,
    bounds: { maxRequests: number; maxMs: number },
    concurrency = CONCURRENCY,
  ) => {
    const { result } = await load({ type: 'run', run: { ...base, ...bounds, concurrency } }, 'done');
    if (result.failed > 0)
      throw new Error(`${result.failed} of ${result.ok + result.failed} requests failed; first: ${result.firstFailure}`);
    return result;
  };

  /** The measured run, with the gateway's CPU, the emulator's calls and CPU, and the others' CPU over it. */
  async function measured(base: Parameters<typeof run>[0]) {
    await emulator({ type: 'mark' }, 'marked');
    const machineBefore = machineBusyMs();
    const windowStart = performance.now();
    const cpuBefore = process.cpuUsage();
    const loaded = await run(base, MEASURE);
    const cpu = process.cpuUsage(cpuBefore);
    const machineAfter = machineBusyMs();
    const windowMs = performance.now() - windowStart;
    const mark = await emulator({ type: 'mark' }, 'marked');
    const gatewayMs = (cpu.user + cpu.system) / 1000;
    const oursMs = gatewayMs + mark.cpuMicros / 1000 + loaded.cpuMicros / 1000;
    const others =
      machineBefore === undefined || machineAfter === undefined ? undefined : Math.max(0, machineAfter - machineBefore - oursMs) / windowMs;
    return { loaded, gatewayMs, mark, others };
  }

  // 1. The baseline: the REST call the simplest query makes, sent straight to the emulator.
  const restRun = { origin: setup.url, method: 'GET' as const, path: '/user/profile', headers: identity, mustContain: '"code":200' };
  await run(restRun, WARMUP);
  const { loaded: baseline, mark: baselineMark, others: baselineOthers } = await measured(restRun);
  const baselineAlone = await run(restRun, ALONE, 1);
  const emulatorCpuPerCall = baselineMark.cpuMicros / 1000 / baselineMark.calls;
  const rows: Row[] = [
    {
      label: 'REST GET /user/profile (baseline)',
      restPerQuery: '1 (itself)',
      loaded: baseline,
      alone: baselineAlone,
      cpuPerQuery: `emulator ${ms(emulatorCpuPerCall)}/call`,
      memory: '',
      others: baselineOthers,
    },
  ];
  if (baselineMark.calls !== baseline.ok) throw new Error(`the emulator counted ${baselineMark.calls} calls for ${baseline.ok} requests`);

  const oneQueryCalls: string[] = [];
  let mismatch = false;
  for (const c of cases(setup)) {
    const gqlRun = {
      origin: gatewayUrl,
      method: 'POST' as const,
      path: '/graphql',
      headers: gqlHeaders,
      body: JSON.stringify({ query: c.query }),
      mustNotContain: '"errors"',
    };

    // One query first, checked in full, and the REST calls it causes.
    await emulator({ type: 'mark' }, 'marked');
    const res = await fetch(`${gatewayUrl}/graphql`, { method: 'POST', headers: gqlHeaders, body: gqlRun.body });
    const reply = (await res.json()) as { data?: unknown; errors?: unknown };
    const wrong = reply.errors ? JSON.stringify(reply.errors) : c.check(reply.data);
    if (wrong) throw new Error(`${c.label}: ${wrong}`);
    const one = await emulator({ type: 'mark' }, 'marked');
    oneQueryCalls.push(
      `${c.label}: ${Object.entries(one.byEndpoint)
        .map(([e, n]) => (n > 1 ? `${n} × ${e}` : e))
        .join(', ')}`,
    );

    const before = memory();
    await run(gqlRun, WARMUP);
    const { loaded, gatewayMs, mark, others } = await measured(gqlRun);
    const after = memory();
    const alone = await run(gqlRun, ALONE, 1);

    const perQuery = mark.calls / loaded.ok;
    // Under load, identical queries in flight share calls (IM_COALESCE): fewer per query, never more.
    if (one.calls !== c.calls || perQuery > c.calls + 0.01) mismatch = true;
    rows.push({
      label: c.label,
      restPerQuery: `${perQuery.toFixed(2)} (one query: ${one.calls}, rule: ${c.calls})`,
      loaded,
      alone,
      cpuPerQuery: ms(gatewayMs / loaded.ok),
      memory: `${mb(before.rss)} → ${mb(after.rss)} (heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)})`,
      others,
    });
  }

  await load({ type: 'close' }, 'closed');
  emulatorProcess.send({ type: 'stop' } satisfies ToEmulator);
  await gateway.stop();
  clearTimeout(watchdog);

  const perSecond = (r: LoadResult) => Math.round(r.ok / (r.elapsedMs / 1000)).toLocaleString('en-US');
  console.log(
    `\nqueries bench (Node ${process.version}, ${CONCURRENCY} concurrent clients, measured ${MEASURE.maxMs / 1000} s per case after ${WARMUP.maxMs / 1000} s warm-up)\n`,
  );
  const othersCpu = (r: Row) => (r.others === undefined ? 'n/a' : `${(r.others * 100).toFixed(0)}%`);
  const header = [
    'case',
    'REST calls/query',
    'req/s',
    'p50',
    'p99',
    'p50 alone',
    'CPU/query (gateway)',
    'gateway RSS before → after',
    "others' CPU",
  ];
  const table = [
    header,
    ...rows.map((r) => [
      r.label,
      r.restPerQuery,
      perSecond(r.loaded),
      ms(r.loaded.p50),
      ms(r.loaded.p99),
      ms(r.alone.p50),
      r.cpuPerQuery,
      r.memory,
      othersCpu(r),
    ]),
  ];
  printTable(table);

  console.log('\nREST calls of one query, at the emulator:');
  for (const line of oneQueryCalls) console.log(`  ${line}`);

  const [base, ...gql] = rows;
  console.log('\nReading (each gateway case against the raw REST baseline):');
  for (const r of gql) {
    const throughput = (r.loaded.ok / r.loaded.elapsedMs / (base!.loaded.ok / base!.loaded.elapsedMs)) * 100;
    console.log(
      `  ${r.label}: +${ms(r.alone.p50 - base!.alone.p50)} alone, +${ms(r.loaded.p50 - base!.loaded.p50)} at p50 under load; ` +
        `${r.cpuPerQuery} gateway CPU per query (the emulator spends ${ms(emulatorCpuPerCall)} per REST call); ${throughput.toFixed(0)}% of the baseline's rate`,
    );
  }
  const busiest = Math.max(...rows.map((r) => r.others ?? 0));
  if (busiest > 0.1)
    console.log(
      `\nbench: other processes used up to ${(busiest * 100).toFixed(0)}% of a core during a measured window: figures are disturbed, run again on a quiet machine`,
    );
  console.log(`\nwhole run ${((performance.now() - began) / 1000).toFixed(0)} s`);
  if (mismatch) {
    console.error('bench: a query caused another number of REST calls than the batching rule says');
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  console.error('bench failed:', err);
  process.exit(1);
});
