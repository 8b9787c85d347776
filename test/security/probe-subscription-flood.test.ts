// Probe (issue 20): one WebSocket opened 500 `conversationEvents(with:)` subscriptions on distinct
// users, and kept up 250 REST calls a second for as long as it lived (polls are shared per
// identity and conversation; distinct `with` IDs defeat that). With the default limits the socket
// holds 50: the 51st and every later one are refused with SUBSCRIPTION_LIMIT, the 50 keep
// polling, and the service sees polls of 50 conversations, no more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_SUBSCRIPTIONS_PER_SOCKET } from '../../src/config';
import type { TestUser } from '../helpers/emulator';
import { startStack, type Stack } from '../helpers/stack';
import { type Feed, wsClient } from '../helpers/subscriptions/clients';
import { limitRefusal } from '../helpers/subscriptions/limits';
import { EVENTS } from '../helpers/subscriptions/operations';
import { identity } from '../helpers/users';
import { sleep, until } from '../helpers/wait';

const INTERVAL = 200;
const SUBSCRIPTIONS = 500;
const CAP = DEFAULT_MAX_SUBSCRIPTIONS_PER_SOCKET;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ POLL_INTERVAL_MS: String(INTERVAL) });
});
afterAll(() => stack.stop());

/** The conversations the service was asked for since the mark. */
const polledPeers = () => new Set(stack.emu.calls('GET /message/conversation').map((c) => c.query.opposite_id));

describe('500 conversationEvents subscriptions on one WebSocket', () => {
  it('are held to 50: the 51st and later refused with SUBSCRIPTION_LIMIT, the service polled for those 50 conversations only', async () => {
    const me = await stack.emu.user();
    const peers: TestUser[] = [];
    for (let i = 0; i < CAP + 1; i++) peers.push(await stack.emu.user());
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      stack.emu.mark();
      const admitted = peers.slice(0, CAP).map((p) => client.feed(EVENTS, { with: String(p.id) }));
      await until(`${CAP} conversations polled`, () => polledPeers().size === CAP);

      const refusal = { code: 'SUBSCRIPTION_LIMIT', limit: CAP, scope: 'socket' };
      expect(await limitRefusal(client.feed(EVENTS, { with: String(peers[CAP]!.id) }))).toEqual(refusal);
      // The rest of the flood: distinct IDs (made up; no call is made for a refused one).
      const flood: Feed[] = [];
      for (let i = CAP + 1; i < SUBSCRIPTIONS; i++) flood.push(client.feed(EVENTS, { with: String(3_000_000_000_000 + i) }));
      const outcomes = await Promise.all(flood.map((f) => limitRefusal(f)));
      expect(outcomes.filter((o) => o?.code === 'SUBSCRIPTION_LIMIT')).toHaveLength(SUBSCRIPTIONS - CAP - 1);

      // The 50 live on, and nothing else is polled: a few intervals of polls name the same 50.
      stack.emu.mark();
      await sleep(5 * INTERVAL);
      const live = new Set(peers.slice(0, CAP).map((p) => String(p.id)));
      const polled = [...polledPeers()];
      expect(polled.length).toBeGreaterThan(0);
      expect(polled.filter((id) => !live.has(id ?? ''))).toEqual([]);
      for (const feed of admitted) expect(feed.results.filter((r) => r.errors)).toEqual([]);
    } finally {
      await client.dispose();
    }
  });
});
