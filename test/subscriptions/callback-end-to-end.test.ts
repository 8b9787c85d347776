// The whole push path over real sockets: a message stored by the emulator is called back to the
// gateway's callback route (document 6's body, the shared secret), checked and de-duplicated
// there, handed to the hub and sent to both sides' conversationEvents — with the polls so far
// apart that only the callback can have brought it. The emulator's faults (every callback sent
// twice, the order shuffled) still give each event once.
import { describe, expect, it } from 'vitest';
import { parseCallbackFaults } from '../../src/config/callback-faults';
import { metric } from '../helpers/callbacks';
import type { TestUser } from '../helpers/emulator';
import { type Stack, useStack } from '../helpers/stack';
import { wsClient } from '../helpers/subscriptions/clients';
import { EVENTS, type EventData, sendText, take } from '../helpers/subscriptions/operations';
import { identity } from '../helpers/users';
import { until } from '../helpers/wait';

const SECRET = 'end-to-end-callback-secret';
// Longer than any test here: a poll after the first (the baseline) never runs.
const NEVER_MS = '600000';

const received = (peer: TestUser, id: string, content: string) => ({
  __typename: 'MessageReceived',
  conversationId: String(peer.id),
  messageId: id,
  message: { id, content },
});

/** The emulator calls back every message it stores from now on to the stack's gateway. */
function callBackTo(stack: Stack, faults: string): void {
  stack.emu.server.callBack({ urls: [`${stack.url}/im/callback`], secret: SECRET, faults: parseCallbackFaults(faults) });
}

/** Both users' conversationEvents with each other, once each has read its baseline. */
async function watching(stack: Stack, me: TestUser, peer: TestUser) {
  const { emu } = stack;
  const clients = [me, peer].map((u) => wsClient(stack.url, identity(emu, u)));
  const mine = clients[0]!.feed<EventData>(EVENTS, { with: String(peer.id) });
  const theirs = clients[1]!.feed<EventData>(EVENTS, { with: String(me.id) });
  const baselines = () => emu.calls('GET /message/conversation').length;
  emu.mark();
  await until('both conversations read their baseline', () => baselines() >= 2);
  return { mine, theirs, close: () => Promise.all(clients.map((c) => c.dispose())) };
}

const env = { IM_CALLBACK_SECRET: SECRET, POLL_INTERVAL_MS: NEVER_MS, POLL_INTERVAL_WITH_CALLBACKS_MS: NEVER_MS };

describe("the emulator's callbacks through the gateway's route", () => {
  const stack = useStack(env);

  it('bring a message to both sides of the conversation with no poll', async () => {
    const [me, peer] = [await stack.emu.user(), await stack.emu.user()];
    callBackTo(stack, '');
    const { mine, theirs, close } = await watching(stack, me, peer);
    try {
      const hi = await sendText(stack.emu, peer, me, 'hi, pushed');
      expect(await take(mine, 1)).toEqual([received(peer, hi, 'hi, pushed')]);
      expect(await take(theirs, 1)).toEqual([received(me, hi, 'hi, pushed')]);
      // Nothing was polled for it: the conversation was read for the baselines only.
      expect(stack.emu.calls('GET /message/conversation')).toHaveLength(2);
    } finally {
      await close();
    }
  });
});

describe('callbacks the emulator sends twice and out of order', () => {
  const stack = useStack(env);

  it('give each event once', async () => {
    const [me, peer] = [await stack.emu.user(), await stack.emu.user()];
    callBackTo(stack, 'duplicate=100,reorder=50,seed=7');
    const { mine, close } = await watching(stack, me, peer);
    try {
      const sent = [await sendText(stack.emu, peer, me, 'one'), await sendText(stack.emu, peer, me, 'two')];
      sent.push(await sendText(stack.emu, peer, me, 'three'));
      const events = await take(mine, 3);
      expect(events.map((e) => (e as { messageId: string }).messageId).sort()).toEqual([...sent].sort());
      // The repeats reached the route and were dropped there (or by the subscription): none comes after.
      await until('every repeat answered by the route', async () => (await metric(stack.url, 'im_gateway_callback_duplicates_total')) >= 3);
      expect(mine.pending).toBe(0);
    } finally {
      await close();
    }
  });
});
