// The gateway's Prometheus metrics, served at GET /metrics: GraphQL operations (through the yoga
// plugin), REST calls to the IM service (from the client's onCall hook), subscriptions (from the
// hub's counts) and the Node process. Every gateway has a registry of its own (tests run several
// in one process); labels hold only bounded values: no query text, no variables, no IDs.
import { createCounter, createHistogram, type FillLabelsFnParams, usePrometheus } from '@graphql-yoga/plugin-prometheus';
import type { Plugin } from 'graphql-yoga';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CallInfo } from '../rest/client';
import type { SubscriptionStats } from '../subscriptions/hub';

export interface GatewayMetrics {
  /** The yoga plugin: operation metrics and the /metrics route. */
  readonly plugin: Plugin;
  /** The REST client's onCall hook. */
  restCall(info: CallInfo): void;
}

export interface GatewayMetricsOptions {
  /** Read at each scrape. */
  subscriptions: () => SubscriptionStats;
}

// Operation names are chosen by clients: past this many distinct ones, new names count as 'other'.
const MAX_OPERATION_NAMES = 200;
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,99}$/;
const OPERATION_LABELS = ['operationName', 'operationType'] as const;

/** Maps client-chosen operation names onto a bounded set of label values. */
function operationNameLabel(): (name: string | undefined) => string {
  const seen = new Set<string>();
  return (name) => {
    if (!name) return 'Anonymous';
    if (seen.has(name)) return name;
    if (seen.size >= MAX_OPERATION_NAMES || !GRAPHQL_NAME.test(name)) return 'other';
    seen.add(name);
    return name;
  };
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

export function createGatewayMetrics(options: GatewayMetricsOptions): GatewayMetrics {
  // A new registry holding the shared process metrics; this gateway's own are added to it below.
  const registry = Registry.merge([processMetrics()]);

  const operationName = operationNameLabel();
  // Label sets are made once per distinct value and reused: every operation observes three or
  // four metrics and every REST call one, and a fresh object each time is garbage on the hot path.
  const operationLabelSets = new Map<string, { operationName: string; operationType: string }>();
  const operationLabels = (params: FillLabelsFnParams) => {
    const name = operationName(params.operationName);
    const type = params.operationType ?? 'unknown';
    const key = `${type} ${name}`;
    let labels = operationLabelSets.get(key);
    if (!labels) operationLabelSets.set(key, (labels = { operationName: name, operationType: type }));
    return labels;
  };
  const restLabelSets = new Map<string, { endpoint: string; outcome: string }>();
  const restLabels = (endpoint: string, outcome: string) => {
    const key = `${endpoint} ${outcome}`;
    let labels = restLabelSets.get(key);
    if (!labels) restLabelSets.set(key, (labels = { endpoint, outcome }));
    return labels;
  };

  const plugin = usePrometheus({
    registry,
    endpoint: '/metrics',
    // GraphiQL's schema fetches are not traffic.
    skipIntrospection: true,
    metrics: {
      // Our own versions of the plugin's metrics: the same names, bounded labels (the defaults
      // carry the request URL, which holds the query and variables of a GET, and error paths).
      graphql_envelop_request: createCounter({
        registry,
        counter: { name: 'graphql_envelop_request', help: 'GraphQL operations executed', labelNames: OPERATION_LABELS },
        fillLabelsFn: operationLabels,
      }),
      graphql_envelop_request_duration: createHistogram({
        registry,
        histogram: {
          name: 'graphql_envelop_request_duration',
          help: 'Time spent executing GraphQL operations (seconds)',
          labelNames: OPERATION_LABELS,
        },
        fillLabelsFn: operationLabels,
      }),
      graphql_envelop_error_result: createCounter({
        registry,
        counter: {
          name: 'graphql_envelop_error_result',
          help: 'Errors in GraphQL results, by the phase that produced them',
          labelNames: [...OPERATION_LABELS, 'phase'],
        },
        fillLabelsFn: (params) => ({ ...operationLabels(params), phase: params.errorPhase ?? 'unknown' }),
      }),
      graphql_yoga_http_duration: createHistogram({
        registry,
        histogram: {
          name: 'graphql_yoga_http_duration',
          help: 'Time spent answering GraphQL HTTP requests (seconds)',
          labelNames: [...OPERATION_LABELS, 'method', 'statusCode'],
        },
        fillLabelsFn: (params: FillLabelsFnParams & { request: Request; response: Response }) => ({
          ...operationLabels(params),
          method: params.request.method,
          statusCode: params.response.status,
        }),
      }),
      // Left out: a summary duplicating the duration histogram, per-phase histograms (five more
      // series per operation), and counters of deprecated fields and schema changes (none happen).
      graphql_envelop_request_time_summary: false,
      graphql_envelop_phase_parse: false,
      graphql_envelop_phase_validate: false,
      graphql_envelop_phase_context: false,
      graphql_envelop_phase_execute: false,
      graphql_envelop_phase_subscribe: false,
      graphql_envelop_deprecated_field: false,
      graphql_envelop_schema_change: false,
    },
  });

  // Per attempt: a retried call shows each attempt, and the retries counter says how many were retries.
  const restDuration = new Histogram({
    name: 'im_gateway_rest_call_duration_seconds',
    help: 'REST calls to the IM service, per attempt, by endpoint and outcome (status class, or the failure kind)',
    labelNames: ['endpoint', 'outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
    registers: [registry],
  });
  const restRetries = new Counter({
    name: 'im_gateway_rest_retries_total',
    help: 'Attempts of REST calls to the IM service that were retries',
    labelNames: ['endpoint'],
    registers: [registry],
  });

  new Gauge({
    name: 'im_gateway_subscribers',
    help: 'Open GraphQL subscriptions on this gateway',
    registers: [registry],
    collect() {
      this.set(options.subscriptions().subscribers);
    },
  });
  new Gauge({
    name: 'im_gateway_subscription_topics',
    help: 'Polls (one source for one identity) with subscribers on this gateway; without Redis, each is polled here',
    registers: [registry],
    collect() {
      this.set(options.subscriptions().topics);
    },
  });
  mirroredCounter(
    registry,
    'im_gateway_subscription_polls_total',
    'Subscription poll rounds run by this gateway',
    () => options.subscriptions().polls,
  );
  mirroredCounter(
    registry,
    'im_gateway_subscription_poll_errors_total',
    'Subscription poll rounds that failed',
    () => options.subscriptions().pollErrors,
  );

  return {
    plugin,
    restCall(info) {
      // The endpoint is the table key ('GET /group/info'): one of 113, never a path with values.
      restDuration.observe(restLabels(info.endpoint, outcomeOf(info)), info.ms / 1000);
      if (info.attempt > 1) restRetries.inc({ endpoint: info.endpoint });
    },
  };
}
