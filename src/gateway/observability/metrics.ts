// The gateway's Prometheus metrics, served at GET /metrics (on the public port, or on a listener of
// their own: metrics-listener.ts): GraphQL operations (operation-metrics.ts), REST calls to the IM
// service (from the end of every attempt: rest-calls.ts), subscriptions (from the hub's counts) and the Node process. Every gateway has a registry of its own (tests run several
// in one process); labels hold only bounded values: no query text, no variables, no IDs.
import type { Plugin } from 'graphql-yoga';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { GatewayContext } from '../../context';
import type { CallInfo } from '../../rest/client';
import type { SubscriptionStats } from '../../subscriptions/hub';
import { SeriesCounter, SeriesHistogram } from './metric-series';
import { estimatedCalls } from '../execution/cost';
import { useOperationMetrics } from './operation-metrics';

/** The REST calls an execution made, from its context's budget (src/context.ts). */
const actualCalls = (context: unknown): number | undefined => (context as Partial<GatewayContext> | undefined)?.restCalls?.used;

export interface GatewayMetrics {
  /** This gateway's registry, for the metrics of a feature of its own (observability/callback-metrics.ts). */
  readonly registry: Registry;
  /** The yoga plugin: operation metrics, and the /metrics route when the public port serves it. */
  readonly plugin: Plugin;
  /** The registry's text and content type, for a listener of its own. */
  scrape(): Promise<{ text: string; contentType: string }>;
  /** Reads how a REST attempt ended (rest-calls.ts). */
  restCall(info: CallInfo): void;
  /** An operation estimated over MAX_COST (refused, or run in measure mode). */
  overCost(estimate: number, mode: string): void;
  /** Operations refused by the rate limit (a batch's all together). */
  rateLimited(transport: string, operations: number): void;
  /** An operation let through because Redis could not answer the rate limit. */
  rateLimitStoreFailure(): void;
  /** A query answered by an identical one's execution (SHARE_QUERIES). */
  sharedExecution(): void;
  /**
   * Reads the subscriptions' and limits' counts at each scrape, from now on: they are made after
   * the metrics, whose REST observer the REST client under them reports to.
   */
  watch(sources: WatchedStats): void;
}

/** The counts read at each scrape. */
export interface WatchedStats {
  subscriptions: () => SubscriptionStats;
  limits?: (() => LimitStats) | undefined;
}

/** What the subscription limits and the poll gate amount to (counts since the start, and now). */
export interface LimitStats {
  refused: { socket: number; identity: number };
  /** Admissions decided without Redis (it failed): fail open. */
  failedOpen: number;
  /** Poll calls waiting for their share of the upstream sockets. */
  pollsQueued: number;
}

interface GatewayMetricsOptions extends Partial<WatchedStats> {
  /** Serve GET /metrics on the public port (false: a listener of its own serves scrape()). */
  public: boolean;
}

/** '2xx', '4xx', ... for an answer; the failure's kind when there was none (or it was a business error). */
function outcomeOf(info: CallInfo): string {
  if (info.error !== undefined && info.error !== 'http') return info.error;
  // No status and no upstream failure: the caller gave up before an answer came.
  return info.status === undefined ? 'aborted' : `${Math.floor(info.status / 100)}xx`;
}

let processRegistry: Registry | undefined;

/**
 * Node's process metrics, collected once per process: they describe the process, not one gateway,
 * and collectDefaultMetrics starts observers that nothing can stop (one per gateway would pile up).
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** Counters mirroring a count read at scrape time (prom-client counters only go up by increments). */
function mirroredCounter(registry: Registry, name: string, help: string, read: () => number): void {
  let reported = 0;
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const now = read();
      if (now > reported) this.inc(now - reported);
      reported = now;
    },
  });
}

function limitMetrics(registry: Registry, limits: () => LimitStats): void {
  const reported = { socket: 0, identity: 0 };
  new Counter({
    name: 'im_gateway_subscriptions_refused_total',
    help: 'Subscriptions refused with SUBSCRIPTION_LIMIT, by the limit reached (socket: MAX_SUBSCRIPTIONS_PER_SOCKET; identity: MAX_SUBSCRIPTIONS_PER_IDENTITY)',
    labelNames: ['limit'],
    registers: [registry],
    collect() {
      const { refused } = limits();
      for (const limit of ['socket', 'identity'] as const) {
        this.inc({ limit }, refused[limit] - reported[limit]);
        reported[limit] = refused[limit];
      }
    },
  });
  mirroredCounter(
    registry,
    'im_gateway_subscription_limit_fail_open_total',
    "Subscriptions admitted without the fleet-wide count because Redis failed (only this replica's own count applied)",
    () => limits().failedOpen,
  );
  new Gauge({
    name: 'im_gateway_polls_queued',
    help: 'Subscription poll calls waiting for their share of the upstream sockets (IM_POLL_CONNECTIONS)',
    registers: [registry],
    collect() {
      this.set(limits().pollsQueued);
    },
  });
}

function subscriptionMetrics(registry: Registry, sources: WatchedStats): void {
  new Gauge({
    name: 'im_gateway_subscribers',
    help: 'Open GraphQL subscriptions on this gateway',
    registers: [registry],
    collect() {
      this.set(sources.subscriptions().subscribers);
    },
  });
  new Gauge({
    name: 'im_gateway_subscription_topics',
    help: 'Polls (one source for one identity) with subscribers on this gateway; without Redis, each is polled here',
    registers: [registry],
    collect() {
      this.set(sources.subscriptions().topics);
    },
  });
  mirroredCounter(
    registry,
    'im_gateway_subscription_polls_total',
    'Subscription poll rounds run by this gateway',
    () => sources.subscriptions().polls,
  );
  mirroredCounter(
    registry,
    'im_gateway_subscription_poll_errors_total',
    'Subscription poll rounds that failed',
    () => sources.subscriptions().pollErrors,
  );
  mirroredCounter(
    registry,
    'im_gateway_subscription_callbacks_total',
    "Messages of the service's callback that reached this gateway's subscriptions (from any replica's receiver)",
    () => sources.subscriptions().callbacks,
  );
  mirroredCounter(
    registry,
    'im_gateway_subscription_fallbacks_total',
    'Times a poll found a message no callback brought: an identity (or the gateway) went back to the fast poll interval',
    () => sources.subscriptions().fallbacks,
  );
  new Gauge({
    name: 'im_gateway_subscription_polls_slowed',
    help: '1 while callbacks arrive and pushed subscriptions are polled at the slow interval, else 0',
    registers: [registry],
    collect() {
      this.set(sources.subscriptions().slowed ? 1 : 0);
    },
  });

  if (sources.limits) limitMetrics(registry, sources.limits);
}

export function createGatewayMetrics(options: GatewayMetricsOptions): GatewayMetrics {
  // A new registry holding the shared process metrics; this gateway's own are added to it below.
  const registry = Registry.merge([processMetrics()]);

  const plugin = useOperationMetrics(registry, options.public ? '/metrics' : undefined, { estimated: estimatedCalls, actual: actualCalls });
  const overCost = new SeriesCounter(
    'im_gateway_cost_over_limit_total',
    'Operations estimated over MAX_COST, by COST_MODE (enforce: refused; measure: run)',
    registry,
  );

  const rateLimited = new SeriesCounter(
    'im_gateway_rate_limited_total',
    'Operations refused by RATE_LIMIT, by transport (http: each operation of a batch counts; ws: each subscribe)',
    registry,
  );
  const rateLimitFailures = new SeriesCounter(
    'im_gateway_rate_limit_redis_failures_total',
    'Operations let through because Redis did not answer the rate limit (it fails open)',
    registry,
  );
  const storeFailures = rateLimitFailures.of('', () => ({}));
  const shared = new SeriesCounter(
    'im_gateway_shared_executions_total',
    'Queries answered by an identical query in flight for the same identity (SHARE_QUERIES): executions spared',
    registry,
  ).of('', () => ({}));

  // Per attempt: a retried call shows each attempt, and the retries counter says how many were retries.
  const restDuration = new SeriesHistogram(
    'im_gateway_rest_call_duration_seconds',
    'REST calls to the IM service, per attempt, by endpoint and outcome (status class, or the failure kind)',
    registry,
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
  );
  const restRetries = new SeriesCounter(
    'im_gateway_rest_retries_total',
    'Attempts of REST calls to the IM service that were retries',
    registry,
  );

  if (options.subscriptions) subscriptionMetrics(registry, { ...options, subscriptions: options.subscriptions });

  return {
    registry,
    plugin,
    scrape: async () => ({ text: await registry.metrics(), contentType: registry.contentType }),
    overCost(_estimate, mode) {
      overCost.of(mode, () => ({ mode })).value++;
    },
    rateLimited(transport, operations) {
      rateLimited.of(transport, () => ({ transport })).value += operations;
    },
    rateLimitStoreFailure() {
      storeFailures.value++;
    },
    sharedExecution() {
      shared.value++;
    },
    watch: (sources) => subscriptionMetrics(registry, sources),
    restCall(info) {
      // The endpoint is the table key ('GET /group/info'): one of 113, never a path with values.
      const outcome = outcomeOf(info);
      const { endpoint } = info;
      restDuration.observe(
        restDuration.of(`${endpoint} ${outcome}`, () => ({ endpoint, outcome })),
        info.ms / 1000,
      );
      if (info.attempt > 1) restRetries.of(endpoint, () => ({ endpoint })).value++;
    },
  };
}
