// The gateway's subscriptions: every field's subscription goes through one `subscribe`, given
// the field's declaration (live-source.ts, beside the field in src/schema) and the identity.
// Subscribers of the same poll (same source, same identity: the Identity's key) share one topic,
// and each topic is polled once, here or by one replica of the fleet. The service's message
// callbacks come in through `deliver` (the CallbackSink), reach every replica (callback-fanout.ts)
// and feed the topics they concern; while they flow, polls slow down to the safety net's pace
// (pace.ts). Subscribers get values and errors as events; the schema turns those into GraphQL
// results. The hub knows no field: a new one touches its domain folder alone.
import { FixedBuffer, Repeater, SlidingBuffer } from '@repeaterjs/repeater';
import type { Caller, Identity } from '../identity';
import type { SharedRedis } from '../redis/shared-redis';
import type { RestClient } from '../rest/client';
import type { ProvenTokens } from '../rest/proven-tokens';
import { classifyUpstreamError, GatewayError, UpstreamError } from '../rest/errors';
import type { CallbackMessage, CallbackSink } from './callback-message';
import { type CallbackFanout, localFanout } from './callback-fanout';
import { fromWireError, type SubscriptionEvent } from './events';
import type { Fleet } from './fleet';
import { memoryFleet } from './fleet-memory';
import type { LiveSource } from './live-source';
import { Pace } from './pace';
import type { RoundTracer } from './poller';
import type { ResumeHooks } from './resumable';
import type { Source } from './source';
import { type Subscriber, Topic } from './topic';
import { warner } from './warn';

interface SubscriptionHubOptions {
  rest: RestClient;
  /** The REST client of polls (and their catch-up and resume reads): default `rest` (rest/background.ts gates it). */
  pollRest?: RestClient;
  /** The poll interval without callbacks (POLL_INTERVAL_MS). */
  intervalMs: number;
  /** The poll interval of pushed and slowed fields while callbacks arrive (POLL_INTERVAL_WITH_CALLBACKS_MS). Default 30 s. */
  slowIntervalMs?: number;
  /** The gateway's record of proven tokens: a connection with a proven token is not checked again. */
  tokens?: ProvenTokens | undefined;
  /** Set: replicas share pollers and callbacks through this Redis (started before the hub). */
  redis?: SharedRedis | undefined;
  /** Each poll round a trace of its own (the gateway's tracing). */
  traceRound?: RoundTracer;
}

export type { SubscriptionEvent } from './events';

/** What this replica's subscriptions amount to, now and since the start. */
export interface SubscriptionStats {
  /** Open subscriptions here. */
  subscribers: number;
  /** Topics (one poll for one identity) with subscribers here; without Redis, each is polled here. */
  topics: number;
  /** Poll rounds run here, and those that failed. */
  polls: number;
  pollErrors: number;
  /** Callback messages that reached this replica (from any replica's receiver). */
  callbacks: number;
  /** Times a poll found what no callback brought: an identity (or the replica) went back to the fast interval. */
  fallbacks: number;
  /** Whether polls run at the slow interval (callbacks arrive). */
  slowed: boolean;
}

/** Hears the position of what a stream subscription delivered (where a retry resumes). */
export type Mark = (position: string) => void;

/** What a WebSocket connection's identity amounts to, checked when it connects. */
export type Verdict = 'ok' | 'unauthenticated' | 'forbidden';

/** Who subscribes: the caller the polls act as, and the Identity's key that names its topics. */
export type Subscribing = Pick<Identity, 'caller' | 'key'>;

export interface SubscriptionHub extends CallbackSink {
  /** Connects to Redis in multi-replica mode; nothing to do otherwise. */
  start(): Promise<void>;
  /**
   * The one door: a subscription to `live` (a field's declaration) for `identity`; a stream that
   * resumes does so after `resume.after` (checked by the field's resumption), `resume.mark` hears
   * what it delivered.
   */
  subscribe<P, T, D>(
    identity: Subscribing,
    live: LiveSource<P, T, D>,
    resume?: { after?: string | undefined; mark?: Mark | undefined },
  ): AsyncIterableIterator<SubscriptionEvent<D>>;
  /** A message the service called back (callback-message.ts): to every replica's subscribers it concerns. */
  deliver(message: CallbackMessage): void;
  /** Checks a connection's identity with the service (a proven token is not checked again: rest/proven-tokens.ts). */
  verify(identity: Pick<Identity, 'caller'>): Promise<Verdict>;
  /** Counts for the metrics (read-only). */
  stats(): SubscriptionStats;
  /** Completes every subscription and stops every poller. */
  close(): Promise<void>;
}

// A state source keeps the latest few events (older states are stale anyway); a stream of
// messages keeps a long backlog for a slow client, then ends it rather than grow without bound.
const BUFFERS = { state: () => new SlidingBuffer(4), stream: () => new FixedBuffer(256) } as const;
/** Message IDs callbacks brought, remembered to tell a poll's finds from what they brought (and repeats). */
const MAX_BROUGHT = 50_000;
/** How long a poll's find waits for its callback (the callback may trail the send a little) before it counts as unexplained. */
const CALLBACK_GRACE_MS = 2_000;
const DEFAULT_SLOW_MS = 30_000;
/** Identities whose user ID is remembered for callbacks (cleared whole past this: re-read on demand). */
const MAX_VIEWERS = 10_000;

/** A topic with what the hub needs of it: the field's declaration and the identity's key. */
interface Entry {
  readonly topic: Topic<unknown>;
  readonly live: LiveSource<unknown, unknown, unknown>;
  readonly identity: string;
}

const warn = warner('subscriptions');

export function createSubscriptionHub(options: SubscriptionHubOptions): SubscriptionHub {
  const pollRest = options.pollRest ?? options.rest;
  const counts = { subscribers: 0, polls: 0, pollErrors: 0, callbacks: 0, fallbacks: 0 };
  const pace = new Pace({
    fastMs: options.intervalMs,
    slowMs: options.slowIntervalMs ?? DEFAULT_SLOW_MS,
    onFallback(identity, why) {
      counts.fallbacks++;
      warn(`${identity === undefined ? 'the replica' : 'an identity'} is back on the fast poll interval: ${why}`);
      for (const entry of entries.values()) if (identity === undefined || entry.identity === identity) fleet?.poke(entry.topic);
    },
  });
  const entries = new Map<Topic<unknown>, Entry>();
  const settings = {
    rest: pollRest,
    intervalMs: options.intervalMs,
    intervalOf: (topic: Topic<unknown>) => {
      const entry = entries.get(topic);
      return entry ? pace.intervalOf(entry.identity, entry.live.feed) : options.intervalMs;
    },
    ...(options.traceRound ? { traceRound: options.traceRound } : {}),
  };
  let fleet: Fleet | undefined = options.redis ? undefined : memoryFleet(settings);
  let fanout: CallbackFanout = localFanout(receive);
  let closed = false;
  const topics = new Map<string, Topic<unknown>>();
  const leaving = new Set<Promise<void>>();
  /** The user ID of each identity with pushed topics (from/to of a callback are user IDs). */
  const viewers = new Map<string, Promise<string | undefined>>();
  const brought = new Set<string>();

  /** The source as it was, counting its rounds (a round cut short by a stop is no failure) and checking its finds. */
  function counted<P>(source: Source<P>, live: LiveSource<P, unknown, unknown>, identity: string): Source<P> {
    return {
      ...source,
      async poll(rest, caller, state, signal) {
        counts.polls++;
        try {
          const result = await source.poll(rest, caller, state, signal);
          if (state !== undefined && result.payload !== undefined && live.expected) checkFinds(identity, live.expected(result.payload));
          return result;
        } catch (err) {
          if (!signal.aborted) counts.pollErrors++;
          throw err;
        }
      },
    };
  }

  /** What a poll found and no callback brought (after a grace for callbacks that trail): the safety net caught it. */
  function checkFinds(identity: string, ids: readonly string[]): void {
    if (!pace.slowed || ids.length === 0) return;
    const missing = () => ids.filter((id) => !brought.has(id));
    if (missing().length === 0) return;
    setTimeout(() => {
      const still = missing();
      if (still.length > 0 && !closed) pace.unexplained(identity, still);
    }, CALLBACK_GRACE_MS).unref();
  }

  function release(topic: Topic<unknown>): void {
    if (topics.get(topic.key) === topic) topics.delete(topic.key);
    entries.delete(topic);
    const left = fleet!.leave(topic).finally(() => leaving.delete(left));
    leaving.add(left);
  }

  function topicFor<P>(identity: Subscribing, live: LiveSource<P, unknown, unknown>): Topic<P> {
    if (!fleet) throw new Error('subscriptions used before start()');
    const key = `${identity.key}:${live.source.name}`;
    const known = topics.get(key);
    // One key, one source: the names differ for every source and argument.
    if (known?.open) return known as Topic<P>;
    const topic: Topic<P> = new Topic<P>(key, counted(live.source, live, identity.key), identity.caller, pollRest, () => release(topic));
    topics.set(key, topic);
    entries.set(topic, { topic, live, identity: identity.key });
    fleet.join(topic);
    return topic;
  }

  /**
   * The identity's user ID: the user_id it acts as (an admin token), else its profile's, read once
   * when the first callback arrives (without callbacks, subscriptions cost no more than their polls).
   */
  function viewerOf(caller: Caller, key: string): Promise<string | undefined> {
    let known = viewers.get(key);
    if (!known) {
      if (viewers.size >= MAX_VIEWERS) viewers.clear();
      known = caller.userId
        ? Promise.resolve(caller.userId)
        : pollRest.call('GET /user/profile', {}, caller).then(
            ({ data }) => String(data.user_id),
            () => {
              viewers.delete(key); // the next subscription tries again; the polls serve meanwhile
              return undefined;
            },
          );
      viewers.set(key, known);
    }
    return known;
  }

  function subscribeTo<P, T>(
    identity: Subscribing,
    live: LiveSource<P, T, unknown>,
    joined?: (topic: Topic<P>) => void,
  ): AsyncIterableIterator<SubscriptionEvent<T>> {
    if (closed) throw new GatewayError('The gateway is shutting down.', 'UPSTREAM_UNAVAILABLE');
    return new Repeater<SubscriptionEvent<T>>(async (push, stop) => {
      if (closed) return stop();
      const topic = topicFor(identity, live);
      const send = (event: SubscriptionEvent<T>) => {
        try {
          void push(event);
        } catch {
          stop(new Error('The subscriber fell too far behind.')); // the backlog is full
        }
      };
      const subscriber: Subscriber<P> = {
        value: (payload) => {
          for (const item of live.explode(payload)) send({ value: item });
        },
        pushed: (payload) => {
          for (const item of live.explode(payload)) send({ value: item, pushed: true });
        },
        error: (error) => send({ error: fromWireError(error) }),
        end: (error) => {
          if (error) send({ error: fromWireError(error) });
          stop();
        },
      };
      topic.add(subscriber);
      joined?.(topic);
      counts.subscribers++;
      await stop;
      counts.subscribers--;
      topic.remove(subscriber);
    }, BUFFERS[live.buffer]());
  }

  /** A message for this replica's topics (from this replica's receiver or another's, through the fan-out). */
  function receive(message: CallbackMessage): void {
    counts.callbacks++;
    const repeat = brought.has(message.msgId);
    if (!repeat) {
      if (brought.size >= MAX_BROUGHT) brought.delete(brought.values().next().value!);
      brought.add(message.msgId);
    }
    const concerned = new Set<string>();
    const pending: Promise<void>[] = [];
    for (const entry of entries.values()) {
      const { live, topic, identity } = entry;
      if (!live.pushed || !topic.open) continue;
      pending.push(
        viewerOf(topic.caller, identity).then((id) => {
          if (id === undefined || !topic.open) return;
          const meant = live.pushed!(message, { viewer: id, ...topic.polled });
          if (meant === undefined) return;
          concerned.add(identity);
          if (meant === 'poll') fleet?.poke(topic);
          else if (!repeat) topic.push(meant.payload);
        }),
      );
    }
    void Promise.all(pending).then(() => pace.callback(concerned));
  }

  async function check(caller: Caller): Promise<Verdict> {
    try {
      await options.rest.call('GET /user/profile', {}, caller);
      return 'ok';
    } catch (err) {
      // Only a refusal of the identity refuses the connection: anything else (the service down,
      // an admin token acting as nobody) is for the operations to report.
      const code = err instanceof UpstreamError ? classifyUpstreamError(err) : undefined;
      return code === 'UNAUTHENTICATED' ? 'unauthenticated' : code === 'FORBIDDEN' ? 'forbidden' : 'ok';
    }
  }

  return {
    async start() {
      if (closed) return;
      if (!options.redis || fleet) return;
      const [{ redisFleet }, { redisFanout }] = await Promise.all([import('./fleet-redis'), import('./callback-fanout')]);
      fleet = redisFleet({ ...settings, redis: options.redis });
      fanout = await redisFanout(options.redis, receive);
    },
    subscribe(identity, live, resume = {}) {
      const resumption = live.resume;
      if (!resumption) return subscribeTo(identity, live) as AsyncIterableIterator<SubscriptionEvent<never>>;
      // Where a subscriber starts when it resumes from nowhere: the position of the topic it
      // joined, known only when that topic was polled already (else the poll's baseline tells).
      let at: string | undefined;
      const joined = (topic: Topic<unknown>) => {
        const state = topic.position()?.state;
        at = state === undefined ? undefined : resumption.startOf(state);
      };
      const hooks: ResumeHooks = resume.mark ? { mark: resume.mark, start: () => at } : {};
      return resumption.wrap(subscribeTo(identity, live, joined), pollRest, identity.caller, resume.after, hooks);
    },
    deliver(message) {
      if (!closed) fanout.publish(message);
    },
    verify({ caller }) {
      // Without a token there is nothing to check: such a connection can log in, and its
      // subscriptions are refused with UNAUTHENTICATED by the service.
      if (caller.token === undefined) return Promise.resolve('ok');
      // A token proven lately (any call made with it: a reconnect storm costs one check) is not
      // checked again; one with a user_id or group_id header is, for whom it acts as.
      const alone = caller.userId === undefined && caller.groupId === undefined;
      if (alone && options.tokens?.isProven(caller)) return Promise.resolve('ok');
      return check(caller);
    },
    stats: () => ({ ...counts, topics: topics.size, slowed: pace.slowed }),
    async close() {
      if (closed) return;
      closed = true;
      for (const topic of [...topics.values()]) topic.endAll();
      await Promise.all(leaving);
      await fleet?.close();
      await fanout.close();
    },
  };
}
