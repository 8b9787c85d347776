// What a subscription field declares to the hub (hub.ts), beside the field in its domain folder of
// src/schema: its poll (source.ts), how it is fed (polled, pushed by the service's message
// callback, or both), how a payload explodes into events, how its events are buffered for a slow
// client, and how it resumes. The hub serves every declaration through one `subscribe` and learns
// nothing per field: a new field touches its domain folder alone.
import type { Caller } from '../rest/caller';
import type { RestClient } from '../rest/client';
import type { CallbackMessage } from './callback-message';
import type { SubscriptionEvent } from './events';
import type { ResumeHooks } from './resumable';
import type { Source } from './source';

/**
 * How news reaches a field:
 * - `polled`: by its poll alone, at POLL_INTERVAL_MS always;
 * - `polled-slow`: by its poll alone, slowed to the callback interval while callbacks flow (the
 *   callbacks carry nothing of it, but the identity is live: the poll is the safety net);
 * - `pushed`: by callbacks (`pushed` below) and by its poll as the safety net, slowed the same way.
 */
export type Feed = 'polled' | 'polled-slow' | 'pushed';

/** What a topic of the field is, as a callback is matched against it. */
export interface PushTarget<P> {
  /** The identity's user ID (from/to of a message). */
  readonly viewer: string;
  /** The poll's state (undefined: not polled yet, so nothing of the identity is proven). */
  readonly state: string | undefined;
  /** The poll's latest payload, for sources that replay it. */
  readonly latest: P | undefined;
}

/**
 * What a callback means to one topic: a payload to deliver now (a stream's events), `poll` (poll
 * now: the callback says what changed but not enough to tell the new state), or undefined (the
 * message does not concern this topic: the identity is no party to it).
 */
export type Pushed<P> = { payload: P } | 'poll' | undefined;

/** How a stream resumes after a position (resume.ts): `after` comes from the client or its resume slot. */
export interface Resumption<T, D> {
  /** Where a subscriber joining a topic that was polled already stands, from the poll's state. */
  startOf(state: string): string;
  wrap(
    live: AsyncIterableIterator<SubscriptionEvent<T>>,
    rest: RestClient,
    caller: Caller,
    after: string | undefined,
    hooks: ResumeHooks,
  ): AsyncIterableIterator<SubscriptionEvent<D>>;
}

export interface LiveSource<P, T, D = T> {
  readonly source: Source<P>;
  readonly feed: Feed;
  /**
   * `state`: the latest few events are kept (older states are stale anyway); `stream`: a long
   * backlog, then the subscription ends rather than grow without bound.
   */
  readonly buffer: 'state' | 'stream';
  explode(payload: P): readonly T[];
  /** `pushed` fields: what a callback means to a topic of this field. */
  pushed?(message: CallbackMessage, target: PushTarget<P>): Pushed<P>;
  /**
   * `pushed` fields: the messages (IDs) a polled payload found that a callback should have
   * brought. Those no callback brought put the identity back on the fast interval (pace.ts).
   */
  expected?(payload: P): readonly string[];
  readonly resume?: Resumption<T, D>;
}
