// Slow readers of subscriptions over HTTP (SSE, yoga's; multipart, multipart-subscriptions.ts) are
// dropped, never buffered without bound (backlog.ts): past HTTP_SUBSCRIBER_BACKLOG_EVENTS events or
// HTTP_SUBSCRIBER_BACKLOG_BYTES bytes waiting while its socket has refused more for a second, the subscription ends and the answer's last event is
// an error with code SLOW_CONSUMER. A reader that does not even take that event within
// DROPPED_READER_GRACE_MS has its connection closed, which frees the socket's buffers too.
// WebSocket subscribers are not concerned: their pings go unanswered and the socket is dropped.
import type { ServerResponse } from 'node:http';
import { type ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { log } from '../../log/logger';
import { type Backlog, type BacklogBounds, boundedBacklog } from './backlog';

/** How long a dropped reader has to read its final event before its connection is closed. */
export const DROPPED_READER_GRACE_MS = 30_000;

/**
 * How long a socket refuses more (writableNeedDrain, no 'drain' since) before it counts as
 * stalled: a large event refuses the next write until the kernel took it, a moment for a reader
 * that keeps up, so a burst of events is not taken for a reader that stopped.
 */
export const STALLED_AFTER_MS = 1_000;

/** Whether the response's socket has refused more for STALLED_AFTER_MS (checked as events arrive). */
function stallWatch(res: ServerResponse | undefined): () => boolean {
  if (!res) return () => true;
  let since: number | undefined;
  res.on('drain', () => (since = undefined));
  return () => {
    if (!res.writableNeedDrain) {
      since = undefined;
      return false;
    }
    since ??= Date.now();
    return Date.now() - since >= STALLED_AFTER_MS;
  };
}

function slowConsumer(backlog: Backlog, bounds: BacklogBounds): ExecutionResult {
  const error = new GraphQLError(
    `The subscription is closed: its reader fell behind by ${backlog.events} events (${backlog.bytes} bytes), ` +
      `over the limit of ${bounds.maxEvents} events or ${bounds.maxBytes} bytes. Read faster, or subscribe again.`,
    { extensions: { code: 'SLOW_CONSUMER', maxEvents: bounds.maxEvents, maxBytes: bounds.maxBytes } },
  );
  return { errors: [error] };
}

export function useSlowReaderDrop(bounds: BacklogBounds, onDrop?: () => void): Plugin<{ request?: Request }> {
  const subscriptions = new WeakSet<Request>();
  return {
    onSubscribe({ args }) {
      const request = args.contextValue.request;
      if (request) subscriptions.add(request);
    },
    onResultProcess({ request, result, setResult, serverContext }) {
      if (!subscriptions.has(request) || Array.isArray(result) || !(Symbol.asyncIterator in result)) return;
      const res = (serverContext as { res?: ServerResponse }).res;
      const dropped = (backlog: Backlog) => {
        onDrop?.();
        log().warn({ events: backlog.events, bytes: backlog.bytes }, 'subscription over HTTP dropped: its reader fell behind');
        if (!res) return;
        const close = setTimeout(() => res.destroy(), DROPPED_READER_GRACE_MS);
        close.unref();
        res.once('close', () => clearTimeout(close));
      };
      setResult(
        boundedBacklog(result, bounds, {
          stalled: stallWatch(res),
          final: (backlog) => slowConsumer(backlog, bounds),
          onDrop: dropped,
        }),
      );
    },
  };
}
