// Where pollers run and how their output reaches the topics: in this process (fleet-memory.ts),
// or shared by the replicas through Redis (fleet-redis.ts).
import type { RestClient } from '../rest/client';
import type { RoundTracer } from './poller';
import type { Topic } from './topic';

export interface Fleet {
  /** The topic got its first subscriber here: make sure it is polled and receives the results. */
  join(topic: Topic<unknown>): void;
  /** The topic is released here (no subscriber left, or the poll ended). */
  leave(topic: Topic<unknown>): Promise<void>;
  /** Stops every poller here and lets go of shared resources. */
  close(): Promise<void>;
}

export interface PollSettings {
  rest: RestClient;
  intervalMs: number;
  traceRound?: RoundTracer;
}
