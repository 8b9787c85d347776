// Metrics of GraphQL operations over HTTP and WebSocket, through envelop's hooks, under the names
// the yoga Prometheus plugin used (dashboards keep working): operations executed and their time,
// errors by phase, and the time of the HTTP answer. The plugin cost about a fifth of the CPU of a
// one-call query (bench:peers, METRICS=false against true); this one does per request only what
// the figures need: a clock reading, a cached label set, an increment.
import { type DocumentNode, getOperationAST, Kind } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Registry } from 'prom-client';
import { type CounterSeries, type HistogramSeries, SeriesCounter, SeriesHistogram } from './metric-series';
import { pathOf } from './request-path';

// Operation names are chosen by clients: past this many distinct ones, new names count as 'other'.
const MAX_OPERATION_NAMES = 200;
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,99}$/;

interface Operation {
  /** `${type} ${name}`: the label set's key. */
  readonly key: string;
  readonly labels: { readonly operationName: string; readonly operationType: string };
  /** Only __schema / __type / __typename at the top: GraphiQL's schema fetches are not traffic. */
  readonly introspection: boolean;
  /** Its series, found once. */
  executed?: CounterSeries;
  duration?: HistogramSeries;
  estimated?: HistogramSeries;
  calls?: HistogramSeries;
}

const isIntrospection = (document: DocumentNode, operationName: string | null | undefined): boolean => {
  const operation = getOperationAST(document, operationName);
  return !!operation && operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && s.name.value.startsWith('__'));
};

/** Reads of an execution's REST calls, by its context: estimated before it ran, made while it ran. */
interface CallCounts {
  estimated(context: unknown): number | undefined;
  actual(context: unknown): number | undefined;
}

/** Buckets of REST calls per operation: from none to MAX_COST's range. */
const CALL_BUCKETS: readonly number[] = [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000];

/** `path`: where the public port serves the registry; undefined when a listener of its own does. */
export function useOperationMetrics(registry: Registry, path: string | undefined, calls?: CallCounts): Plugin {
  const operations = new SeriesCounter('graphql_envelop_request', 'GraphQL operations executed', registry);
  const durations = new SeriesHistogram('graphql_envelop_request_duration', 'Time spent executing GraphQL operations (seconds)', registry);
  const errors = new SeriesCounter('graphql_envelop_error_result', 'Errors in GraphQL results, by the phase that produced them', registry);
  const http = new SeriesHistogram('graphql_yoga_http_duration', 'Time spent answering GraphQL HTTP requests (seconds)', registry);
  const estimatedCalls = new SeriesHistogram(
    'im_gateway_operation_rest_calls_estimated',
    'REST calls an operation was estimated to make at most, before it ran (MAX_COST applies to it)',
    registry,
    CALL_BUCKETS,
  );
  const actualCalls = new SeriesHistogram(
    'im_gateway_operation_rest_calls',
    'REST calls an operation made (memo hits not counted; MAX_REST_CALLS applies to it)',
    registry,
    CALL_BUCKETS,
  );

  const names = new Set<string>();
  const nameLabel = (name: string | null | undefined): string => {
    if (!name) return 'Anonymous';
    if (names.has(name)) return name;
    if (names.size >= MAX_OPERATION_NAMES || !GRAPHQL_NAME.test(name)) return 'other';
    names.add(name);
    return name;
  };
  const bySet = new Map<string, Operation>();
  const operationOf = (type: string, name: string | null | undefined, introspection: boolean): Operation => {
    const operationName = nameLabel(name);
    const key = `${type} ${operationName}${introspection ? ' introspection' : ''}`;
    let found = bySet.get(key);
    if (!found) bySet.set(key, (found = { key, labels: { operationName, operationType: type }, introspection }));
    return found;
  };
  // Per parsed document (the parse cache hands out one per text) and operation name.
  const byDocument = new WeakMap<DocumentNode, Map<string, Operation>>();
  const operationIn = (document: DocumentNode, name: string | null | undefined): Operation => {
    let known = byDocument.get(document);
    if (!known) byDocument.set(document, (known = new Map()));
    let found = known.get(name ?? '');
    if (!found) {
      const operation = getOperationAST(document, name);
      found = operationOf(operation?.operation ?? 'unknown', name ?? operation?.name?.value, isIntrospection(document, name));
      known.set(name ?? '', found);
    }
    return found;
  };

  const countError = (operation: Operation, phase: string) =>
    errors.of(`${operation.key} ${phase}`, () => ({ ...operation.labels, phase })).value++;

  // The request's start, and the operation it ran (for the HTTP answer's labels).
  const started = new WeakMap<object, number>();
  const ran = new WeakMap<object, Operation>();
  const requestOf = (context: unknown) => (context as { request?: object } | undefined)?.request;

  return {
    onRequest({ request, fetchAPI, endResponse }) {
      if (path === undefined || pathOf(request.url) !== path) {
        started.set(request, performance.now());
        return undefined;
      }
      return registry
        .metrics()
        .then((text) => endResponse(new fetchAPI.Response(text, { headers: { 'content-type': registry.contentType } })));
    },
    onParse({ context }) {
      return ({ result }) => {
        if (result instanceof Error) {
          countError(operationOf('unknown', (context as { params?: { operationName?: string } }).params?.operationName, false), 'parse');
        }
      };
    },
    onValidate({ params: { documentAST }, context }) {
      return ({ valid }) => {
        if (valid) return;
        const operation = operationIn(documentAST, (context as { params?: { operationName?: string } }).params?.operationName);
        if (!operation.introspection) countError(operation, 'validate');
      };
    },
    onExecute({ args }) {
      const operation = operationIn(args.document, args.operationName);
      if (operation.introspection) return undefined;
      const request = requestOf(args.contextValue);
      if (request) ran.set(request, operation);
      const start = performance.now();
      return {
        onExecuteDone({ result }) {
          (operation.executed ??= operations.of(operation.key, () => operation.labels)).value++;
          durations.observe(
            (operation.duration ??= durations.of(operation.key, () => operation.labels)),
            (performance.now() - start) / 1000,
          );
          if (!(Symbol.asyncIterator in result) && result.errors?.length) countError(operation, 'execute');
          // Subscriptions' calls are per event and go on: only queries and mutations are measured.
          const estimated = Symbol.asyncIterator in result ? undefined : calls?.estimated(args.contextValue);
          if (estimated === undefined) return;
          estimatedCalls.observe((operation.estimated ??= estimatedCalls.of(operation.key, () => operation.labels)), estimated);
          const actual = calls?.actual(args.contextValue);
          if (actual !== undefined)
            actualCalls.observe((operation.calls ??= actualCalls.of(operation.key, () => operation.labels)), actual);
        },
      };
    },
    onResponse({ request, response }) {
      const operation = ran.get(request);
      const start = started.get(request);
      if (!operation || start === undefined) return;
      const key = `${operation.key} ${request.method} ${response.status}`;
      const series = http.of(key, () => ({ ...operation.labels, method: request.method, statusCode: response.status }));
      http.observe(series, (performance.now() - start) / 1000);
    },
  };
}
