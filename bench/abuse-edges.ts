// Loads F15-F17 of bench:abuse (issue 40), run by bench/abuse.ts after its own on the same gateway
// process (production bundle, default limits) and emulator:
// - F15: BENCH_STOPPED_READERS (20) subscribers of conversationEvents, half SSE and half multipart,
//   that stop reading while their conversations get BENCH_STOPPED_MESSAGES (120) messages of 5,000
//   characters (each event selects the content 20 times: ~100 KB): how many are dropped
//   (SLOW_CONSUMER), the gateway's RSS and heap, and a canary's p50 before and while they are held;
// - F16: a conversation whose middle message is 9 MiB (a scripted service, in process: the
//   emulator bounds content): whether `conversation(with:, last: 20)` lists, and its time;
// - F17: 20 requests whose variables nest 100,000 arrays (0.2 MB, no token): statuses and time.
import { type IncomingMessage, request } from 'node:http';
import { gatewayVia } from '../test/helpers/stack';
import { startScriptedServer } from '../test/helpers/scripted-server';
import { conversation, OVERSIZED_PEER, oversizedService } from '../test/helpers/oversized-conversation';
import { rssBytes } from './bench-processes';
import type { EmulatorSetup } from './query-emulator';

interface Target {
  origin: string;
  metricsOrigin: string;
  process: { pid?: number | undefined; stdout: NodeJS.ReadableStream | null };
  setup: EmulatorSetup;
}

const MiB = 1024 * 1024;
const READERS = Number(process.env.BENCH_STOPPED_READERS ?? 20);
const MESSAGES = Number(process.env.BENCH_STOPPED_MESSAGES ?? 120);
const LARGE_EVENTS = `subscription($with: ID!) { conversationEvents(with: $with) {
  __typename ... on MessageReceived { message { ${Array.from({ length: 20 }, (_, i) => `c${i}: content`).join(' ')} } } } }`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mb = (bytes: number) => `${(bytes / MiB).toFixed(0)} MB`;

async function heapUsed(metricsOrigin: string): Promise<number> {
  const text = await (await fetch(`${metricsOrigin}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?)/m.exec(text)?.[1] ?? NaN);
}

function headersAs(setup: EmulatorSetup, userId: number): Record<string, string> {
  return { 'content-type': 'application/json', app_id: setup.appId, 'access-token': setup.adminToken, user_id: String(userId) };
}

/** The p50 of `n` canary `{ me { id } }` sent one after another. */
async function canaryP50({ origin, setup }: Target, n = 30): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const res = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: headersAs(setup, setup.ownerId),
      body: '{"query":"{ me { id } }"}',
    });
    await res.text();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** A subscriber that stops reading once its answer has started. */
function stoppedReader(target: Target, userId: number, accept: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(`${target.origin}/graphql`, { method: 'POST', headers: { ...headersAs(target.setup, userId), accept } });
    req.once('response', (res) => resolve(res.pause()));
    req.once('error', reject);
    req.end(JSON.stringify({ query: LARGE_EVENTS, variables: { with: String(target.setup.ownerId) } }));
  });
}

async function f15(target: Target): Promise<void> {
  const { setup } = target;
  let drops = 0;
  target.process.stdout?.on('data', (chunk: Buffer) => (drops += chunk.toString().split('subscription over HTTP dropped').length - 1));
  const p50Before = await canaryP50(target);
  const rssBefore = rssBytes(target.process.pid!);
  const heapBefore = await heapUsed(target.metricsOrigin);
  const users = setup.bigGroupMembers.slice(0, READERS);
  const readers = await Promise.all(
    users.map((u, i) => stoppedReader(target, u, i % 2 === 0 ? 'text/event-stream' : 'multipart/mixed;subscriptionSpec=1.0')),
  );
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(target.process.pid!))), 50);
  const content = 'x'.repeat(5_000);
  const started = performance.now();
  for (let i = 0; i < MESSAGES; i++) {
    await fetch(`${setup.url}/message/send`, {
      method: 'POST',
      headers: { ...headersAs(setup, setup.ownerId), 'content-type': 'application/json' },
      body: JSON.stringify({ content_type: 0, content, attachment: '', targets: users, type: 1 }),
    }).then((r) => r.text());
  }
  const sent = performance.now() - started;
  // The events reach the readers as their polls catch up: the canary runs meanwhile, then the drops are awaited (60 s at most).
  const p50During = await canaryP50(target);
  const heapDuring = await heapUsed(target.metricsOrigin);
  for (const deadline = performance.now() + 60_000; drops < READERS && performance.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const settled = performance.now() - started;
  const heapAfter = await heapUsed(target.metricsOrigin);
  const p50After = await canaryP50(target);
  clearInterval(sampler);
  for (const reader of readers) reader.destroy();
  console.log(
    `F15 ${READERS} stopped readers (half SSE, half multipart), ${MESSAGES} messages of ~100 KB events each sent in ${(sent / 1000).toFixed(1)} s: ` +
      `${drops} dropped with SLOW_CONSUMER within ${(settled / 1000).toFixed(1)} s; RSS ${mb(rssBefore)} before, ${mb(peak)} at most; ` +
      `heap ${mb(heapBefore)} before, ${mb(heapDuring)} while held, ${mb(heapAfter)} after the drops; ` +
      `canary p50 ${p50Before.toFixed(0)} ms before, ${p50During.toFixed(0)} ms while held, ${p50After.toFixed(0)} ms after`,
  );
}

async function f16(): Promise<void> {
  const service = await startScriptedServer(oversizedService(conversation()));
  const { gateway, url } = await gatewayVia(service.url, { IM_RETRIES: '0' });
  try {
    const start = performance.now();
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'access-token': 't' },
      body: JSON.stringify({ query: `{ me { conversation(with: "${OVERSIZED_PEER}", last: 20) { nodes { messageId oversized } } } }` }),
    });
    const body = (await res.json()) as {
      data?: { me: { conversation: { nodes: { messageId: string; oversized: boolean }[] } } };
      errors?: unknown[];
    };
    const ms = performance.now() - start;
    const nodes = body.data?.me.conversation.nodes ?? [];
    console.log(
      `F16 a 9 MiB message between two others: conversation(last: 20) ${body.errors ? 'failed' : 'listed'} ${nodes.length} messages ` +
        `(${nodes.filter((n) => n.oversized).length} marked oversized) in ${ms.toFixed(0)} ms, ${service.requests.length} REST calls`,
    );
  } finally {
    await gateway.stop();
    await service.close();
  }
}

async function f17({ origin }: Target): Promise<void> {
  const body = `{"query":"{ __typename }","variables":{"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
  const statuses = new Map<number, number>();
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const start = performance.now();
    const res = await fetch(`${origin}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.text();
    times.push(performance.now() - start);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  }
  console.log(
    `F17 20 requests of 100,000 nested arrays (${(body.length / 1024).toFixed(0)} KiB, no token): ` +
      `${[...statuses].map(([s, n]) => `HTTP ${s} × ${n}`).join(', ')}, p50 ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`,
  );
}

/** F15-F17 against the bench's gateway process (F16 on a gateway of its own). */
export async function edgeLoads(target: Target): Promise<void> {
  await f17(target);
  await f16();
  await f15(target);
}
