// conversationEvents resumed after a message ID (resumable.ts): the messages after it are read
// from the conversation's history (history-reader.ts), then the poll's events follow.
import { GatewayError } from '../rest/errors';
import { type Int64, toInt64 } from '../rest/json';
import type { MessageRecord } from '../rest/records';
import type { ConversationEvent } from './conversation-events';
import type { SubscriptionEvent } from './events';
import { type PageReader, readSpan } from './history-reader';
import { resumable, type ResumeHooks, type ResumeRules } from './resumable';

export type { ResumeHooks, ResumeRules, ResumeSlot } from './resumable';
export { resumable } from './resumable';

const PAGE = 100;
/** The most messages a resume reads back; older ones are left to the history query. */
const MAX_RESUME = 1_000;

/** What conversationEvents subscribers receive: every event but the poll's own marker. */
export type DeliveredEvent = Exclude<ConversationEvent, { kind: 'baseline' }>;

const big = (id: string | Int64) => BigInt(id);

/** conversationEvents resumed after a message ID. */
export function resumeAfter(
  live: AsyncIterableIterator<SubscriptionEvent<ConversationEvent>>,
  read: PageReader,
  conversationId: Int64,
  after: Int64 | undefined,
  hooks: ResumeHooks = {},
): AsyncIterableIterator<SubscriptionEvent<DeliveredEvent>> {
  const rules: ResumeRules<ConversationEvent, DeliveredEvent> = {
    baseline: (e) => (e.kind === 'baseline' ? String(e.newest) : undefined),
    positionAfter: (e) => (e.kind === 'received' ? String(e.message.msg_id) : undefined),
    isAfter: (e, position) => e.kind !== 'received' || big(e.message.msg_id) > big(position),
    compare: (a, b) => {
      const [x, y] = [big(a), big(b)];
      return x < y ? -1 : x > y ? 1 : 0;
    },
    async read(from, to) {
      const high = to === undefined ? 0 : toInt64(big(to) + 1n);
      const { messages, truncated } = await readSpan(read, big(from), high, PAGE, MAX_RESUME);
      return { events: messages.map((message: MessageRecord) => ({ kind: 'received', conversationId, message })), truncated };
    },
    tooFar: () =>
      new GatewayError(
        `after: more than ${MAX_RESUME} messages came after it; the newest ${MAX_RESUME} follow. Read older ones with conversation(with:, before:).`,
        'BAD_USER_INPUT',
        'after',
      ),
  };
  return resumable(live, rules, after === undefined ? undefined : String(after), hooks);
}
