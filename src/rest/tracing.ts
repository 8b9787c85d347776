// A span per REST attempt (client kind), named after the endpoint's table key, and the W3C
// `traceparent`/`tracestate` headers that carry its trace to the IM service. The tracer is handed
// in (src/gateway/observability/tracing/): without one, no span is made, and a call that belongs
// to a trace carries the request's context on unchanged (contextHeaders).
import { type Context, type Span, type SpanContext, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import type { CallOptions, RestClient } from './client';
import { UpstreamError } from './errors';

/** Starts the span of one attempt, a child of the request's (or poll round's) context. */
export function startCallSpan(tracer: Tracer, endpoint: string, method: string, attempt: number, parent: Context | undefined): Span {
  const span = tracer.startSpan(endpoint, { kind: SpanKind.CLIENT }, parent);
  if (span.isRecording()) {
    span.setAttribute('http.request.method', method);
    span.setAttribute('im.endpoint', endpoint);
    // Semantic conventions count resends: 0 for the first attempt.
    span.setAttribute('http.request.resend_count', attempt - 1);
  }
  return span;
}

/** W3C trace context headers of a span context; none for an invalid one. */
function headersOf(sc: SpanContext | undefined): Record<string, string> | undefined {
  if (!sc || !trace.isSpanContextValid(sc)) return undefined;
  const traceparent = `00-${sc.traceId}-${sc.spanId}-0${(sc.traceFlags & 1).toString(16)}`;
  const state = sc.traceState?.serialize();
  return state ? { traceparent, tracestate: state } : { traceparent };
}

/** The headers of an attempt: the call's own plus its span's trace context. */
export function traceHeaders(span: Span, headers: Record<string, string>): Record<string, string> {
  const carried = headersOf(span.spanContext());
  return carried ? { ...headers, ...carried } : headers;
}

// A request's calls share its context object: formatted once for all of them (NONE: it carries none).
const carriedBy = new WeakMap<Context, Record<string, string>>();
const NONE: Record<string, string> = Object.freeze({});

/** The trace context headers of `ctx` as they go on when nothing is recorded (its span's, unchanged). */
export function contextHeaders(ctx: Context): Record<string, string> | undefined {
  let carried = carriedBy.get(ctx);
  if (carried === undefined) carriedBy.set(ctx, (carried = headersOf(trace.getSpanContext(ctx)) ?? NONE));
  return carried === NONE ? undefined : carried;
}

/** Ends an attempt's span with the status that came back and, when it failed, the upstream code. */
export function endCallSpan(span: Span, status: number | undefined, error?: unknown): void {
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
