// No leaked sockets: 1,000 calls mixing successes and every failure shape keep the sockets open
// at the server within the pool size, and all finish. The call timeout (which is also undici's idle
// limit) is long here, so a body left neither read nor destroyed would hold its socket for seconds
// and, with a pool of 4, stall the calls queued behind it past the test's time limit: the 200
// oversized bodies would hold the pool for minutes, the right client takes seconds even on a busy
// machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestClient } from '../../src/rest/client';
import { UpstreamError } from '../../src/rest/errors';
import { envelope, failure, type Script, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server';

const CONNECTIONS = 4;
const CALLS = 1_000;
const BATCH = 25;
const BIG_TEXT = 'z'.repeat(1024 * 1024);
const BIG_BODY = `{"code":200,"data":"${BIG_TEXT}"}`;

let server: ScriptedServer;
let rest: ReturnType<typeof createRestClient>;
let peakWhileRunning = 0;

// The shape of the answer is chosen by the request's `limit` query value (its call number).
const script: Script = (req, res) => {
  const n = Number(req.query.get('limit') ?? req.query.get('value') ?? 0);
  switch (n % 10) {
    case 4:
      return failure(20001, 'group does not exist');
    case 5:
      return { status: 500, headers: { 'content-type': 'text/html' }, body: '<html>oops</html>' };
    case 6:
      // Too large, announced by content-length: never read. Larger than undici's buffers, so a body
      // left unconsumed would hold its socket.
      return { headers: { 'content-length': String(BIG_BODY.length) }, body: BIG_BODY };
    case 7:
      // Too large and chunked: read until the limit, then destroyed.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"code":200,"data":"${'y'.repeat(1_000)}`);
      res.end(`${BIG_TEXT}"}`);
      return;
    case 8:
      if (n % 20 === 8) return { status: 502, body: 'bad gateway' };
      res.socket?.destroy();
      return;
    case 9:
      // Never answered: the caller gives up (its abort signal) and the socket must go.
      if (n % 50 === 9) return new Promise<void>(() => undefined);
      return { status: 200, body: '' };
    default:
      return envelope([], { cursor: '', total: 0 });
  }
};

beforeAll(async () => {
  server = await startScriptedServer(script);
  rest = createRestClient({
    baseUrl: server.url,
    connections: CONNECTIONS,
    maxResponseBytes: 2_000,
    callTimeoutMs: 5_000,
    retries: 1,
    retryBaseDelayMs: 1,
  });
});
afterAll(async () => {
  await rest.close();
  await server.close();
});

describe('REST client sockets', () => {
  it(`keeps open sockets within the pool size over ${CALLS} calls with mixed failures, and every call settles`, async () => {
    const outcomes = new Map<string, number>();
    const sampler = setInterval(() => {
      peakWhileRunning = Math.max(peakWhileRunning, server.openConnections());
    }, 5);
    try {
      for (let start = 0; start < CALLS; start += BATCH) {
        const batch = Array.from({ length: BATCH }, (_, k) => {
          const n = start + k;
          const signal = AbortSignal.timeout(n % 50 === 9 ? 30 : 4_000);
          // Alternate a GET (retried on 502 and broken sockets) and a write (never retried).
          const pending =
            n % 2 === 0
              ? rest.call('GET /group/member_list', { group_id: 1, limit: n }, { token: 't' }, { signal })
              : rest.call('PUT /user/push/nickname', { value: String(n) }, { token: 't' }, { signal });
          return pending.then(
            () => 'ok',
            (err: unknown) => (err instanceof UpstreamError ? err.kind : signal.aborted ? 'aborted' : 'unexpected'),
          );
        });
        for (const outcome of await Promise.all(batch)) outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
    } finally {
      clearInterval(sampler);
    }

    const settled = [...outcomes.values()].reduce((a, b) => a + b, 0);
    expect(settled).toBe(CALLS);
    expect(outcomes.get('unexpected')).toBeUndefined();
    for (const kind of ['ok', 'envelope', 'http', 'invalid-body', 'unavailable', 'aborted']) {
      expect(outcomes.get(kind), kind).toBeGreaterThan(0);
    }
    // Sockets the client destroyed may still look open to the server for a moment, hence the sampling
    // at the server while the calls run as well as the pool bound itself.
    expect(peakWhileRunning).toBeLessThanOrEqual(CONNECTIONS);
    expect(server.openConnections()).toBeLessThanOrEqual(CONNECTIONS);

    // The pool still works after all that.
    server.setScript(() => envelope(true));
    await expect(rest.call('PUT /user/push', { value: true }, {})).resolves.toEqual({ data: true });
  }, 60_000);
});
