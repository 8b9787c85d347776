// Tracing's use of the REST client's attempt hook: a span per attempt (client kind), named after
// the endpoint's table key, and the W3C `traceparent`/`tracestate` headers that carry its trace to
// the IM service. Without a tracer, no span is made, and a call that belongs to a trace carries the
// request's context on unchanged (formatted once per request). Either way the attempt's trace and
// span ids go into its CallInfo, for the call log.
import { type Context, type Span, type SpanContext, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import type { AttemptStart, CallInfo, CallObserver, CallOptions, RestClient } from '../../../rest/client';
import { UpstreamError } from '../../../rest/errors';

/** W3C trace context headers of a span context; none for an invalid one. */
function headersOf(sc: SpanContext | undefined): Record<string, string> | undefined {
  if (!sc || !trace.isSpanContextValid(sc)) return undefined;
  const traceparent = `00-${sc.traceId}-${sc.spanId}-0${(sc.traceFlags & 1).toString(16)}`;
  const state = sc.traceState?.serialize();
  return state ? { traceparent, tracestate: state } : { traceparent };
}

// A request's calls share its context object: formatted once for all of them (NONE: it carries none).
const carriedBy = new WeakMap<Context, Record<string, string>>();
const NONE: Record<string, string> = Object.freeze({});

/** The trace context headers of `ctx` as they go on when nothing is recorded (its span's, unchanged). */
function contextHeaders(ctx: Context): Record<string, string> | undefined {
  let carried = carriedBy.get(ctx);
  if (carried === undefined) carriedBy.set(ctx, (carried = headersOf(trace.getSpanContext(ctx)) ?? NONE));
  return carried === NONE ? undefined : carried;
}

/** The attempt's headers with `carried` among them: a copy, since the call's attempts share the original. */
function sendAlso(attempt: AttemptStart, carried: Record<string, string> | undefined): void {
  if (carried) attempt.headers = { ...attempt.headers, ...carried };
}

/** The context a call hangs under (CallOptions.trace holds a request's or a poll round's). */
const contextOf = (attempt: AttemptStart) => attempt.trace as Context | undefined;

function setIds(info: CallInfo, sc: SpanContext | undefined): void {
  if (!sc) return;
  info.traceId = sc.traceId;
  info.spanId = sc.spanId;
}

/** Starts the span of one attempt, a child of the request's (or poll round's) context. */
function startCallSpan(tracer: Tracer, attempt: AttemptStart): Span {
  const span = tracer.startSpan(attempt.endpoint, { kind: SpanKind.CLIENT }, contextOf(attempt));
  if (span.isRecording()) {
    span.setAttribute('http.request.method', attempt.method);
    span.setAttribute('im.endpoint', attempt.endpoint);
    // Semantic conventions count resends: 0 for the first attempt.
    span.setAttribute('http.request.resend_count', attempt.attempt - 1);
  }
  return span;
}

/** Ends an attempt's span with the status that came back and, when it failed, the upstream code. */
function endCallSpan(span: Span, status: number | undefined, error: unknown): void {
  if (span.isRecording()) {
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    if (error instanceof UpstreamError) {
      span.setAttribute('error.type', error.kind);
      if (error.code !== undefined) span.setAttribute('im.upstream.code', error.code);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.kind });
    } else if (error !== undefined) {
      span.setAttribute('error.type', error instanceof Error ? error.name : 'aborted');
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  }
  span.end();
}

/** Every attempt a span of `tracer`, sending its own trace context. */
function spanPerAttempt(tracer: Tracer): CallObserver<Span> {
  return {
    start(attempt) {
      const span = startCallSpan(tracer, attempt);
      sendAlso(attempt, headersOf(span.spanContext()));
      return span;
    },
    end(span, info, error) {
      endCallSpan(span, info.status, error);
      setIds(info, span.spanContext());
    },
  };
}

/** Nothing recorded: every attempt carries its call's trace context on as it is. */
const contextCarried: CallObserver<Context | undefined> = {
  start(attempt) {
    const ctx = contextOf(attempt);
    if (ctx) sendAlso(attempt, contextHeaders(ctx));
    return ctx;
  },
  end(ctx, info) {
    if (ctx) setIds(info, trace.getSpanContext(ctx));
  },
};

/** Tracing's observer of REST attempts: spans when a tracer records them, else the context carried on. */
export function tracedCalls(tracer: Tracer | undefined): CallObserver {
  return tracer ? spanPerAttempt(tracer) : contextCarried;
}

/** A client whose every call is part of `ctx` (a poll round's span). */
export function tracedClient(rest: RestClient, ctx: Context): RestClient {
  const source = { current: ctx };
  const opts = (o: CallOptions | undefined): CallOptions => ({ ...o, trace: source });
  return {
    call: (name, params, caller, o) => rest.call(name, params, caller, opts(o)),
    download: (name, params, caller, o) => rest.download(name, params, caller, opts(o)),
    close: () => rest.close(),
  };
}
