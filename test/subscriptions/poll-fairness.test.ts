// Polls share the upstream sockets fairly with queries: at most IM_POLL_CONNECTIONS poll calls are
// under way at once (a quarter of IM_CONNECTIONS by default), the others wait in the gateway, so a
// query never queues behind a burst of polls. Shown with a service whose poll endpoint hangs: many
// pollers hold what they may of the sockets, and a query still answers at once.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway/create-gateway';
import { backgroundGate } from '../../src/rest/background';
import { startEmulator, type TestEmulator } from '../helpers/emulator';
import { close, forward, type Listening, listen } from '../helpers/proxy';
import { gatewayVia } from '../helpers/stack';
import { type Feed, sseFeed } from '../helpers/subscriptions/clients';
import { UNREAD } from '../helpers/subscriptions/operations';
import { identity } from '../helpers/users';
import { until } from '../helpers/wait';

const CONNECTIONS = 8;
const POLLERS = 12;

let emu: TestEmulator;
let proxy: Listening;
let gateway: Gateway;
let url: string;
/** Polls that reached the service and wait for an answer that does not come. */
const held: ServerResponse[] = [];

beforeAll(async () => {
  emu = await startEmulator();
  // The service, except that its unread counts (what unreadCounts polls) never answer.
  proxy = await listen((req, res) => {
    if (req.url?.startsWith('/message/unread')) held.push(res);
    else return forward(emu.url, req, res);
  });
  ({ gateway, url } = await gatewayVia(proxy.url, {
    IM_APP_ID: emu.appId,
    IM_CONNECTIONS: String(CONNECTIONS),
    IM_CALL_TIMEOUT_MS: '60000',
  }));
});

afterAll(async () => {
  for (const res of held) res.destroy();
  await gateway?.stop();
  await close(proxy.server);
  await emu?.stop();
});

async function queuedPolls(): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^im_gateway_polls_queued (\S+)$/m.exec(text)?.[1]);
}

describe('polls and queries on the upstream sockets', () => {
  it('lets polls hold at most their share of the sockets: a query answers while polls queue', async () => {
    const users = await Promise.all(Array.from({ length: POLLERS }, () => emu.user()));
    const feeds: Feed[] = users.map((u) => sseFeed(url, identity(emu, u), UNREAD));
    try {
      const share = CONNECTIONS / 4;
      await until(
        'the pollers hold their share and queue the rest',
        async () => held.length === share && (await queuedPolls()) === POLLERS - share,
      );
      // Every poll held, and more sockets than that free: a query gets one at once.
      const reply = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...identity(emu, users[0]!) },
        body: JSON.stringify({ query: '{ me { id nickName } }' }),
      });
      expect(await reply.json()).toEqual({ data: { me: { id: String(users[0]!.id), nickName: expect.any(String) } } });
      expect(held.length).toBe(share);
    } finally {
      await Promise.all(feeds.map((f) => f.close()));
    }
  });
});

describe('the background gate', () => {
  it('runs at most its limit at once, in order, and drops a waiting task whose signal aborts', async () => {
    const gate = backgroundGate(2);
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const task = (n: number) => () =>
      new Promise<number>((resolve) => {
        started.push(n);
        finish[n] = () => resolve(n);
      });
    const abort = new AbortController();
    const runs = [gate.run(task(0)), gate.run(task(1)), gate.run(task(2), abort.signal), gate.run(task(3))];
    await until('two tasks started', () => started.length === 2);
    expect(gate.stats()).toEqual({ running: 2, queued: 2 });
    abort.abort(new Error('stopped'));
    await expect(runs[2]).rejects.toThrow('stopped');
    finish[0]!();
    await until('the next one started', () => started.length === 3);
    expect(started).toEqual([0, 1, 3]);
    finish[1]!();
    finish[3]!();
    expect(await Promise.all([runs[0], runs[1], runs[3]])).toEqual([0, 1, 3]);
    expect(gate.stats()).toEqual({ running: 0, queued: 0 });
  });
});
