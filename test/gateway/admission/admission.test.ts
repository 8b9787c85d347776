// Admission control over real HTTP and graphql-ws: the estimated cost in flight bounded per
// identity and per replica, a short queue per identity, OVERLOADED with Retry-After beyond it,
// and what an operation holds released however it ends. The service is reached through a proxy
// that holds `GET /user/online_status` until the test opens it, so that `{ me { online } }`
// (estimated at 1 REST call) stays in flight as long as a test needs (identical calls in flight
// are coalesced: several such operations of one user hold one upstream call).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway/create-gateway';
import { startEmulator, type TestEmulator, type TestUser } from '../../helpers/emulator';
import { forward, listen, type Listening } from '../../helpers/proxy';
import { gatewayVia } from '../../helpers/stack';
import { wsClient } from '../../helpers/subscriptions/clients';
import { identity } from '../../helpers/users';
import { until } from '../../helpers/wait';

// Distinct documents: identical operations of one identity in flight share one execution (and one admission).
let made = 0;
const slow = () => `{ me { online } op${made++}: __typename }`;
const CHEAP = '{ me { id } }';

/** The proxy in front of the emulator, and the gate on the held endpoint. */
interface Gate {
  proxy: Listening;
  /** Requests to the held endpoint waiting for `open`. */
  readonly held: number;
  open(): void;
  /** Held requests from now on are answered 500 instead of forwarded. */
  failNext(): void;
  close(): void;
}

function gated(target: string): Promise<Gate> {
  let waiting: (() => void)[] = [];
  let closed = true;
  let failing = false;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/user/online_status')) {
      if (closed) await new Promise<void>((resolve) => waiting.push(resolve));
      if (failing) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('held and failed');
        return;
      }
    }
    await forward(target, req, res);
  };
  return listen((req, res) => void handle(req, res).catch(() => res.destroy())).then((proxy) => ({
    proxy,
    get held() {
      return waiting.length;
    },
    open() {
      closed = false;
      const go = waiting;
      waiting = [];
      for (const resolve of go) resolve();
    },
    failNext() {
      failing = true;
    },
    close() {
      closed = true;
      failing = false;
    },
  }));
}

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] } & unknown[];
}

async function post(url: string, headers: Record<string, string>, body: unknown, signal?: AbortSignal): Promise<Answer> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Answer['body'] };
}

interface World {
  emu: TestEmulator;
  gate: Gate;
  gateway: Gateway;
  url: string;
  users: TestUser[];
}

/** An emulator, the gated proxy and a gateway with `env` through it, and `n` users. */
function world(env: Record<string, string>, n: number): World {
  const w = {} as World;
  beforeAll(async () => {
    w.emu = await startEmulator();
    w.gate = await gated(w.emu.url);
    ({ gateway: w.gateway, url: w.url } = await gatewayVia(w.gate.proxy.url, env));
    w.users = await Promise.all(Array.from({ length: n }, () => w.emu.user()));
  });
  afterEach(async () => {
    // Whatever a test left held ends, and nothing stays counted.
    w.gate.open();
    await until('admission idle', () => w.gateway.admission.inFlight === 0 && w.gateway.admission.waiting === 0);
    w.gate.close();
  });
  afterAll(async () => {
    w.gate?.open();
    await w.gateway?.stop();
    w.gate?.proxy.server.close();
    await w.emu?.stop();
  });
  return w;
}

const overloaded = (answer: { errors?: { extensions?: Record<string, unknown> }[] }) => answer.errors?.[0]?.extensions;

describe('the per-identity bound (2 in flight, 1 waiting)', () => {
  const w = world({ MAX_COST_IN_FLIGHT_PER_IDENTITY: '2', ADMISSION_QUEUE: '1', ADMISSION_WAIT_MS: '60000' }, 2);
  const as = (i: number) => identity(w.emu, w.users[i]!);

  it('queues an operation over the bound, then refuses the next with 429 OVERLOADED and Retry-After', async () => {
    const running = [post(w.url, as(0), { query: slow() }), post(w.url, as(0), { query: slow() })];
    await until('two in flight', () => w.gateway.admission.inFlight === 2);
    const queued = post(w.url, as(0), { query: slow() });
    await until('one waiting', () => w.gateway.admission.waiting === 1);
    const refused = await post(w.url, as(0), { query: slow() });
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(overloaded(refused.body)).toMatchObject({ code: 'OVERLOADED', scope: 'identity', retryAfter: Number(refused.retryAfter) });
    expect(w.gateway.admission).toMatchObject({ inFlight: 2, waiting: 1 });
    w.gate.open();
    for (const answer of await Promise.all([...running, queued])) {
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
    }
  });

  it("admits another identity's cheap request while one identity is at its bound with a queue", async () => {
    const running = [post(w.url, as(0), { query: slow() }), post(w.url, as(0), { query: slow() }), post(w.url, as(0), { query: slow() })];
    await until('two in flight, one waiting', () => w.gateway.admission.inFlight === 2 && w.gateway.admission.waiting === 1);
    const other = await post(w.url, as(1), { query: CHEAP });
    expect(other.status).toBe(200);
    expect(other.body.data).toEqual({ me: { id: String(w.users[1]!.id) } });
    w.gate.open();
    await Promise.all(running);
  });

  it('counts each operation of a batch: two run, one waits, the last is refused at its index', async () => {
    const batch = post(
      w.url,
      as(0),
      Array.from({ length: 4 }, () => ({ query: slow() })),
    );
    await until('two in flight, one waiting', () => w.gateway.admission.inFlight === 2 && w.gateway.admission.waiting === 1);
    w.gate.open();
    const answer = await batch;
    expect(answer.status).toBe(200);
    expect(answer.body.map((result) => overloaded(result as never)?.code)).toEqual([undefined, undefined, undefined, 'OVERLOADED']);
  });

  it('answers an operation over the bound on a WebSocket with an error result, and the socket serves on', async () => {
    const running = [post(w.url, as(0), { query: slow() }), post(w.url, as(0), { query: slow() }), post(w.url, as(0), { query: slow() })];
    await until('two in flight, one waiting', () => w.gateway.admission.inFlight === 2 && w.gateway.admission.waiting === 1);
    const client = wsClient(w.url, as(0));
    try {
      const refused = await client.feed(slow()).next();
      expect(overloaded(refused)).toMatchObject({ code: 'OVERLOADED', scope: 'identity' });
      expect(overloaded(refused)).not.toHaveProperty('http');
      w.gate.open();
      await Promise.all(running);
      const served = await client.feed<{ me: { id: string } }>(CHEAP).next();
      expect(served.data?.me.id).toBe(String(w.users[0]!.id));
    } finally {
      await client.dispose();
    }
  });

  it("counts an operation sharing an identical one's execution nothing: it waits for no admission", async () => {
    const query = slow();
    const first = post(w.url, as(0), { query });
    await until('one in flight', () => w.gateway.admission.inFlight === 1 && w.gate.held > 0);
    const twins = [post(w.url, as(0), { query }), post(w.url, as(0), { query })];
    const other = post(w.url, as(0), { query: slow() });
    await until('the other one in flight too', () => w.gateway.admission.inFlight === 2);
    expect(w.gateway.admission.waiting).toBe(0);
    w.gate.open();
    for (const answer of await Promise.all([first, ...twins, other])) expect(answer.body.errors).toBeUndefined();
  });

  it('releases what an operation held when its upstream call fails', async () => {
    w.gate.failNext();
    const failing = [post(w.url, as(0), { query: slow() }), post(w.url, as(0), { query: slow() })];
    await until('two in flight, held upstream', () => w.gateway.admission.inFlight === 2 && w.gate.held > 0);
    w.gate.open();
    for (const answer of await Promise.all(failing)) expect(answer.body.errors?.length).toBeGreaterThan(0);
    await until('nothing in flight', () => w.gateway.admission.inFlight === 0);
  });

  it('releases a waiting operation whose client went away at once, and a running one when it ends', async () => {
    const running = new AbortController();
    const waiting = new AbortController();
    const sent = [
      post(w.url, as(0), { query: slow() }, running.signal),
      post(w.url, as(0), { query: slow() }),
      post(w.url, as(0), { query: slow() }, waiting.signal),
    ].map((p) => p.catch(() => 'aborted'));
    await until('two in flight, one waiting', () => w.gateway.admission.inFlight === 2 && w.gateway.admission.waiting === 1);
    waiting.abort();
    await until('the waiting one gone', () => w.gateway.admission.waiting === 0);
    running.abort();
    expect(w.gateway.admission.inFlight).toBeGreaterThan(0);
    w.gate.open();
    await Promise.all(sent);
    await until('nothing in flight', () => w.gateway.admission.inFlight === 0 && w.gateway.admission.identities === 0);
  });
});

describe('the replica bound (1 in flight, 1 waiting for at most 300 ms)', () => {
  const w = world({ MAX_COST_IN_FLIGHT: '2', ADMISSION_QUEUE: '1', ADMISSION_WAIT_MS: '300' }, 3);
  const as = (i: number) => identity(w.emu, w.users[i]!);

  it('answers /health and /ready while the replica is at its bound', async () => {
    const running = post(w.url, as(0), { query: slow() });
    await until('one held', () => w.gate.held === 1);
    expect((await fetch(`${w.url}/health`)).status).toBe(200);
    expect((await fetch(`${w.url}/ready`)).status).toBe(200);
    w.gate.open();
    expect((await running).status).toBe(200);
  });

  it("bounds the queue's wait: refused with 503 OVERLOADED and Retry-After, the running one unharmed", async () => {
    const running = post(w.url, as(0), { query: slow() });
    await until('one held', () => w.gate.held === 1);
    const waited = await post(w.url, as(1), { query: slow() });
    expect(waited.status).toBe(503);
    expect(Number(waited.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(overloaded(waited.body)).toMatchObject({ code: 'OVERLOADED', scope: 'replica' });
    expect(w.gate.held).toBe(1);
    w.gate.open();
    expect((await running).body.errors).toBeUndefined();
  });
});

describe('with tokens proven (RATE_LIMIT set): whose load an operation counts as', () => {
  const w = world({ RATE_LIMIT: '10000/1s', MAX_COST_IN_FLIGHT_PER_IDENTITY: '2', ADMISSION_QUEUE: '1', ADMISSION_WAIT_MS: '60000' }, 1);
  const madeUp = (n: number) => ({ ...identity(w.emu, w.users[0]!), 'access-token': `made-up-token-${n}` });

  it("counts made-up tokens from one address as that address, not as a fresh identity each, and a proven user's apart", async () => {
    const proven = identity(w.emu, w.users[0]!);
    // An accepted call proves the user's token (rate-limit/token-proofs.ts).
    expect((await post(w.url, proven, { query: CHEAP })).body.errors).toBeUndefined();
    const running = [post(w.url, madeUp(1), { query: slow() }), post(w.url, madeUp(2), { query: slow() })];
    await until('two in flight', () => w.gateway.admission.inFlight === 2);
    const queued = post(w.url, madeUp(3), { query: slow() });
    await until('one waiting', () => w.gateway.admission.waiting === 1);
    const refused = await post(w.url, madeUp(4), { query: slow() });
    expect(refused.status).toBe(429);
    expect(overloaded(refused.body)).toMatchObject({ code: 'OVERLOADED', scope: 'identity' });
    const own = await post(w.url, proven, { query: CHEAP });
    expect(own.body.data).toEqual({ me: { id: String(w.users[0]!.id) } });
    w.gate.open();
    await Promise.all([...running, queued]);
  });
});
