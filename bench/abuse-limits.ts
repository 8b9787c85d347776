// Issue 40's loads against what a request does to others (bench/abuse.ts runs them after its own,
// on the same production gateway with its default limits):
// - F12 registerUsers lockout: one tokenless registerUsers naming BENCH_F12_USERS (50; 999 in the
//   probe) existing users five times each; then each victim signs in with the right password.
// - F13 sendFriendRequests amplification: 4 at once of 1,000 users × a 240 KB message (the probe),
//   and 4 of 250 users (within RECIPIENT_LIMIT: the body bound alone); the gateway's RSS before and
//   after, /health polled every 20 ms meanwhile.
// - F14 friend-request spam: one new account sends sendFriendRequests of 100 users, one after
//   another, BENCH_F14_REQUESTS (100) times: how many recipients got through.
import type { EmulatorSetup } from './query-emulator';
import { rssBytes } from './bench-processes';

const MiB = 1024 * 1024;
const F12_USERS = Number(process.env.BENCH_F12_USERS ?? 50);
const F14_REQUESTS = Number(process.env.BENCH_F14_REQUESTS ?? 100);

interface Gateway {
  readonly origin: string;
  readonly pid: number;
}

type Answer = { status: number; body: { data?: Record<string, unknown>; errors?: { extensions?: { code?: string } }[] } };

async function graphql(
  gateway: Gateway,
  headers: Record<string, string>,
  query: string,
  variables: Record<string, unknown>,
): Promise<Answer> {
  const res = await fetch(`${gateway.origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

const codeOf = (a: Answer) => a.body.errors?.[0]?.extensions?.code ?? (a.status === 200 ? 'answered' : `HTTP ${a.status}`);
const tally = (codes: string[]) => {
  const counts = new Map<string, number>();
  for (const code of codes) counts.set(code, (counts.get(code) ?? 0) + 1);
  return [...counts].map(([code, n]) => `${code} ${n}`).join(', ');
};
/** Distinct user IDs nobody has (the service refuses each entry, which still counts as a recipient). */
const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => String(3_000_000_000_000 + from + i));

async function registerAtService(setup: EmulatorSetup, username: string, password: string): Promise<void> {
  const res = await fetch(`${setup.url}/user/register/v2`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', app_id: setup.appId },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`register ${username}: HTTP ${res.status}`);
}

async function f12(gateway: Gateway, setup: EmulatorSetup): Promise<void> {
  const tag = Math.random().toString(36).slice(2, 8);
  const victims = Array.from({ length: F12_USERS }, (_, i) => ({ name: `f12_${tag}_${i}`, password: `pw-${tag}-${i}` }));
  for (const v of victims) await registerAtService(setup, v.name, v.password);
  const entries = victims.flatMap((v) => Array.from({ length: 5 }, (_, i) => ({ username: v.name, password: `guess-${i}` })));
  const register = await graphql(
    gateway,
    { app_id: setup.appId },
    'mutation ($u: [RegisterUserInput!]!) { registerUsers(input: { users: $u }) { ok } }',
    { u: entries },
  );
  const logins: string[] = [];
  for (const v of victims) {
    const answer = await graphql(
      gateway,
      { app_id: setup.appId },
      'mutation ($n: String!, $p: String!) { loginByName(input: { username: $n, password: $p }) { ok } }',
      { n: v.name, p: v.password },
    );
    logins.push(answer.body.data?.loginByName ? 'signed in' : codeOf(answer));
  }
  console.log(
    `F12 registerUsers lockout: ${entries.length} entries (${F12_USERS} users × 5) in one tokenless request: HTTP ${register.status} ${codeOf(register)}; ` +
      `then the victims' sign-ins with their passwords: ${tally(logins)}`,
  );
}

/** `senders`: one per request sent at once, so that each stays within its own RECIPIENT_LIMIT. */
async function f13(gateway: Gateway, headersAs: (userId: number) => Record<string, string>, senders: readonly number[]): Promise<void> {
  const message = 'x'.repeat(240 * 1024);
  const query =
    'mutation ($ids: [ID!]!, $m: String) { sendFriendRequests(input: { userIds: $ids, message: $m }) { ok userErrors { code } } }';
  for (const users of [1000, 250]) {
    const rssBefore = rssBytes(gateway.pid);
    let peak = rssBefore;
    const health: number[] = [];
    let running = true;
    const poller = (async () => {
      while (running) {
        const start = performance.now();
        await fetch(`${gateway.origin}/health`);
        health.push(performance.now() - start);
        peak = Math.max(peak, rssBytes(gateway.pid));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const started = performance.now();
    const answers = await Promise.all(senders.map((sender) => graphql(gateway, headersAs(sender), query, { ids: ids(users), m: message })));
    const elapsed = performance.now() - started;
    running = false;
    await poller;
    const outcomes = answers.map((a) => {
      const errors = (a.body.data?.sendFriendRequests as { userErrors?: { code: string }[] } | undefined)?.userErrors;
      return errors?.[0]?.code ?? codeOf(a);
    });
    health.sort((a, b) => a - b);
    console.log(
      `F13 sendFriendRequests ${users} users × 240 KB, 4 at once: ${tally(outcomes)} in ${elapsed.toFixed(0)} ms; ` +
        `gateway RSS ${(rssBefore / MiB).toFixed(0)} MB before, ${(peak / MiB).toFixed(0)} MB at most, ${(rssBytes(gateway.pid) / MiB).toFixed(0)} MB after; ` +
        `/health ${health.length} polls, max ${(health.at(-1) ?? 0).toFixed(0)} ms`,
    );
  }
}

async function f14(gateway: Gateway, headersAs: (userId: number) => Record<string, string>, sender: number): Promise<void> {
  const query = 'mutation ($ids: [ID!]!) { sendFriendRequests(input: { userIds: $ids }) { ok } }';
  const codes: string[] = [];
  const started = performance.now();
  for (let i = 0; i < F14_REQUESTS; i++) codes.push(codeOf(await graphql(gateway, headersAs(sender), query, { ids: ids(100, i * 100) })));
  const elapsed = performance.now() - started;
  const through = codes.filter((c) => c === 'answered').length * 100;
  console.log(
    `F14 friend-request spam from one account: ${F14_REQUESTS} × 100 recipients in ${(elapsed / 1000).toFixed(1)} s: ${tally(codes)}; ` +
      `${through} of ${F14_REQUESTS * 100} recipients reached the service`,
  );
}

/** Runs F12-F14; `senders`: five users the admin token acts as (each an identity of its own for the recipient limit). */
export async function limitsLoads(
  gateway: Gateway,
  setup: EmulatorSetup,
  headersAs: (userId: number) => Record<string, string>,
  senders: readonly number[],
): Promise<void> {
  if (senders.length < 5) throw new Error('F13 and F14 need five senders');
  await f12(gateway, setup);
  await f13(gateway, headersAs, senders.slice(0, 4));
  await f14(gateway, headersAs, senders[4]!);
}
