// Identical queries in flight run once (SHARE_QUERIES): requests that arrive while a query of the
// same document, operation, variables and identity executes get its answer, and the IM service
// sees that execution's calls alone. REST coalescing is off here (IM_COALESCE=false), so that each
// execution's calls reach the service: one call seen means one execution. The service holds every
// call until the test lets it go, so the requests are all in flight at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator, type TestUser } from '../../helpers/emulator';
import { forward, listen, type Listening } from '../../helpers/proxy';
import { gatewayVia } from '../../helpers/stack';
import { until } from '../../helpers/wait';

let emu: TestEmulator;
let alice: TestUser;
let bob: TestUser;
let upstream: Listening;
/** While holding, the upstream holds every call until the test lets them go together. */
let holding = false;
const held: (() => void)[] = [];
const letGo = () => {
  holding = false;
  held.splice(0).forEach((release) => release());
};

beforeAll(async () => {
  emu = await startEmulator();
  [alice, bob] = await Promise.all([emu.user(), emu.user()]);
  upstream = await listen(async (req, res) => {
    if (holding) await new Promise<void>((resolve) => held.push(resolve));
    await forward(emu.url, req, res);
  });
});
afterAll(async () => {
  letGo();
  upstream.server.close();
  await emu.stop();
});

type Gateway = Awaited<ReturnType<typeof gatewayVia>>;

function post(gw: Gateway, who: TestUser, query: string, variables?: Record<string, unknown>) {
  return fetch(`${gw.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', app_id: emu.appId, 'access-token': who.token },
    body: JSON.stringify({ query, ...(variables ? { variables } : {}) }),
  }).then(async (res) => ({
    status: res.status,
    body: (await res.json()) as { data?: unknown; errors?: { message: string; extensions?: unknown }[] },
  }));
}

/** Queries answered by another's execution so far, from the gateway's metrics. */
async function sharedSoFar(gw: Gateway): Promise<number> {
  const text = await (await fetch(gw.gateway.metricsUrl ?? `${gw.url}/metrics`)).text();
  return Number(/^im_gateway_shared_executions_total (\S+)$/m.exec(text)?.[1] ?? 0);
}

/**
 * Sends the requests at once while the upstream holds every call; lets the calls go once `held`
 * calls are held and `shared` more requests joined an execution in flight. Answers the replies and
 * how many calls the service got.
 */
async function together(gw: Gateway, expected: { held: number; shared: number }, send: () => ReturnType<typeof post>[]) {
  const sharedBefore = await sharedSoFar(gw);
  emu.mark();
  holding = true;
  const replies = send();
  try {
    await until(`${expected.held} calls held, ${expected.shared} requests sharing`, async () => {
      return held.length >= expected.held && (await sharedSoFar(gw)) - sharedBefore >= expected.shared;
    });
  } finally {
    letGo();
  }
  const answers = await Promise.all(replies);
  expect((await sharedSoFar(gw)) - sharedBefore).toBe(expected.shared);
  return { answers, calls: emu.calls().length };
}

describe.each([
  ['shared', 'true'],
  ['not shared', 'false'],
])('SHARE_QUERIES: %s', (_label, share) => {
  let gw: Gateway;
  beforeAll(async () => {
    gw = await gatewayVia(upstream.url, { SHARE_QUERIES: share, IM_COALESCE: 'false', METRICS: 'true' });
  });
  afterAll(() => gw.gateway.stop());
  const sharing = share === 'true';

  it(
    sharing ? 'five identical queries in flight make one execution, each answered in full' : 'five identical queries make five executions',
    async () => {
      const query = 'query Me { me { id username } }';
      const { answers, calls } = await together(gw, { held: sharing ? 1 : 5, shared: sharing ? 4 : 0 }, () =>
        Array.from({ length: 5 }, () => post(gw, alice, query)),
      );
      for (const a of answers) expect(a).toEqual({ status: 200, body: { data: { me: { id: String(alice.id), username: alice.name } } } });
      expect(calls).toBe(sharing ? 1 : 5);
    },
  );

  it('queries of two identities never share', async () => {
    const query = '{ me { id } }';
    const { answers, calls } = await together(gw, { held: sharing ? 2 : 3, shared: sharing ? 1 : 0 }, () => [
      post(gw, alice, query),
      post(gw, bob, query),
      post(gw, alice, query),
    ]);
    expect(answers.map((a) => (a.body.data as { me: { id: string } }).me.id)).toEqual([alice.id, bob.id, alice.id].map(String));
    expect(calls).toBe(sharing ? 2 : 3);
  });

  it('queries with other variables never share', async () => {
    const query = 'query Home($n: Int!) { me { conversations(first: $n) { totalCount } } }';
    // Each execution makes its own calls (held: 2); none joins the other's (shared: 0, checked by together).
    const { answers } = await together(gw, { held: 2, shared: 0 }, () => [
      post(gw, alice, query, { n: 1 }),
      post(gw, alice, query, { n: 2 }),
    ]);
    for (const a of answers) expect(a.body).toEqual({ data: { me: { conversations: { totalCount: 0 } } } });
  });

  it("a failed execution's error reaches every request that shared it", async () => {
    const stranger: TestUser = { ...alice, token: 'not-a-token' };
    const { answers } = await together(gw, { held: sharing ? 1 : 3, shared: sharing ? 2 : 0 }, () =>
      Array.from({ length: 3 }, () => post(gw, stranger, '{ me { id } }')),
    );
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body.errors?.[0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
    }
  });

  it('a query that starts after a mutation never joins one that started before it', async () => {
    const me = '{ me { id username } }';
    const { answers } = await together(gw, { held: 3, shared: 0 }, () => {
      const first = post(gw, alice, me);
      // Each next request once the one before has made its call (held at the upstream).
      const write = until('the first query at the service', () => held.length >= 1).then(() =>
        post(gw, alice, 'mutation { setNickname(input: { nickName: "a" }) { ok } }'),
      );
      const second = until('the mutation at the service', () => held.length >= 2).then(() => post(gw, alice, me));
      return [first, write, second];
    });
    for (const a of answers) expect(a.body.errors).toBeUndefined();
  });

  it('a mutation is never shared', async () => {
    const mutation = 'mutation { setNickname(input: { nickName: "alice" }) { ok } }';
    const { answers, calls } = await together(gw, { held: 2, shared: 0 }, () => [post(gw, alice, mutation), post(gw, alice, mutation)]);
    for (const a of answers) expect(a.body.errors).toBeUndefined();
    expect(calls).toBe(2);
  });
});
