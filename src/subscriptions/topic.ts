// A topic: the subscribers of one poll (one source for one identity) on this replica, and the
// fan-out of what the poll publishes to them. Values carry a sequence number, so one that arrives
// twice (a snapshot read while it was being published) is delivered once.
import type { Caller } from '../rest/caller';
import type { Snapshot, TopicEvent, WireError } from './events';
import type { Source } from './source';

export interface Subscriber<P> {
  value(payload: P): void;
  /** A failed round; more may follow. */
  error(error: WireError): void;
  /** The last thing this subscriber receives. */
  end(error?: WireError): void;
}

export class Topic<P> {
  private readonly subscribers = new Set<Subscriber<P>>();
  private seq = 0;
  private latest: P | undefined;
  private released = false;

  /** `release`: called once, when the last subscriber leaves or the poll ends. */
  constructor(
    readonly key: string,
    readonly source: Source<P>,
    readonly caller: Caller,
    private readonly release: () => void,
  ) {}

  /** Whether subscribers may still join (else the hub opens a new topic for the key). */
  get open(): boolean {
    return !this.released;
  }

  add(subscriber: Subscriber<P>): void {
    this.subscribers.add(subscriber);
    if (this.source.replay && this.latest !== undefined) subscriber.value(this.latest);
  }

  remove(subscriber: Subscriber<P>): void {
    this.subscribers.delete(subscriber);
    if (this.subscribers.size === 0) this.close();
  }

  /** The state a previous poll left (another replica's), read when this replica joins. */
  restore(snapshot: Snapshot<P>): void {
    if (snapshot.latest !== undefined) this.receive({ type: 'value', seq: snapshot.seq, payload: snapshot.latest });
    else this.seq = Math.max(this.seq, snapshot.seq);
  }

  receive(event: TopicEvent<P>): void {
    if (event.type === 'value') {
      if (event.seq <= this.seq) return;
      this.seq = event.seq;
      if (this.source.replay) this.latest = event.payload;
      for (const s of this.subscribers) s.value(event.payload);
    } else if (event.type === 'error') {
      for (const s of this.subscribers) s.error(event.error);
    } else {
      this.close();
      for (const s of [...this.subscribers]) s.end(event.error);
    }
  }

  /** Ends every subscription (shutdown). */
  endAll(): void {
    this.close();
    for (const s of [...this.subscribers]) s.end();
  }

  private close(): void {
    if (this.released) return;
    this.released = true;
    this.release();
  }
}
