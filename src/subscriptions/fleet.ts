// Where pollers run and how their output reaches the topics: in this process (fleet-memory.ts),
// or shared by the replicas through Redis (fleet-redis.ts).
import type { RestClient } from '../rest/client';
import type { RoundTracer } from './poller';
import type { Topic } from './topic';

export interface Fleet {
  /** The topic got its first subscriber here: make sure it is polled and receives the results. */
  join(topic: Topic<unknown>): void;
  /** Polls the topic again now, where it is polled (on this replica, or nowhere: another holds it). */
  poke(topic: Topic<unknown>): void;
  /** The topic is released here (no subscriber left, or the poll ended). */
  leave(topic: Topic<unknown>): Promise<void>;
  /** Stops every poller here and lets go of shared resources. */
  close(): Promise<void>;
}

export interface PollSettings {
  rest: RestClient;
  /** The fast interval (without callbacks); leases are timed by it. */
  intervalMs: number;
  /** The interval of a topic's polls now (pace.ts); default `intervalMs`. */
  intervalOf?(topic: Topic<unknown>): number;
  traceRound?: RoundTracer;
}

/** What a poller of `topic` is built with, from the settings. */
export function pollerOptions(settings: PollSettings, topic: Topic<unknown>) {
  const { rest, intervalMs, intervalOf, traceRound } = settings;
  return {
    rest,
    intervalMs,
    source: topic.source,
    caller: topic.caller,
    ...(intervalOf ? { interval: () => intervalOf(topic) } : {}),
    ...(traceRound ? { traceRound } : {}),
  };
}
