// Callbacks across replicas over a real Redis (the run's own, keys under a prefix of this run): a
// message handed to one replica's sink is published once and reaches the subscribers of both
// sides on either replica, each once, with no history read; a repeat handed to the other replica
// (as when the receiver's de-duplication is down) gives nothing more.
import { describe, expect, inject, it } from 'vitest';
import { useReplicas } from '../helpers/redis-replicas';
import { chat } from '../helpers/subscriptions/callbacks';
import { wsClient } from '../helpers/subscriptions/clients';
import { pollsStopped } from '../helpers/subscriptions/polls';
import { EVENTS, type EventData, sendText, take } from '../helpers/subscriptions/operations';
import { identity } from '../helpers/users';
import { until } from '../helpers/wait';

const fleet = useReplicas({
  redisUrl: inject('redisUrl'),
  intervalMs: 100,
  count: 2,
  env: { POLL_INTERVAL_WITH_CALLBACKS_MS: '600000' },
});

const reads = () => fleet.emu.calls('GET /message/conversation').length;

describe('callbacks on two replicas sharing Redis', () => {
  it("reach both sides' subscribers on either replica, each once, from one replica's sink", async () => {
    const { emu, replicas } = fleet;
    const [me, peer, a, b] = [await emu.user(), await emu.user(), await emu.user(), await emu.user()];
    const [onA, onB] = [wsClient(replicas[0]!.url, identity(emu, me)), wsClient(replicas[1]!.url, identity(emu, peer))];
    try {
      const mine = onA.feed<EventData>(EVENTS, { with: String(peer.id) });
      const theirs = onB.feed<EventData>(EVENTS, { with: String(me.id) });
      emu.mark();
      await until('both conversations polled twice', () => reads() >= 4);
      // A first callback (between two others) slows every replica's polls; then each poll runs once more and waits.
      replicas[0]!.gateway.callbacks.deliver(chat(emu, a, b, '1', 'warm-up'));
      await until('both replicas slowed', async () => {
        const texts = await Promise.all(replicas.map(async ({ url }) => (await fetch(`${url}/metrics`)).text()));
        return texts.every((t) => /^im_gateway_subscription_polls_slowed 1$/m.test(t));
      });
      // A poll asleep at the fast interval when they slowed runs once more, then they go quiet.
      await pollsStopped(emu, 100, (c) => c.endpoint === 'GET /message/conversation');
      emu.mark();

      const hi = await sendText(emu, peer, me, 'hi');
      replicas[0]!.gateway.callbacks.deliver(chat(emu, peer, me, hi, 'hi'));
      replicas[1]!.gateway.callbacks.deliver(chat(emu, peer, me, hi, 'hi')); // a repeat, on the other replica
      const next = await sendText(emu, me, peer, 'next');
      replicas[1]!.gateway.callbacks.deliver(chat(emu, me, peer, next, 'next'));
      const ids = (events: EventData['conversationEvents'][]) => events.map((e) => [e.messageId, e.message?.content]);
      expect(ids(await take(mine, 2))).toEqual([
        [hi, 'hi'],
        [next, 'next'],
      ]);
      expect(ids(await take(theirs, 2))).toEqual([
        [hi, 'hi'],
        [next, 'next'],
      ]);
      expect(reads()).toBe(0);
      expect(mine.pending + theirs.pending).toBe(0);
    } finally {
      await Promise.all([onA.dispose(), onB.dispose()]);
    }
  });
});
