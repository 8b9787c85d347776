// Multi-replica mode over a real Redis (the run's own): two gateways share one emulator. Their
// subscribers see the same updates while the emulator is polled once per interval for the
// identity; killing the replica that polls moves polling to the other without losing an update.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway';
import { startEmulator, type TestEmulator } from '../helpers/emulator';
import { type Feed, wsClient } from '../helpers/subscriptions/clients';
import type { TestUser } from '../helpers/emulator';
import { sendText, UNREAD, type UnreadData } from '../helpers/subscriptions/operations';
import { maxPolls, pollsObserved } from '../helpers/subscriptions/polls';
import { sleep, until } from '../helpers/wait';
import { identity } from '../helpers/users';
import { waitForLine } from '../helpers/wait-for-line';

const REDIS_URL = inject('redisUrl');
const INTERVAL = 200;
const PREFIX = `im-gateway-test:${randomBytes(6).toString('hex')}:`;

let emu: TestEmulator;
let redis: Redis;
let child: ChildProcess | undefined;
let childUrl: string;
let gateway: Gateway;
let gatewayUrl: string;

/** Starts the replica to be killed in a process of its own; answers its origin. */
async function startChild(imBaseUrl: string): Promise<string> {
  const script = fileURLToPath(new URL('../helpers/gateway-process.ts', import.meta.url));
  child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: {
      ...process.env,
      IM_BASE_URL: imBaseUrl,
      IM_APP_ID: emu.appId,
      REDIS_URL,
      REDIS_PREFIX: PREFIX,
      POLL_INTERVAL_MS: String(INTERVAL),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const out = await waitForLine(child, /READY \S+\n/);
  return /READY (\S+)/.exec(out)![1]!;
}

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  emu = await startEmulator();
  childUrl = await startChild(emu.url);
  const config = { ...loadConfig({ PORT: '1', IM_APP_ID: emu.appId, REDIS_URL, POLL_INTERVAL_MS: String(INTERVAL) }), port: 0 };
  gateway = createGateway(config, { imBaseUrl: emu.url, redisPrefix: PREFIX });
  gatewayUrl = await gateway.start();
});

afterAll(async () => {
  child?.kill('SIGKILL');
  await gateway?.stop();
  await emu?.stop();
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

/** Ten polls of the unread counts: one poller for the fleet makes no more than one per interval. */
async function expectOnePoller() {
  const { polls, ms } = await pollsObserved(emu, 10, (c) => c.endpoint === 'GET /message/unread');
  expect(polls).toBeLessThanOrEqual(maxPolls(ms, INTERVAL));
}

function expectCount(result: { data?: UnreadData | null }, peer: TestUser, count: number) {
  expect(result.data?.unreadCounts.map((c) => [c.conversationId, c.unreadCount])).toEqual([[String(peer.id), count]]);
}

const MESSAGES = 'subscription($with: ID!) { conversationMessages(with: $with) { id content } }';
type MessagesData = { conversationMessages: { id: string; content: string } };

describe('two replicas sharing Redis', () => {
  it('polls once per interval for the fleet, fans out to both, and survives the death of the polling replica', async () => {
    const me = await emu.user();
    const peer = await emu.user();
    await sendText(emu, peer, me, 'hello');
    const onChild = wsClient(childUrl, identity(emu, me));
    const onMain = wsClient(gatewayUrl, identity(emu, me));
    try {
      // The child subscribes first: it takes the leases and polls.
      const childUnread = onChild.feed<UnreadData>(UNREAD);
      const childMessages = onChild.feed<MessagesData>(MESSAGES, { with: String(peer.id) });
      expectCount(await childUnread.next(), peer, 1);
      // The keys as the check found them: read again, a lease between expiry and renewal could be missing.
      let leaseKeys: string[] = [];
      await until('the child holds both leases', async () => (leaseKeys = await redis.keys(`${PREFIX}lease:*`)).length === 2);
      const childTokens = await redis.mget(...leaseKeys);
      // The other replica's subscriber gets the current counts from the snapshot: the poller, on the
      // child, publishes only changes, and nothing has changed.
      const mainUnread = onMain.feed<UnreadData>(UNREAD);
      const mainMessages = onMain.feed<MessagesData>(MESSAGES, { with: String(peer.id) });
      expectCount(await mainUnread.next(), peer, 1);

      await expectOnePoller();

      // Both replicas' subscribers see the same updates.
      const first = await sendText(emu, peer, me, 'one');
      for (const feed of [childUnread, mainUnread]) expectCount(await feed.next(), peer, 2);
      for (const feed of [childMessages, mainMessages])
        expect((await feed.next()).data?.conversationMessages).toEqual({ id: first, content: 'one' });

      // Kill the polling replica, and send at once: the survivor takes over and loses nothing.
      // On a loaded machine the child may have missed a renewal and the survivor polls already;
      // the takeover is then proven only by the delivery below, not by the lease values.
      const holders = await redis.mget(...leaseKeys);
      const childPolled = holders.every((token, i) => token === childTokens[i]);
      child!.kill('SIGKILL');
      const killedAt = performance.now();
      const second = await sendText(emu, peer, me, 'two');
      expectCount(await mainUnread.next(), peer, 3);
      const recovered = performance.now() - killedAt;
      expect((await mainMessages.next()).data?.conversationMessages).toEqual({ id: second, content: 'two' });
      // Polling resumed once the dead replica's lease expired (1.5 intervals), plus a tick and the
      // round: three intervals on a quiet machine. A loaded one delays timers, hence ten, which
      // still tells a takeover at lease expiry from none (the next() above would have failed).
      expect(recovered).toBeLessThan(10 * INTERVAL);
      if (childPolled) expect(await redis.mget(...leaseKeys)).not.toEqual(holders);

      // One poller again, now on the survivor; nothing was delivered twice.
      await expectOnePoller();
      expect(mainUnread.pending + mainMessages.pending).toBe(0);
    } finally {
      await Promise.all([onChild.dispose(), onMain.dispose()]);
    }
  });

  it('releases its leases when its last subscriber leaves', async () => {
    const me = await emu.user();
    const client = wsClient(gatewayUrl, identity(emu, me));
    const feed: Feed<UnreadData> = client.feed<UnreadData>(UNREAD);
    await feed.next();
    expect(await redis.keys(`${PREFIX}lease:*`)).toHaveLength(1);
    await client.dispose();
    await until('the lease released', async () => (await redis.keys(`${PREFIX}lease:*`)).length === 0);
    emu.mark();
    await sleep(INTERVAL * 4);
    expect(emu.calls('GET /message/unread')).toEqual([]);
  });
});
