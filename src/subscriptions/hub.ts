// The gateway's subscriptions: subscribers of the same poll (same source, same identity) share
// one topic, and each topic is polled once, here or by one replica of the fleet. Subscribers get
// values and errors as events; the schema turns those into GraphQL results.
import { FixedBuffer, Repeater, type RepeaterBuffer, SlidingBuffer } from '@repeaterjs/repeater';
import { type Caller, type Identity, identityHash } from '../identity';
import type { SharedRedis } from '../redis/shared-redis';
import type { RestClient } from '../rest/client';
import type { ProvenTokens } from '../rest/proven-tokens';
import { classifyUpstreamError, GatewayError, UpstreamError } from '../rest/errors';
import type { Int64 } from '../rest/json';
import type { MessageRecord, UnreadEntry } from '../rest/records';
import { conversationEventsSource, newestOf } from './conversation-events';
import { conversationSource } from './conversation-source';
import { fromWireError, type SubscriptionEvent } from './events';
import type { Fleet } from './fleet';
import { memoryFleet } from './fleet-memory';
import { pageReader } from './history-reader';
import type { RoundTracer } from './poller';
import { type DeliveredEvent, resumeAfter, type ResumeHooks } from './resume';
import { type ReceivedRequest, resumeFriendRequests } from './friend-request-resume';
import { checkedCursor, friendRequestSource } from './friend-request-source';
import { type FriendEvent, friendsSource } from './friends-source';
import type { Source } from './source';
import { type Subscriber, Topic } from './topic';
import { unreadSource } from './unread-source';

interface SubscriptionHubOptions {
  rest: RestClient;
  /** The REST client of polls (and their catch-up and resume reads): default `rest` (rest/background.ts gates it). */
  pollRest?: RestClient;
  intervalMs: number;
  /** The app_id the REST client sends for callers that name none (part of their identity). */
  defaultAppId?: string;
  /** The gateway's record of proven tokens: a connection with a proven token is not checked again. */
  tokens?: ProvenTokens | undefined;
  /** Set: replicas share pollers through this Redis (started before the hub). */
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
}

/** Hears the position of what a stream subscription delivered (where a retry resumes). */
export type Mark = (position: string) => void;

/** What a WebSocket connection's identity amounts to, checked when it connects. */
export type Verdict = 'ok' | 'unauthenticated' | 'forbidden';

export interface SubscriptionHub {
  /** Joins the fleet in Redis in multi-replica mode; nothing to do otherwise. */
  start(): Promise<void>;
  unreadCounts(caller: Caller): AsyncIterableIterator<SubscriptionEvent<UnreadEntry[]>>;
  conversationMessages(caller: Caller, peer: Int64): AsyncIterableIterator<SubscriptionEvent<MessageRecord>>;
  /** Messages received, recalled and read in one conversation; resumed after a message ID when given. */
  conversationEvents(caller: Caller, peer: Int64, after?: Int64, mark?: Mark): AsyncIterableIterator<SubscriptionEvent<DeliveredEvent>>;
  /** Friend requests the caller receives; resumed after a request's cursor when given (checked: BAD_USER_INPUT). */
  friendRequestReceived(caller: Caller, after?: string, mark?: Mark): AsyncIterableIterator<SubscriptionEvent<ReceivedRequest>>;
  /** The caller's friends coming and going. */
  friendEvents(caller: Caller): AsyncIterableIterator<SubscriptionEvent<FriendEvent>>;
  /** Checks a connection's identity with the service (a proven token is not checked again: rest/proven-tokens.ts). */
  verify(identity: Pick<Identity, 'caller'>): Promise<Verdict>;
  /** Counts for the metrics (read-only). */
  stats(): SubscriptionStats;
  /** Completes every subscription and stops every poller. */
  close(): Promise<void>;
}

// A state source keeps the latest few events (older states are stale anyway); a stream of
// messages keeps a long backlog for a slow client, then ends it rather than grow without bound.
const stateBuffer = () => new SlidingBuffer(4);
const streamBuffer = () => new FixedBuffer(256);

export function createSubscriptionHub(options: SubscriptionHubOptions): SubscriptionHub {
  const pollRest = options.pollRest ?? options.rest;
  const settings = {
    rest: pollRest,
    intervalMs: options.intervalMs,
    ...(options.traceRound ? { traceRound: options.traceRound } : {}),
  };
  let fleet: Fleet | undefined = options.redis ? undefined : memoryFleet(settings);
  let closed = false;
  const topics = new Map<string, Topic<unknown>>();
  const leaving = new Set<Promise<void>>();
  const counts = { subscribers: 0, polls: 0, pollErrors: 0 };

  /** The source as it was, counting its rounds (a round cut short by a stop is no failure). */
  function counted<P>(source: Source<P>): Source<P> {
    return {
      ...source,
      async poll(rest, caller, state, signal) {
        counts.polls++;
        try {
          return await source.poll(rest, caller, state, signal);
        } catch (err) {
          if (!signal.aborted) counts.pollErrors++;
          throw err;
        }
      },
    };
  }

  function release(topic: Topic<unknown>): void {
    if (topics.get(topic.key) === topic) topics.delete(topic.key);
    const left = fleet!.leave(topic).finally(() => leaving.delete(left));
    leaving.add(left);
  }

  function topicFor<P>(source: Source<P>, caller: Caller): Topic<P> {
    if (!fleet) throw new Error('subscriptions used before start()');
    const key = `${identityHash(caller, options.defaultAppId)}:${source.name}`;
    const known = topics.get(key);
    // One key, one source: the names differ for every source and argument.
    if (known?.open) return known as Topic<P>;
    const topic: Topic<P> = new Topic<P>(key, counted(source), caller, pollRest, () => release(topic));
    topics.set(key, topic);
    fleet.join(topic);
    return topic;
  }

  function subscribe<P, T>(
    source: Source<P>,
    caller: Caller,
    explode: (payload: P) => readonly T[],
    buffer: RepeaterBuffer,
    joined?: (topic: Topic<P>) => void,
  ): AsyncIterableIterator<SubscriptionEvent<T>> {
    if (closed) throw new GatewayError('The gateway is shutting down.', 'UPSTREAM_UNAVAILABLE');
    return new Repeater<SubscriptionEvent<T>>(async (push, stop) => {
      if (closed) return stop();
      const topic = topicFor(source, caller);
      const send = (event: SubscriptionEvent<T>) => {
        try {
          void push(event);
        } catch {
          stop(new Error('The subscriber fell too far behind.')); // the backlog is full
        }
      };
      const subscriber: Subscriber<P> = {
        value: (payload) => {
          for (const item of explode(payload)) send({ value: item });
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
    }, buffer);
  }

  /**
   * Where a stream subscriber starts: the position of the topic it joined (`position`: of the
   * source's state), known only when that topic was polled already (else the poll's baseline tells).
   */
  function startOf(position: (state: string) => string) {
    let at: string | undefined;
    return {
      joined: (topic: Topic<unknown>) => {
        const state = topic.position()?.state;
        at = state === undefined ? undefined : position(state);
      },
      hooks: (mark: Mark | undefined): ResumeHooks => (mark ? { mark, start: () => at } : {}),
    };
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
      if (fleet || closed) return;
      const { redisFleet } = await import('./fleet-redis');
      fleet = redisFleet({ ...settings, redis: options.redis! });
    },
    unreadCounts: (caller) => subscribe(unreadSource, caller, (entries) => [entries], stateBuffer()),
    conversationMessages: (caller, peer) => subscribe(conversationSource(peer), caller, (messages) => messages, streamBuffer()),
    conversationEvents: (caller, peer, after, mark) => {
      const start = startOf(newestOf);
      return resumeAfter(
        subscribe(conversationEventsSource(peer), caller, (events) => events, streamBuffer(), start.joined),
        pageReader(pollRest, caller, peer),
        peer,
        after,
        start.hooks(mark),
      );
    },
    friendRequestReceived: (caller, after, mark) => {
      const start = startOf((state) => state);
      return resumeFriendRequests(
        subscribe(friendRequestSource, caller, (events) => events, streamBuffer(), start.joined),
        pollRest,
        caller,
        after === undefined ? undefined : checkedCursor(after),
        start.hooks(mark),
      );
    },
    friendEvents: (caller) => subscribe(friendsSource, caller, (events) => events, streamBuffer()),
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
    stats: () => ({ ...counts, topics: topics.size }),
    async close() {
      if (closed) return;
      closed = true;
      for (const topic of [...topics.values()]) topic.endAll();
      await Promise.all(leaving);
      await fleet?.close();
    },
  };
}
