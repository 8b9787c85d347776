// Abuse benchmark (issue 20's targets, issue 35's probe): the gateway as production runs it, over
// the seeded emulator (each in a process of its own, bench-processes.ts), with its default limits.
// First the fan-out query, which must be refused; then the probe: BENCH_PARALLEL (20)
// clients, each its own identity (the admin token acting as one of the big group's members), each
// sending batches of BENCH_BATCH (10) copies of the costliest operation the gateway accepts here,
// one batch after another for BENCH_ABUSE_SECONDS (10), while a canary `{ me { id } }` of another
// identity is sent every 100 ms whatever the earlier ones are doing.
// Printed: what the operations got (answered, OVERLOADED per scope, other codes), the REST calls
// the emulator received, the gateway's RSS (sampled every 50 ms) and the canary's latencies; then
// issue 40's loads F12-F14 (bench/abuse-limits.ts: BENCH_F12_USERS, BENCH_F14_REQUESTS).
//
//   npm run bench:abuse         (BENCH_PARALLEL, BENCH_BATCH, BENCH_ABUSE_SECONDS, BENCH_GATEWAY_SOURCE=1 as in bench-processes.ts;
//                                F15-F17 after: bench/abuse-edges.ts, BENCH_EDGES=0 leaves them out)
import { parse } from 'graphql';
import { DEFAULT_MAX_COST } from '../src/config';
import { estimateCost } from '../src/gateway/execution/cost-estimate';
import { schema } from '../src/schema';
import { limitsLoads } from './abuse-limits';
import { benchWorkspace, rssBytes, startBenchEmulator, startGatewayProcess } from './bench-processes';
import { edgeLoads } from './abuse-edges';

const CLIENTS = Number(process.env.BENCH_PARALLEL ?? 20);
const BATCH = Number(process.env.BENCH_BATCH ?? 10);
const SECONDS = Number(process.env.BENCH_ABUSE_SECONDS ?? 10);
const CANARY_EVERY_MS = 100;
const MiB = 1024 * 1024;

const workspace = benchWorkspace('abuse');
const emulator = await startBenchEmulator(workspace.children);
const { setup } = emulator;
const gateway = await startGatewayProcess(workspace.children, setup);
if (setup.bigGroupMembers.length < CLIENTS) throw new Error(`at most ${setup.bigGroupMembers.length} clients`);

/** Headers acting as `userId` through the admin token: one identity per user. */
const headersAs = (userId: number) => ({
  'content-type': 'application/json',
  accept: 'application/graphql-response+json',
  app_id: setup.appId,
  'access-token': setup.adminToken,
  user_id: String(userId),
});

interface Outcome {
  status: number;
  /** Per operation (one for a single request): undefined when it answered without errors. */
  codes: (string | undefined)[];
  bytes: number;
}
type Result = { errors?: { extensions?: { code?: string; scope?: string } }[] };
const codeOf = (result: Result): string | undefined => {
  const extensions = result.errors?.[0]?.extensions;
  if (!result.errors?.length) return undefined;
  return extensions?.code === 'OVERLOADED' ? `OVERLOADED (${extensions.scope})` : (extensions?.code ?? 'no code');
};

async function post(userId: number, body: unknown): Promise<Outcome> {
  const res = await fetch(`${gateway.origin}/graphql`, { method: 'POST', headers: headersAs(userId), body: JSON.stringify(body) });
  const text = await res.text();
  const parsed = JSON.parse(text) as Result | Result[];
  return { status: res.status, codes: Array.isArray(parsed) ? parsed.map(codeOf) : [codeOf(parsed)], bytes: text.length };
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
const refused = await post(setup.ownerId, { query: FAN_OUT });
console.log(`fan-out query (estimate ${estimate(FAN_OUT)}): HTTP ${refused.status} ${refused.codes[0]}, ${await calls()} REST calls`);
console.log(`worst accepted operation here: estimate ${estimate(WORST)} of MAX_COST ${DEFAULT_MAX_COST}`);
const alone = await post(setup.bigGroupMembers[0]!, { query: WORST });
const one = await calls();

// Samples the gateway's RSS while the clients and the canary run.
const rssBefore = rssBytes(gateway.process.pid!);
let peak = rssBefore;
const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(gateway.process.pid!))), 50);
const end = performance.now() + SECONDS * 1000;

const tally = new Map<string, number>();
const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
let batches = 0;
async function client(userId: number): Promise<void> {
  // Ten pages, not ten copies of one: identical operations in flight would share one execution.
  const batch = Array.from({ length: BATCH }, (_, i) => ({ query: WORST.replace('{', `{ page${i}: __typename`) }));
  while (performance.now() < end) {
    const outcome = await post(userId, batch);
    batches++;
    for (const code of outcome.codes) count(code === undefined ? 'answered' : code);
  }
}

// The canary: sent on a clock, not after the previous answer, so a slow answer does not thin the samples.
const canary: number[] = [];
const canaryCodes = new Map<string, number>();
const inFlight = new Set<Promise<void>>();
const ticker = setInterval(() => {
  const start = performance.now();
  const sent = post(setup.ownerId, { query: '{ me { id } }' }).then((outcome) => {
    canary.push(performance.now() - start);
    const code = outcome.codes[0] ?? 'answered';
    canaryCodes.set(code, (canaryCodes.get(code) ?? 0) + 1);
  });
  inFlight.add(sent);
  void sent.finally(() => inFlight.delete(sent));
}, CANARY_EVERY_MS);

const started = performance.now();
await Promise.all(setup.bigGroupMembers.slice(0, CLIENTS).map(client));
const elapsed = performance.now() - started;
clearInterval(ticker);
await Promise.all(inFlight);
clearInterval(sampler);
const rssAfter = rssBytes(gateway.process.pid!);
const made = await calls();

canary.sort((a, b) => a - b);
const at = (q: number) => canary[Math.min(canary.length - 1, Math.floor(q * canary.length))]!.toFixed(0);
const list = (m: Map<string, number>) => [...m].map(([k, v]) => `${k} ${v}`).join(', ');
console.log(
  `${CLIENTS} clients × batches of ${BATCH} for ${(elapsed / 1000).toFixed(1)} s: ${batches} batches, operations: ${list(tally)}; ` +
    `${(alone.bytes / 1024).toFixed(0)} KiB an answer, ${made} REST calls (${one} for one alone)`,
);
console.log(
  `gateway RSS: ${(rssBefore / MiB).toFixed(0)} MB before, ${(peak / MiB).toFixed(0)} MB at most (+${((peak - rssBefore) / MiB).toFixed(0)}), ${(rssAfter / MiB).toFixed(0)} MB after`,
);
console.log(
  `canary { me { id } }: ${canary.length} sent (${list(canaryCodes)}), p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${canary[canary.length - 1]!.toFixed(0)} ms`,
);
// Issue 40's F12-F14: what one request does to others (bench/abuse-limits.ts).
await limitsLoads({ origin: gateway.origin, pid: gateway.process.pid! }, setup, headersAs, setup.bigGroupMembers.slice(0, 5));
// F15-F17 (issue 40): slow readers, an oversized message, deep variables (bench/abuse-edges.ts).
if (process.env.BENCH_EDGES !== '0') await edgeLoads({ ...gateway, setup });
emulator.process.send({ type: 'stop' });
workspace.cleanup();
process.exit(0);
