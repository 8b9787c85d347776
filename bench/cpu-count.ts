// CPU per request of gateway builds on a fixed count of requests, for a loaded machine: wall-clock
// req/s moves with the other processes' load, the CPU a gateway spends on a fixed amount of work
// much less. Each checkout's gateway (built as production runs it) answers the same N requests of
// the varied cases in alternating rounds; its CPU from /proc and the emulator's REST calls are
// counted per request. Upstream calls per request are printed beside it: a cache answering more
// at a higher rate would otherwise pass for cheaper code.
//
//   BENCH_CHECKOUTS="head=.,base=/path/to/other/checkout" npm run bench:cpu
//   (BENCH_REQUESTS per round and case, default 2000; BENCH_ROUNDS default 3; BENCH_CONCURRENCY
//   default 8; BENCH_CASES: the cases by number as bench:peers numbers them (1 `me`, 2 a
//   group's members, 3 joined groups, 4-5 varied, 6 a page of messages), default "4,5";
//   BENCH_GATEWAY_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles each build)
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { benchWorkspace, cpuMs, startBenchEmulator, startGatewayProcess } from './bench-processes';
import { cases, historyCase, requestsOf } from './peers-cases';
import type { Request } from './wrk';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const CASES = (process.env.BENCH_CASES ?? '4,5').split(',').filter(Boolean).map(Number);
const checkouts = (process.env.BENCH_CHECKOUTS ?? 'head=.').split(',').map((entry) => {
  const [name, path] = entry.split('=');
  return { name: name!, path: resolve(path!) };
});

/** Sends `count` requests from `list` in turn, `CONCURRENCY` at a time; throws on any answer other than 200. */
async function drive(origin: string, list: Request[], count: number, identity: Record<string, string>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const request = list[next++ % list.length]!;
      const res = await fetch(origin + request.path, { method: request.method, headers: request.headers ?? identity, body: request.body });
      const body = await res.text();
      if (res.status !== 200 || body.includes('"errors"')) throw new Error(`HTTP ${res.status}: ${body.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function main() {
  const { children, cleanup } = benchWorkspace('cpu-count');
  try {
    const emulator = await startBenchEmulator(children);
    const varied = [...cases(emulator.setup), historyCase(emulator.setup)].filter((_c, i) => CASES.includes(i + 1));
    // As bench/peers.ts asks a case that names no identity of its own: the admin token acting as the owner.
    const { setup } = emulator;
    const identity = {
      app_id: setup.appId,
      'access-token': setup.adminToken,
      user_id: String(setup.ownerId),
      'content-type': 'application/json',
    };
    const gateways: { name: string; process: ChildProcess; origin: string }[] = [];
    for (const c of checkouts) gateways.push({ name: c.name, ...(await startGatewayProcess(children, emulator.setup, [], {}, c.path)) });
    const totals = new Map<string, { cpu: number; calls: number; requests: number }>();
    for (let round = 0; round <= ROUNDS; round++) {
      for (const c of varied) {
        const list = requestsOf(c.requests.gateway!);
        for (const g of gateways) {
          // Round 0 warms each build (JIT, pools, caches) and is not counted.
          await emulator.ask({ type: 'mark' }, 'marked');
          const before = cpuMs(g.process.pid!);
          await drive(g.origin, list, REQUESTS, identity);
          const cpu = cpuMs(g.process.pid!) - before;
          const { calls } = await emulator.ask({ type: 'mark' }, 'marked');
          if (round === 0) continue;
          const key = `${c.label}|${g.name}`;
          const t = totals.get(key) ?? { cpu: 0, calls: 0, requests: 0 };
          totals.set(key, { cpu: t.cpu + cpu, calls: t.calls + calls, requests: t.requests + REQUESTS });
          console.log(
            `round ${round} ${g.name.padEnd(8)} ${(cpu / REQUESTS).toFixed(3)} ms/req, ${(calls / REQUESTS).toFixed(2)} calls/req  ${c.label}`,
          );
        }
      }
    }
    console.log(`\nCPU per request over ${ROUNDS} × ${REQUESTS} requests (concurrency ${CONCURRENCY}):`);
    for (const [key, t] of totals) {
      const [label, name] = key.split('|');
      console.log(`  ${name!.padEnd(8)} ${(t.cpu / t.requests).toFixed(3)} ms, ${(t.calls / t.requests).toFixed(2)} calls  ${label}`);
    }
  } finally {
    cleanup();
  }
}

await main();
process.exit(0);
