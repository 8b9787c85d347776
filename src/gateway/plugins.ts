// The gateway's yoga/envelop plugins in named phases. Envelop runs every plugin's hook of one kind
// in the order listed, and a hook that ends an operation early (setResultAndStopExecution) skips
// the later plugins' hooks of that kind, while the after-hooks (onExecuteDone...) of the earlier
// ones still see its result: so the order matters only between plugins sharing a hook, and each
// entry names the hook that places it. The phases run in the order of PHASES:
// - request: HTTP concerns, before anything parses the document;
// - document: parse, validate, and the limits that admit an operation (or refuse it) before it runs;
// - observers: metrics and tracing, ahead of execution so that their spans and counts cover the
//   chosen execution (compiled or shared) and see its result before its upstream errors are worded;
// - execution: how an admitted operation runs, and what its result says.
import type { Plugin } from 'graphql-yoga';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import type { Config } from '../config';
import type { SubscriptionSlots } from '../subscriptions/slots';
import { useUpstreamErrors } from '../schema/core/upstream-errors';
import type { Admission } from './admission/admission';
import { type AdmissionKey, useAdmission } from './admission/use-admission';
import { useAcceptCheck } from './http/accept';
import { useBatchLimit } from './http/batch-limit';
import { useMultipartBodyLimit } from './http/body-limits';
import { useCsrfPrevention } from './http/csrf';
import { useFrontRefusals } from './http/front';
import { useStreamingMultipart } from './http/multipart';
import { useMultipartSubscriptions } from './http/multipart-subscriptions';
import { useParamsDepth } from './http/params-depth';
import { useSlowReaderDrop } from './http/slow-readers';
import { useRequestParseErrors } from './http/parse-errors';
import { useReadinessRoute } from './http/readiness-route';
import type { RateLimiter } from './rate-limit/limiter';
import { useRateLimit } from './rate-limit/use-rate-limit';
import type { SignInLimiter } from './rate-limit/sign-in-limiter';
import { useSignInLimit } from './rate-limit/use-sign-in-limit';
import type { FanOutLimiter } from './rate-limit/fan-out-limiter';
import { useFanOutLimit } from './rate-limit/use-fan-out-limit';
import { useCostLimit } from './execution/cost';
import { useEarlyProof } from './execution/early-proof';
import type { useDocumentCache } from './execution/document-cache';
import { useDocumentLimits } from './execution/document-limits';
import { useIntrospectionRefusal } from './execution/introspection';
import { type CompiledExecution, useCompiledExecution } from './execution/jit';
import { useResultCaps } from './execution/result-caps';
import { useSharedExecution } from './execution/shared-execution';
import { useSubscriptionLimits } from './execution/subscription-limits';
import type { WriteClock } from '../rest/write-clock';
import type { GatewayMetrics } from './observability/metrics';
import { useOperationTracing } from './observability/tracing/operation-plugin';
import { errorMasking } from './observability/error-detail';
import type { Tracing } from './observability/tracing/tracing';

export const PHASES = ['request', 'document', 'observers', 'execution'] as const;
export type Phase = (typeof PHASES)[number];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each plugin has the context type of its own hooks
type AnyPlugin = Plugin<any, any, any>;

export interface NamedPlugin {
  readonly name: string;
  readonly plugin: AnyPlugin;
}

/** What the plugins are made of: the gateway's subsystems, made before yoga. */
export interface PluginParts {
  readonly config: Config;
  readonly documents: ReturnType<typeof useDocumentCache>;
  readonly persisted: { readonly plugin: AnyPlugin };
  readonly limiter: RateLimiter | undefined;
  /** The bounds on estimated cost in flight, per identity and for the replica. */
  readonly admission: Admission;
  /** Whose load an operation counts as (use-admission.ts); default: the identity as claimed. */
  readonly admissionKey?: AdmissionKey;
  /** The sign-in limits (on by default). */
  readonly signInLimiter: SignInLimiter | undefined;
  /** Registrations per address and recipients per identity (on by default). */
  readonly fanOutLimiter?: FanOutLimiter | undefined;
  readonly slots: SubscriptionSlots;
  readonly metrics: GatewayMetrics | undefined;
  readonly tracing: Tracing | undefined;
  /** Why /ready answers 503, or undefined when ready. */
  readonly notReady: () => string | undefined;
  /** The write clock that shared executions start a new epoch on (shared with REST coalescing). */
  readonly writes: WriteClock;
  /**
   * Compiled execution (GRAPHQL_JIT), made by whoever asks it what is compiled (the persisted
   * family); default: made here when config.jit is on.
   */
  readonly compiled?: CompiledExecution | undefined;
}

/** Largest `operations` or `map` field of a multipart request. */
export const MULTIPART_FIELD_BYTES = 1024 * 1024;

const named = (name: string, plugin: AnyPlugin): NamedPlugin => ({ name, plugin });
/** The entry when `on`, else none. */
const when = (on: unknown, entry: () => NamedPlugin): NamedPlugin[] => (on ? [entry()] : []);

/** The plugins of each phase, in their order. */
export function gatewayPhases(parts: PluginParts): Record<Phase, NamedPlugin[]> {
  const { config, documents, limiter, metrics, tracing } = parts;
  const compiled = parts.compiled ?? (config.jit ? useCompiledExecution({ afterRuns: config.jitAfterRuns }) : undefined);
  const request = [
    // onRequestParse, first: the front's refusal is raised before any other check.
    named('front-refusals', useFrontRefusals()),
    // onRequestParse: a cross-site request is refused before its body is parsed.
    named('csrf', useCsrfPrevention()),
    // onRequestParse (setRequestParser): uploads reach resolvers as streams (yoga's own parser buffers them).
    named(
      'streaming-multipart',
      useStreamingMultipart({ maxFileBytes: config.maxUploadBytes, maxFiles: 10, maxFieldBytes: MULTIPART_FIELD_BYTES }),
    ),
    // onRequestParse: wraps the streaming parser above, capping each kind of part.
    named('multipart-body-limit', useMultipartBodyLimit({ maxUploadBytes: config.maxUploadBytes, maxFieldBytes: MULTIPART_FIELD_BYTES })),
    // onRequestParse: wraps the parsers above, wording their failures.
    named('request-parse-errors', useRequestParseErrors()),
    // onParams, first: variables nested past MAX_JSON_DEPTH are refused before anything walks them.
    named('params-depth', useParamsDepth()),
    // onParams: a documentId or a hash alone becomes the document's text before yoga checks the parameters.
    named('persisted-documents', parts.persisted.plugin),
    // onRequestParseDone: a batch over MAX_BATCH is refused before the rate limit takes anything for it.
    named('batch-limit', useBatchLimit(config.maxBatch)),
    // onRequestParseDone: after the batch limit, one operation taken per operation of the batch.
    ...when(limiter, () => named('rate-limit', useRateLimit(limiter!))),
    // onExecute/onSubscribe, first of the operation hooks: an answer the client cannot accept runs nothing.
    named('accept-check', useAcceptCheck()),
    // onSubscribe/onResultProcess: subscriptions over multipart HTTP, with heartbeats.
    named('multipart-subscriptions', useMultipartSubscriptions({ heartbeatMs: config.multipartHeartbeatMs })),
    // onSubscribe/onResultProcess: an SSE or multipart subscriber that stops reading is dropped past its backlog bound.
    named(
      'slow-readers',
      useSlowReaderDrop({ maxEvents: config.httpSubscriberBacklogEvents, maxBytes: config.httpSubscriberBacklogBytes }),
    ),
    // onRequest: /ready, ahead of the metrics' own route (another path).
    named('readiness-route', useReadinessRoute({ endpoint: '/ready', problem: parts.notReady })),
  ];
  const document = [
    // onSchemaChange/onValidate: @defer and @stream, their validation rules unless the document is cached valid.
    named('defer-stream', documents.rulesOnly(useDeferStream())),
    // onParse/onValidate: depth, aliases and tokens checked before the document costs more.
    named('document-limits', useDocumentLimits(config)),
    // onExecute/onSubscribe: refuses an operation over MAX_COST before it runs.
    named(
      'cost-limit',
      useCostLimit({ maxCost: config.maxCost, mode: config.costMode, ...(metrics ? { onOverLimit: metrics.overCost } : {}) }),
    ),
    // onExecute, after the cost limit: a sign-in refused for its cost takes nothing from the sign-in buckets.
    ...when(parts.signInLimiter, () => named('sign-in-limit', useSignInLimit(parts.signInLimiter!))),
    ...when(parts.fanOutLimiter, () => named('fan-out-limit', useFanOutLimit(parts.fanOutLimiter!))),
    // onExecute, after the cost limit (a refused operation starts nothing): the caller's proof beside the first reads.
    named('early-proof', useEarlyProof()),
    // onExecuteDone/onSubscribeResult: caps what a result holds.
    named('result-caps', useResultCaps(config)),
    // onValidate (a rule, skipped for cached documents) and onExecuteDone.
    ...when(!config.introspection, () => named('introspection-refusal', documents.rulesOnly(useIntrospectionRefusal()))),
    // onParse/onValidate: where yoga puts its own parse and validation cache, which it replaces; after the rules above.
    named('document-cache', documents.plugin),
    // onSubscribe, after every plugin that may refuse an operation: a refused one takes no slot.
    named('subscription-limits', useSubscriptionLimits(parts.slots)),
  ];
  const observers = [
    // onRequest (/metrics), onParse/onValidate/onExecute: counts every operation, refused ones too.
    ...when(metrics, () => named('metrics', metrics!.plugin)),
    // onExecute/onSubscribe: the operation's span, around the execution chosen below.
    ...when(tracing?.tracer || config.logRequests, () => named('operation-tracing', useOperationTracing(tracing))),
  ];
  const execution = [
    // onExecute (setExecuteFn): compiled execution once a document has run `afterRuns` times.
    ...when(compiled, () => named('compiled-execution', compiled!)),
    // onExecute/onSubscribe (setExecuteFn/setSubscribeFn), after compiled execution, whose choice it wraps: the operation
    // waits for admission (by the cost limit's estimate) when it is about to run, and releases it when it ends.
    named('admission', useAdmission(parts.admission, config.admissionWaitMs, parts.admissionKey)),
    // onExecute (setExecuteFn), after compiled execution and admission: it shares whichever execution they chose, so an
    // operation sharing another's execution waits for no admission.
    ...when(config.shareQueries, () =>
      named('shared-execution', useSharedExecution({ writes: parts.writes, ...(metrics ? { onShared: metrics.sharedExecution } : {}) })),
    ),
    // onExecuteDone/onSubscribeResult, after compiled execution, whose hook gives its errors their nodes.
    named('upstream-errors', useUpstreamErrors(config.errorDetail === 'masked' ? errorMasking() : undefined)),
  ];
  return { request, document, observers, execution };
}

/** Every plugin, phase after phase. */
export function gatewayPlugins(parts: PluginParts): NamedPlugin[] {
  const phases = gatewayPhases(parts);
  return PHASES.flatMap((phase) => phases[phase]);
}
