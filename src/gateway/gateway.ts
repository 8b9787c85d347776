// What createGateway (create-gateway.ts) is given besides the config, and what it answers.
import type { GraphiQLDemo } from './http/graphiql';
import type { CallbackSink } from '../subscriptions/callback-message';
import type { RestClient } from '../rest/client';
import type { Admission } from './admission/admission';
import type { DrainOutcome } from './lifecycle/drain';

/** What a gateway needs besides its Config. */
export interface GatewayOptions {
  /** The IM service's origin; default: the config's IM_BASE_URL (main.ts passes the emulator's). */
  imBaseUrl?: string;
  /** What GraphiQL starts with: the demo identity and variables when the emulator runs. */
  graphiql?: GraphiQLDemo;
  /** Prefix of the Redis keys and channels when `redisUrl` is set (tests use one per run). */
  redisPrefix?: string;
  /** How long a dead replica's subscription slots outlive it in Redis (tests shorten it). Default 60 s. */
  subscriptionLeaseMs?: number;
  /** Where accepted message callbacks go (IM_CALLBACK_SECRET); default: the subscription hub. Tests record them. */
  callbackSink?: CallbackSink;
}

export interface Gateway {
  /** Listens; resolves to the gateway's origin (http://host:port). */
  start(): Promise<string>;
  /**
   * Drains: /ready answers 503, subscriptions complete, pollers stop, and requests in flight have
   * until `timeoutMs` (default 0: none, for tests) to finish; what remains then is cut and named.
   */
  stop(timeoutMs?: number): Promise<DrainOutcome>;
  readonly rest: RestClient;
  /** Where metrics are served when they have a listener of their own (after start). */
  readonly metricsUrl: string | undefined;
  /** Admission's load now: estimated REST calls of the operations running, operations waiting. */
  readonly admission: Admission['load'];
  /**
   * Whether a document's text is parsed, validated and (with compiled execution) its queries and
   * mutations compiled: the persisted documents are, once /ready answers 200.
   */
  prepared(text: string): boolean;
  /** Where the message callback's receiver hands each accepted message: the subscriptions (src/subscriptions/hub.ts). */
  readonly callbacks: CallbackSink;
}
