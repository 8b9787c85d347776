// A conversationEvents subscription, resumed after a message ID when the client gives one (a
// reconnect): the messages that came after it are read from the history, then the shared poll's
// events follow, each message exactly once. The subscriber joins the poll before reading, so
// nothing falls between: a message is either in the history read or among the poll's events
// (duplicates are dropped by ID). When the poll is new, its first round may come after the read;
// its baseline marker says up to where it will not report, and that gap is read too.
import { Repeater } from '@repeaterjs/repeater';
import { GatewayError } from '../rest/errors';
import { type Int64, toInt64 } from '../rest/json';
import type { MessageRecord } from '../rest/records';
import type { ConversationEvent } from './conversation-events';
import { fromWireError, toWireError } from './events';
import { type PageReader, readSpan } from './history-reader';
import type { SubscriptionEvent } from './events';

const PAGE = 100;
/** The most messages a resume reads back; older ones are left to the history query. */
const MAX_RESUME = 1_000;

/** What subscribers receive: every event but the poll's own marker. */
export type DeliveredEvent = Exclude<ConversationEvent, { kind: 'baseline' }>;

export function resumeAfter(
  live: AsyncIterableIterator<SubscriptionEvent<ConversationEvent>>,
  read: PageReader,
  conversationId: Int64,
  after: Int64 | undefined,
): AsyncIterableIterator<SubscriptionEvent<DeliveredEvent>> {
  return new Repeater<SubscriptionEvent<DeliveredEvent>>(async (push, stop) => {
    // Asking for the first event starts the subscription: it joins the poll before anything is read.
    let pending = live.next();
    const stopped = stop.then(() => ({ done: true, value: undefined }) as const);
    void stopped.then(() => live.return?.());
    const send = (event: SubscriptionEvent<DeliveredEvent>) => Promise.race([push(event), stop]);
    let delivered = after === undefined ? undefined : BigInt(after);

    /** Sends the messages of (low, high); false when the read failed (its error was sent). */
    async function span(low: bigint, high: Int64): Promise<boolean> {
      try {
        const { messages, truncated } = await readSpan(read, low, high, PAGE, MAX_RESUME);
        if (truncated) await send({ error: tooFar() });
        for (const message of messages) await received(message);
        return true;
      } catch (err) {
        await send({ error: fromWireError(toWireError(err)) });
        return false;
      }
    }
    async function received(message: MessageRecord): Promise<void> {
      delivered = BigInt(message.msg_id);
      await send({ value: { kind: 'received', conversationId, message } });
    }

    if (delivered !== undefined && !(await span(delivered, 0))) return stop();
    for (;;) {
      const next = await Promise.race([pending, stopped]);
      if (next.done) return stop();
      pending = live.next();
      const event = next.value;
      if ('error' in event) {
        await send(event);
        continue;
      }
      const value = event.value;
      if (value.kind === 'baseline') {
        // A gap between what was read and where the new poll starts: read it.
        const newest = BigInt(value.newest);
        if (delivered !== undefined && newest > delivered && !(await span(delivered, toInt64(newest + 1n)))) return stop();
      } else if (value.kind === 'received') {
        if (delivered === undefined || BigInt(value.message.msg_id) > delivered) await received(value.message);
      } else {
        await send({ value });
      }
    }
  });
}

function tooFar(): GatewayError {
  return new GatewayError(
    `after: more than ${MAX_RESUME} messages came after it; the newest ${MAX_RESUME} follow. Read older ones with conversation(with:, before:).`,
    'BAD_USER_INPUT',
    'after',
  );
}
