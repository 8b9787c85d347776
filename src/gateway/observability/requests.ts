// Every HTTP request as the observers see it: its server span (when tracing) and, with
// LOG_REQUESTS=true, one `info` line when it ends. The RequestTrace made here is the one the
// request's GraphQL context gets (traceOf), so that the operation plugin and the REST calls hang
// under the request's span. Nothing is added when neither is on.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { type Context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { RequestTrace } from '../../context';
import { log, traceFields } from '../../log/logger';
import type { Tracing } from './tracing/tracing';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface ObserveOptions {
  tracing: Tracing | undefined;
  logRequests: boolean;
  /** Paths named as they are in span names and log lines; any other is not (it may hold anything). */
  routes: readonly string[];
}

const traces = new WeakMap<IncomingMessage, RequestTrace>();

/** The request's trace record, when it is observed. */
export function traceOf(req: IncomingMessage | undefined): RequestTrace | undefined {
  return req ? traces.get(req) : undefined;
}

/**
 * An operation's trace record: its HTTP request's; over a WebSocket (whose upgrade is not observed
 * here), one continuing the `traceparent`/`tracestate` the client sent in connectionParams (or an
 * operation's `extensions.headers`), else a new trace.
 */
export function operationTrace(
  tracing: Tracing | undefined,
  req: IncomingMessage | undefined,
  params: Record<string, unknown> | undefined,
): RequestTrace | undefined {
  const observed = traceOf(req);
  if (observed || !tracing) return observed;
  const text = (name: string) => (typeof params?.[name] === 'string' ? params[name] : undefined);
  return { current: tracing.parentOf({ traceparent: text('traceparent'), tracestate: text('tracestate') }) };
}

/** A request's trace record whose context is made on first read (a class: accessors on a literal cost a closure pair per request). */
class LazyTrace implements RequestTrace {
  #current: Context | undefined;
  #made = false;

  constructor(
    private readonly tracing: Tracing,
    private readonly headers: IncomingHttpHeaders,
  ) {}

  get current(): Context | undefined {
    if (!this.#made) this.current = this.tracing.parentOf(this.headers);
    return this.#current;
  }

  set current(value: Context | undefined) {
    this.#current = value;
    this.#made = true;
  }
}

function endSpan(span: Span, status: number): void {
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

export function observeRequests(handler: Handler, { tracing, logRequests, routes }: ObserveOptions): Handler {
  if (!tracing && !logRequests) return handler;
  const tracer = tracing?.tracer;
  if (tracing && !tracer && !logRequests) {
    // Nothing recorded, nothing logged: the trace context alone, made when a REST call first needs it
    // (an answer served from the caches pays for no trace id).
    return (req, res) => {
      traces.set(req, new LazyTrace(tracing, req.headers));
      handler(req, res);
    };
  }
  const known = new Set(routes);
  return (req, res) => {
    const started = performance.now();
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    const route = known.has(path) ? path : undefined;
    const method = req.method ?? 'GET';
    const record: RequestTrace = { current: undefined };
    let span: Span | undefined;
    if (tracing && tracer) {
      const parent = tracing.parentOf(req.headers);
      span = tracer.startSpan(route ? `${method} ${route}` : method, { kind: SpanKind.SERVER }, parent);
      if (span.isRecording()) {
        span.setAttribute('http.request.method', method);
        if (route) span.setAttribute('http.route', route);
      }
      record.current = trace.setSpan(parent, span);
    } else if (tracing) {
      // Nothing recorded: no span, the incoming (or a new) trace context goes on as it is.
      record.current = tracing.parentOf(req.headers);
    }
    traces.set(req, record);
    if (span || logRequests) {
      res.once('close', () => {
        const status = res.headersSent ? res.statusCode : 0;
        if (span?.isRecording()) endSpan(span, status);
        if (logRequests) {
          const sc = span ? span.spanContext() : record.current && trace.getSpanContext(record.current);
          log().info(
            {
              method,
              path: route ?? '(other)',
              status,
              ms: Math.round(performance.now() - started),
              ...(record.operation ? { operation: record.operation } : {}),
              ...traceFields({ traceId: sc?.traceId, spanId: sc?.spanId }),
            },
            'request',
          );
        }
      });
    }
    handler(req, res);
  };
}
