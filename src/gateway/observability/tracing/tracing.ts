// The gateway's tracing, from OpenTelemetry's standard variables (config.ts: TracingConfig):
// - OTEL_SDK_DISABLED=true: none at all (no span, no `traceparent` sent on);
// - no exporter set: no tracer. Nothing is recorded, but the trace context goes on: an incoming
//   `traceparent` is forwarded unchanged on every REST call, and a request without one gets a
//   fresh trace id, so the IM service's logs can still be joined on it. Costs next to nothing;
// - an exporter set: the SDK's tracer, sampled as OTEL_TRACES_SAMPLER says, spans batched to
//   OTLP/HTTP (JSON or protobuf).
// Context is passed explicitly (GatewayContext.trace, CallOptions.trace), not through
// AsyncLocalStorage: the REST client hands each attempt's context to its observer (rest-calls.ts).
import type { IncomingHttpHeaders } from 'node:http';
import {
  type Context,
  defaultTextMapGetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { TracingConfig } from '../../../config';
import type { CallObserver } from '../../../rest/client';
import type { RoundTracer } from '../../../subscriptions/poller';
import { randomIds } from './ids';
import { tracedCalls, tracedClient } from './rest-calls';
import { samplerOf } from './sampler';

const TRACER_NAME = 'im-graphql-gateway';

export interface Tracing {
  /** The SDK's tracer when spans are recorded and exported (an exporter is set); else none. */
  readonly tracer: Tracer | undefined;
  /** The REST client's observer: a span per attempt when recorded, and the trace context sent on (rest-calls.ts). */
  readonly calls: CallObserver;
  /** What a request's first span hangs under: the incoming trace context, or a new trace. */
  parentOf(headers?: IncomingHttpHeaders): Context;
  /** Each poll round a trace of its own (subscriptions/poller.ts). */
  readonly traceRound: RoundTracer;
  /** Sends what is still batched; resolves once done (or failed). */
  shutdown(): Promise<void>;
}

const propagator = new W3CTraceContextPropagator();

export function createTracing(config: TracingConfig): Tracing | undefined {
  if (!config.enabled) return undefined;
  const exportUrl = config.exportUrl;
  let provider: TracerProvider | undefined;
  if (exportUrl !== undefined) {
    const exporter = config.protocol === 'http/json' ? new JsonExporter({ url: exportUrl }) : new ProtobufExporter({ url: exportUrl });
    provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': config.serviceName }),
      sampler: samplerOf(config),
      idGenerator: randomIds,
      spanProcessors: [new BatchSpanProcessor({ exporter })],
    });
  }
  const tracer = provider?.getTracer(TRACER_NAME);

  function parentOf(headers?: IncomingHttpHeaders): Context {
    const ctx = headers?.traceparent ? propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter) : ROOT_CONTEXT;
    // The SDK starts a trace by itself; with no tracer the trace id is made here.
    if (tracer || trace.getSpanContext(ctx)) return ctx;
    return trace.setSpanContext(ctx, {
      traceId: randomIds.generateTraceId(),
      spanId: randomIds.generateSpanId(),
      traceFlags: TraceFlags.NONE,
    });
  }

  const traceRound: RoundTracer = (source, rest) => {
    // Nothing recorded: the round's calls carry a trace of their own, with no span.
    if (!tracer) return { rest: tracedClient(rest, parentOf()), end() {} };
    const span = tracer.startSpan(`poll ${source}`, { kind: SpanKind.INTERNAL, attributes: { 'im.poll.source': source } }, parentOf());
    return {
      rest: tracedClient(rest, trace.setSpan(ROOT_CONTEXT, span)),
      end(error) {
        if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      },
    };
  };

  return {
    tracer,
    calls: tracedCalls(tracer),
    parentOf,
    traceRound,
    shutdown: async () => {
      await provider?.shutdown().catch(() => {});
    },
  };
}
