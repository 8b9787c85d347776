// The live family: subscriptions — the hub (polled topics, shared through Redis when set), the
// executions WebSocket subscribers of one operation share, where retried subscriptions resume,
// and graphql-ws on the HTTP server once there is one.
import type { IncomingMessage, Server } from 'node:http';
import type { Config } from '../../config';
import type { RestClient } from '../../rest/client';
import type { ProvenTokens } from '../../rest/proven-tokens';
import type { SharedRedis } from '../../redis/shared-redis';
import type { CallbackSink } from '../../subscriptions/callback-message';
import { createSubscriptionHub, type SubscriptionStats } from '../../subscriptions/hub';
import { memoryLedger, redisLedger } from '../../subscriptions/resume-ledger';
import { callbackReceiver } from '../callback/receiver';
import type { Resource } from '../lifecycle/resources';
import type { GatewayMetrics } from '../observability/metrics';
import type { RoundTracer } from '../../subscriptions/poller';
import { resumeSlot } from '../ws/resume-on-retry';
import { sharedSubscriptions } from '../ws/shared-subscriptions';
import { mountWebSocket, type WebSocketOptions } from '../ws/websocket';
import type { GatewayYoga } from '../yoga';

interface LiveParts {
  readonly rest: RestClient;
  /** The REST client of polls (rest/background.ts gates it). */
  readonly pollRest: RestClient;
  readonly redis: SharedRedis | undefined;
  readonly tokens: ProvenTokens;
  readonly traceRound: RoundTracer | undefined;
  readonly metrics: GatewayMetrics | undefined;
  /** The request's source address (the peer's, or what a trusted proxy says). */
  readonly addressOf: (req: IncomingMessage) => string | undefined;
  /** Where accepted callbacks go; default the hub (tests record them). */
  readonly callbackSink: CallbackSink | undefined;
}

/** What graphql-ws needs from the other families (the hub's, the ledger's and the sharing's it adds). */
export type SocketParts = Omit<WebSocketOptions, 'verify' | 'shared' | 'resume' | 'maxPayloadBytes' | 'maxInitBytes'>;

export function liveFamily(config: Config, { rest, pollRest, redis, tokens, traceRound, metrics, addressOf, callbackSink }: LiveParts) {
  const hub = createSubscriptionHub({
    rest,
    pollRest,
    intervalMs: config.pollIntervalMs,
    slowIntervalMs: config.pollIntervalWithCallbacksMs,
    redis,
    tokens,
    ...(traceRound ? { traceRound } : {}),
  });
  // WebSocket subscribers of one operation and identity share an execution (one hub subscriber).
  const shared = sharedSubscriptions();
  // Where retried WebSocket subscriptions resume (ws/resume-on-retry.ts).
  const ledgerOptions = { windowMs: config.resumeWindowMs, maxEntries: config.resumeMaxEntries };
  const ledger = config.resumeWindowMs > 0 ? (redis ? redisLedger(redis, ledgerOptions) : memoryLedger(ledgerOptions)) : undefined;
  let ws: ReturnType<typeof mountWebSocket> | undefined;
  // The service's message callback (IM_CALLBACK_SECRET): a route of its own, outside GraphQL (gateway/callback/).
  const callback = callbackReceiver(config, {
    sink: callbackSink ?? hub,
    addressOf: (req) => addressOf(req) ?? 'unknown',
    registry: metrics?.registry,
    redis,
  });

  return {
    hub,
    /** The callback route (undefined without IM_CALLBACK_SECRET). */
    callback,
    /** The hub's counts, a shared execution's subscribers counted each. */
    stats: (): SubscriptionStats => {
      const stats = hub.stats();
      const { executions, members } = shared.stats();
      return { ...stats, subscribers: stats.subscribers - executions + members };
    },
    /** graphql-ws on `server` (mounted at start, closed once the hub ended every subscription), then the hub. */
    resources: (server: Server, yoga: GatewayYoga, parts: SocketParts): Resource[] => [
      {
        name: 'websocket',
        start: () => {
          ws = mountWebSocket(server, yoga, {
            ...parts,
            verify: hub.verify,
            maxPayloadBytes: config.maxWsPayloadBytes,
            maxInitBytes: config.maxWsInitBytes,
            shared,
            resume: async (identity, params, payload) => (ledger ? resumeSlot(ledger, identity, params, payload) : undefined),
          });
        },
        // Once the hub ended every subscription: their clients are told `complete` before the sockets close.
        drain: async () => {
          await ws?.close();
          ws = undefined;
        },
      },
      ...(callback ? [{ name: 'callback', start: () => callback.start(), close: () => callback.close() }] : []),
      // Every subscription completes (its clients are told, and resume elsewhere) and every poller stops, releasing its lease.
      { name: 'subscriptions', start: () => hub.start(), drain: () => hub.close() },
    ],
  };
}
