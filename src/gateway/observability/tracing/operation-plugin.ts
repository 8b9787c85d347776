// The GraphQL operation's span: a child of the HTTP request's (a new trace for a WebSocket
// operation), named `query Name`, with the operation's name, type and a SHA-256 of the document
// text. Never the variables. The span becomes the trace of the request's REST calls
// (GatewayContext.trace). Also names the operation for the request's log line.
import { createHash } from 'node:crypto';
import { type Context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { getOperationAST, type DocumentNode, type ExecutionResult, print } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../../../context';
import type { Tracing } from './tracing';

interface OperationArgs {
  document: DocumentNode;
  operationName?: string | null | undefined;
  contextValue: unknown;
}

/** yoga's context holds the request's params (the document's text) next to ours. */
type YogaGatewayContext = GatewayContext & { params?: { query?: string } };

// yoga's parse cache answers the same DocumentNode for the same text: hashed once.
const hashes = new WeakMap<DocumentNode, string>();

function hashOf(context: YogaGatewayContext, document: DocumentNode): string {
  let hash = hashes.get(document);
  if (hash === undefined) {
    hash = createHash('sha256')
      .update(context.params?.query ?? print(document))
      .digest('hex');
    hashes.set(document, hash);
  }
  return hash;
}

function start(tracing: Tracing | undefined, args: OperationArgs): Span | undefined {
  const context = args.contextValue as YogaGatewayContext;
  const op = getOperationAST(args.document, args.operationName);
  const type = op?.operation ?? 'query';
  const name = op?.name?.value;
  context.trace.operation = name ?? `(anonymous ${type})`;
  // Not recording: the request's context is already what its REST calls carry on.
  const tracer = tracing?.tracer;
  if (!tracer) return undefined;
  const parent: Context = context.trace.current ?? tracing.parentOf();
  const span = tracer.startSpan(name ? `${type} ${name}` : type, { kind: SpanKind.INTERNAL }, parent);
  if (span.isRecording()) {
    span.setAttribute('graphql.operation.type', type);
    if (name) span.setAttribute('graphql.operation.name', name);
    span.setAttribute('graphql.document.hash', hashOf(context, args.document));
  }
  context.trace.current = trace.setSpan(parent, span);
  return span;
}

function end(span: Span | undefined, result: unknown): void {
  if (!span) return;
  const errors = (result as ExecutionResult | undefined)?.errors;
  if (errors?.length && span.isRecording()) {
    span.setAttribute('graphql.error.count', errors.length);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

export function useOperationTracing(tracing: Tracing | undefined): Plugin {
  return {
    onExecute({ args }) {
      const span = start(tracing, args);
      return { onExecuteDone: ({ result }) => end(span, result) };
    },
    onSubscribe({ args }) {
      const span = start(tracing, args);
      return {
        onSubscribeResult: ({ result }) => end(span, result),
        onSubscribeError: () => {
          span?.setStatus({ code: SpanStatusCode.ERROR });
          span?.end();
        },
      };
    },
  };
}
