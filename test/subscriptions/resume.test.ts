// Resuming conversationEvents after a message ID, with the poll's events and the history scripted:
// the orders of the history read and the poll's first round that a real run hits only by chance.
import { describe, expect, it } from 'vitest';
import { Repeater } from 'graphql-yoga';
import type { ConversationPage, MessageRecord } from '../../src/rest/records';
import type { ConversationEvent } from '../../src/subscriptions/conversation-events';
import type { SubscriptionEvent } from '../../src/subscriptions/hub';
import { type DeliveredEvent, resumeAfter } from '../../src/subscriptions/resume';

const PEER = 7;
const message = (id: number): MessageRecord => ({
  msg_id: id,
  ctype: 'TEXT',
  content: `m${id}`,
  attachment: '',
  config: '',
  ext: '',
  status: 'UNREAD',
  timestamp: id,
  from_xid: { uid: PEER, device_sn: 0 },
  to_xid: { uid: 1, device_sn: 0 },
});

/** A history holding messages 1..newest (changeable), paged backwards as the service does. */
function history() {
  const state = { newest: 0, reads: 0 };
  const read = async (start: number | bigint, limit: number): Promise<ConversationPage> => {
    state.reads++;
    const top = Number(start) === 0 ? state.newest : Number(start) - 1;
    const ids = Array.from({ length: Math.max(0, Math.min(limit, top)) }, (_, i) => top - i);
    const last = ids.at(-1) ?? 0;
    return { messages: ids.map(message), is_last: last <= 1, next_msg_id: last };
  };
  return { state, read };
}

/** A scripted poll: events pushed by the test. */
function poll() {
  let push!: (e: SubscriptionEvent<ConversationEvent>) => Promise<unknown>;
  let joined = false;
  const live = new Repeater<SubscriptionEvent<ConversationEvent>>((p) => {
    push = p;
    joined = true;
  });
  // push resolves only when the next event is asked for: the test never awaits it.
  return { live, emit: (value: ConversationEvent) => push({ value }), joined: () => joined };
}

const ids = (events: SubscriptionEvent<DeliveredEvent>[]) =>
  events.map((e) => ('value' in e && e.value.kind === 'received' ? Number(e.value.message.msg_id) : e));

async function take(it: AsyncIterator<SubscriptionEvent<DeliveredEvent>>, n: number) {
  const out: SubscriptionEvent<DeliveredEvent>[] = [];
  for (let i = 0; i < n; i++) out.push((await it.next()).value as SubscriptionEvent<DeliveredEvent>);
  return out;
}

describe('resumeAfter', () => {
  it('joins the poll before reading the history', async () => {
    const h = history();
    h.state.newest = 5;
    const p = poll();
    let joinedAtRead: boolean | undefined;
    const it = resumeAfter(p.live, (start, limit) => ((joinedAtRead ??= p.joined()), h.read(start, limit)), PEER, 3);
    expect(ids(await take(it, 2))).toEqual([4, 5]);
    expect(joinedAtRead).toBe(true);
    await it.return?.();
  });

  it("reads the gap when a new poll's first round comes after the history read", async () => {
    const h = history();
    h.state.newest = 5;
    const p = poll();
    const it = resumeAfter(p.live, h.read, PEER, 3);
    expect(ids(await take(it, 2))).toEqual([4, 5]);
    // Messages 6 and 7 arrive before the poll's first round, which reports only what follows 7.
    h.state.newest = 7;
    void p.emit({ kind: 'baseline', conversationId: PEER, newest: 7 });
    expect(ids(await take(it, 2))).toEqual([6, 7]);
    void p.emit({ kind: 'received', conversationId: PEER, message: message(8) });
    expect(ids(await take(it, 1))).toEqual([8]);
    await it.return?.();
  });

  it('drops what the poll reports again after the history read had it', async () => {
    const h = history();
    h.state.newest = 6;
    const p = poll();
    const it = resumeAfter(p.live, h.read, PEER, 4);
    expect(ids(await take(it, 2))).toEqual([5, 6]);
    void p.emit({ kind: 'baseline', conversationId: PEER, newest: 4 });
    for (const id of [5, 6, 7]) void p.emit({ kind: 'received', conversationId: PEER, message: message(id) });
    expect(ids(await take(it, 1))).toEqual([7]);
    await it.return?.();
  });

  it('says when more than 1000 messages came after `after`, then sends the newest 1000', async () => {
    const h = history();
    h.state.newest = 1_500;
    const p = poll();
    const it = resumeAfter(p.live, h.read, PEER, 1);
    const [first, ...rest] = await take(it, 1_001);
    expect(first).toMatchObject({ error: { code: 'BAD_USER_INPUT', field: 'after' } });
    expect(ids(rest)).toEqual(Array.from({ length: 1_000 }, (_, i) => 501 + i));
    await it.return?.();
  });

  it('ends the poll subscription when the resumed one ends', async () => {
    const h = history();
    const p = poll();
    const it = resumeAfter(p.live, h.read, PEER, undefined);
    const next = it.next();
    void p.emit({ kind: 'received', conversationId: PEER, message: message(1) });
    expect(ids([(await next).value as SubscriptionEvent<DeliveredEvent>])).toEqual([1]);
    await it.return?.();
    expect(await p.live.next()).toEqual({ done: true, value: undefined });
  });
});
