// A topic: the subscribers of one poll (one source for one identity) on this replica, and the
// fan-out of what the poll publishes to them. The topic keeps the source's state as its
// subscribers have it, so that whatever poller feeds it (this replica's, another's through Redis,
// a new one after Redis lost everything) nothing is delivered twice or out of order:
// - a state source (unread counts) keeps the newest value by `seq` and skips repeats;
// - a stream (messages) keeps its cursor, delivers only what lies after it, and when a value
//   starts past the cursor (a publication it never got) polls the gap itself before going on. If
//   it cannot, the subscriptions end with UPSTREAM_UNAVAILABLE and the clients refetch.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Caller } from '../rest/caller';
import type { RestClient } from '../rest/client';
import { GAP, isTerminal, type Snapshot, type TopicEvent, toWireError, type WireError } from './events';
import type { Source } from './source';

export interface Subscriber<P> {
  value(payload: P): void;
  /** What a callback brought, ahead of the poll (live-source.ts). */
  pushed(payload: P): void;
  /** A failed round; more may follow. */
  error(error: WireError): void;
  /** The last thing this subscriber receives. */
  end(error?: WireError): void;
}

type Value<P> = Extract<TopicEvent<P>, { type: 'value' }>;

// Catching up: a few tries, a short pause between them (the gap only grows while we wait).
const CATCH_UP_TRIES = 3;
const CATCH_UP_PAUSE_MS = 250;

export class Topic<P> {
  private readonly subscribers = new Set<Subscriber<P>>();
  private seq = 0;
  /** The source's state as this topic's subscribers have it (a stream's cursor). */
  private state: string | undefined;
  private latest: P | undefined;
  private released = false;
  /** While a stream catches up: what arrived meanwhile, handled after it. */
  private queue: TopicEvent<P>[] | undefined;
  private catchingUp: AbortController | undefined;

  /** `release`: called once, when the last subscriber leaves or the poll ends. */
  constructor(
    readonly key: string,
    readonly source: Source<P>,
    readonly caller: Caller,
    private readonly rest: RestClient,
    private readonly release: () => void,
  ) {}

  /** Whether subscribers may still join (else the hub opens a new topic for the key). */
  get open(): boolean {
    return !this.released;
  }

  /** Where this topic's subscribers stand, for a poller to carry on from (undefined: nowhere yet). */
  position(): Snapshot<P> | undefined {
    if (this.state === undefined) return undefined;
    return { seq: this.seq, state: this.state, ...(this.latest !== undefined ? { latest: this.latest } : {}) };
  }

  add(subscriber: Subscriber<P>): void {
    this.subscribers.add(subscriber);
    if (this.source.replay && this.latest !== undefined) subscriber.value(this.latest);
  }

  remove(subscriber: Subscriber<P>): void {
    this.subscribers.delete(subscriber);
    if (this.subscribers.size === 0) this.close();
  }

  /** The state a poll left in Redis, read when this replica joins or comes back. */
  restore(snapshot: Snapshot<P>): void {
    const { seq, state, latest } = snapshot;
    this.receive({ type: 'value', seq, state, ...(latest !== undefined ? { payload: latest } : {}) });
  }

  receive(event: TopicEvent<P>): void {
    if (this.released) return;
    if (this.queue) {
      this.queue.push(event);
    } else if (event.type === 'value') {
      this.value(event);
    } else if (event.type === 'error') {
      for (const s of this.subscribers) s.error(event.error);
    } else {
      this.end(event.error);
    }
  }

  /** The poll's state and latest payload as this topic's subscribers have them (a callback is matched against them). */
  get polled(): { state: string | undefined; latest: P | undefined } {
    return { state: this.state, latest: this.latest };
  }

  /** Delivers what a callback brought: outside the poll's order (the poll confirms it later; resume.ts drops the repeat). */
  push(payload: P): void {
    if (this.released) return;
    for (const s of this.subscribers) s.pushed(payload);
  }

  /** Ends every subscription (shutdown). */
  endAll(): void {
    this.end();
  }

  private end(error?: WireError): void {
    this.close();
    for (const s of [...this.subscribers]) s.end(error);
  }

  private value(event: Value<P>): void {
    const cursor = this.source.cursor;
    if (!cursor) {
      // A state: the newest wins; the same state from another poller is no news.
      if (event.seq <= this.seq) return;
      this.seq = event.seq;
      if (event.state === this.state) return;
      this.state = event.state;
      if (event.payload === undefined) return;
      if (this.source.replay) this.latest = event.payload;
      this.deliver(event.payload);
      return;
    }
    this.seq = Math.max(this.seq, event.seq);
    if (this.state === undefined) {
      this.state = event.state;
      if (event.payload !== undefined) this.deliver(event.payload);
      return;
    }
    if (cursor.compare(event.state, this.state) <= 0) return; // had it all
    if (event.after === undefined || cursor.compare(event.after, this.state) > 0) {
      // Something between our cursor and this value never reached us.
      this.queue = [event];
      this.catchUp(this.state);
      return;
    }
    const news = event.payload === undefined ? undefined : cursor.after(event.payload, this.state);
    this.state = event.state;
    if (news !== undefined) this.deliver(news);
  }

  private deliver(payload: P): void {
    for (const s of this.subscribers) s.value(payload);
  }

  /** Polls the stream from `from` to now, delivers that, then what was queued meanwhile. */
  private catchUp(from: string): void {
    const abort = new AbortController();
    this.catchingUp = abort;
    void (async () => {
      for (let tries = 1; ; tries++) {
        try {
          const result = await this.source.poll(this.rest, this.caller, from, abort.signal);
          if (abort.signal.aborted) return;
          if (result.incomplete) return this.end(GAP);
          const queued = this.queue ?? [];
          this.queue = undefined;
          this.catchingUp = undefined;
          this.value({
            type: 'value',
            seq: this.seq,
            state: result.state,
            after: from,
            ...(result.payload !== undefined ? { payload: result.payload } : {}),
          });
          for (const event of queued) this.receive(event);
          return;
        } catch (err) {
          if (abort.signal.aborted) return;
          if (isTerminal(err)) return this.end(toWireError(err));
          if (tries >= CATCH_UP_TRIES) return this.end(GAP);
          await sleep(CATCH_UP_PAUSE_MS * tries, undefined, { signal: abort.signal }).catch(() => {});
          if (abort.signal.aborted) return;
        }
      }
    })();
  }

  private close(): void {
    if (this.released) return;
    this.released = true;
    this.catchingUp?.abort();
    this.queue = undefined;
    this.release();
  }
}
