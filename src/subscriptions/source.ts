// What a poller polls: one REST read per round, turned into "what changed since the last round".
// A source's state is text, so that it can live in Redis and let another replica carry on where
// the last poller stopped.
import type { Caller } from '../rest/caller';
import type { RestClient } from '../rest/client';

interface PollResult<P> {
  /** The state after this round (what the next round compares against). */
  state: string;
  /** What subscribers receive: absent when nothing changed. */
  payload?: P;
  /** A stream could not reach its last state (too much arrived): something may be missing. */
  incomplete?: boolean;
}

/** How a stream's states (cursors: the newest item seen) order and cut its payloads. */
export interface StreamCursor<P> {
  /** Negative, zero, positive: `a` before, at, after `b`. */
  compare(a: string, b: string): number;
  /** The part of `payload` after `cursor` (undefined when nothing is). */
  after(payload: P, cursor: string): P | undefined;
}

export interface Source<P> {
  /** Names the poll within an identity: 'unread', 'conversation:<peer>'. */
  readonly name: string;
  /**
   * Whether the payload is a state (the latest replaces the others, and a new subscriber gets it
   * at once) rather than a stream of events (a new subscriber gets only what comes next).
   */
  readonly replay: boolean;
  /** Streams: their state is a cursor, so a topic can tell what it missed and what it has. */
  readonly cursor?: StreamCursor<P>;
  /** One round. `state` is undefined on the first round of a new poll. */
  poll(rest: RestClient, caller: Caller, state: string | undefined, signal: AbortSignal): Promise<PollResult<P>>;
}
