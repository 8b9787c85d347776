// Abuse benchmark (issue 20's targets): the gateway as production runs it, over the seeded emulator
// (each in a process of its own, bench-processes.ts), with its default limits. First the issue's
// fan-out query, which must be refused; then BENCH_PARALLEL (20) copies at once of the costliest
// operation the gateway accepts here, while a canary `{ me { id } }` is sent one after another.
// Printed: the answers, the REST calls the emulator received, the gateway's peak RSS (sampled
// every 50 ms) and the canary's latencies.
//
//   npm run bench:abuse         (BENCH_PARALLEL, BENCH_GATEWAY_SOURCE=1 as in bench-processes.ts)
import { parse } from 'graphql';
import { DEFAULT_MAX_COST } from '../src/config';
import { estimateCost } from '../src/gateway/execution/cost-estimate';
import { schema } from '../src/schema';
import { benchWorkspace, rssBytes, startBenchEmulator, startGatewayProcess } from './bench-processes';

const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 20);
const MiB = 1024 * 1024;

const workspace = benchWorkspace('abuse');
const emulator = await startBenchEmulator(workspace.children);
const { setup } = emulator;
const gateway = await startGatewayProcess(workspace.children, setup);
const headers = {
  'content-type': 'application/json',
  accept: 'application/graphql-response+json',
  app_id: setup.appId,
  'access-token': setup.adminToken,
  user_id: String(setup.ownerId),
};

async function post(query: string): Promise<{ status: number; errors: number; code: string | undefined; bytes: number }> {
  const res = await fetch(`${gateway.origin}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query }) });
  const text = await res.text();
  const body = JSON.parse(text) as { errors?: { extensions?: { code?: string } }[] };
  return { status: res.status, errors: body.errors?.length ?? 0, code: body.errors?.[0]?.extensions?.code, bytes: text.length };
}

const calls = async () => (await emulator.ask({ type: 'mark' }, 'marked')).calls;
const estimate = (query: string) => estimateCost(schema, parse(query), undefined, {}).calls;

const FAN_OUT =
  '{ me { joinedGroups(first: 1000) { nodes { members(first: 1000) { nodes { role user { nickName avatar online } } } } } } }';
// Every member of the big group with a profile and online status, and the members of every joined
// group: as many of those as MAX_COST lets through.
const worstWith = (n: number) => `{
  group(id: ${setup.bigGroupId}) { members(first: ${setup.bigGroupSize}) { nodes { role user { nickName avatar online } } } }
  me { joinedGroups(first: 50) { nodes { name members(first: ${n}) { nodes { role user { nickName } } } } } }
}`;
let widest = 1;
while (widest < 1000 && estimate(worstWith(widest + 1)) <= DEFAULT_MAX_COST) widest++;
const WORST = worstWith(widest);

await calls();
const refused = await post(FAN_OUT);
console.log(`fan-out query (estimate ${estimate(FAN_OUT)}): HTTP ${refused.status} ${refused.code}, ${await calls()} REST calls`);
console.log(`worst accepted operation here: estimate ${estimate(WORST)} of MAX_COST ${DEFAULT_MAX_COST}`);
await post(WORST);
const one = await calls();

// Samples the gateway's RSS and runs the canary until `done`.
let peak = rssBytes(gateway.process.pid!);
const before = peak;
const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(gateway.process.pid!))), 50);
const canary: number[] = [];
let running = true;
const canaryLoop = (async () => {
  while (running) {
    const start = performance.now();
    await post('{ me { id } }');
    canary.push(performance.now() - start);
  }
})();
const start = performance.now();
const answers = await Promise.all(Array.from({ length: PARALLEL }, () => post(WORST)));
const elapsed = performance.now() - start;
running = false;
await canaryLoop;
clearInterval(sampler);
const made = await calls();

canary.sort((a, b) => a - b);
const at = (q: number) => canary[Math.min(canary.length - 1, Math.floor(q * canary.length))]!.toFixed(0);
console.log(
  `${PARALLEL} in parallel: ${(elapsed / 1000).toFixed(1)} s, ${answers.filter((a) => a.status === 200 && a.errors === 0).length} answered without errors, ` +
    `${(answers[0]!.bytes / 1024).toFixed(0)} KiB each, ${made} REST calls (${one} for one)`,
);
console.log(`gateway RSS: ${(before / MiB).toFixed(0)} MB before, ${(peak / MiB).toFixed(0)} MB at most`);
console.log(
  `canary { me { id } }: ${canary.length} sent, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${canary[canary.length - 1]!.toFixed(0)} ms`,
);
emulator.process.send({ type: 'stop' });
workspace.cleanup();
process.exit(0);
