// Subscriptions over multipart HTTP, Apollo's protocol (Apollo Client's HttpLink, Apollo iOS and
// Kotlin): a POST whose Accept has `multipart/mixed;subscriptionSpec=1.0` gets one
// `application/json` part per event, `{"payload": <result>}`; a `{}` heartbeat every
// HTTP_HEARTBEAT_MS (and one at once, so that the client sees the answer start); a failure of
// the transport as `{"payload": null, "errors": [...]}`; and the closing boundary when the
// subscription ends. yoga 5 writes subscriptions as SSE only (its multipart writer is for queries,
// without the payload envelope): this plugin picks the writer for such requests. The events are
// those every transport gets (same execution, same hub: src/subscriptions/hub.ts); a client gone
// cancels the body, which returns the execution's iterator, and the hub drops the subscriber.
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { acceptsApolloMultipart } from './accept';

const BOUNDARY = 'graphql';
const CONTENT_TYPE = `multipart/mixed;boundary="${BOUNDARY}";subscriptionSpec=1.0`;

/** An error as the client sees it: extensions meant for the server (the HTTP status) left out. */
function publicError(error: unknown) {
  const json = error instanceof GraphQLError ? error.toJSON() : { message: String(error) };
  if (!json.extensions) return json;
  const { http: _http, unexpected: _unexpected, ...extensions } = json.extensions;
  return { ...json, extensions: Object.keys(extensions).length > 0 ? extensions : undefined };
}

const publicResult = (result: ExecutionResult) => (result.errors ? { ...result, errors: result.errors.map(publicError) } : result);

/** One part: the boundary that opens it is already written, this writes the one that closes it. */
const part = (body: unknown) => `\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${JSON.stringify(body)}\r\n--${BOUNDARY}`;

async function* once(result: ExecutionResult) {
  yield result;
}

function multipartSubscription(
  events: AsyncIterable<ExecutionResult> | ExecutionResult,
  heartbeatMs: number,
  fetchAPI: { Response: typeof Response },
) {
  const encoder = new TextEncoder();
  let heartbeat: NodeJS.Timeout | undefined;
  let iterator: AsyncIterator<ExecutionResult> | undefined;
  const stop = () => clearInterval(heartbeat);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      iterator = (Symbol.asyncIterator in events ? events : once(events))[Symbol.asyncIterator]();
      controller.enqueue(encoder.encode(`\r\n--${BOUNDARY}${part({})}`));
      heartbeat = setInterval(() => {
        // null: closed or failed; 0 or less: the client reads slowly, a heartbeat can wait.
        if (controller.desiredSize === null) return stop();
        if (controller.desiredSize > 0) controller.enqueue(encoder.encode(part({})));
      }, heartbeatMs);
      heartbeat.unref();
    },
    async pull(controller) {
      let chunk: string;
      let done = false;
      try {
        const next = await iterator!.next();
        done = next.done === true;
        chunk = done ? '' : part({ payload: publicResult(next.value) });
      } catch {
        // The execution failed outside GraphQL (its errors are results): a transport error, masked.
        done = true;
        chunk = part({ payload: null, errors: [{ message: 'The subscription failed', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
      }
      if (done) {
        stop();
        controller.enqueue(encoder.encode(`${chunk}--\r\n`));
        controller.close();
      } else {
        controller.enqueue(encoder.encode(chunk));
      }
    },
    async cancel() {
      stop();
      await iterator?.return?.();
    },
  });
  return new fetchAPI.Response(body, {
    status: 200,
    headers: { 'Content-Type': CONTENT_TYPE, 'Cache-Control': 'no-cache', Connection: 'keep-alive' },
  });
}

export function useMultipartSubscriptions({ heartbeatMs }: { heartbeatMs: number }): Plugin<{ request?: Request }> {
  const subscriptions = new WeakSet<Request>();
  return {
    onSubscribe({ args }) {
      const request = args.contextValue.request;
      if (request && acceptsApolloMultipart(request.headers.get('accept'))) subscriptions.add(request);
    },
    onResultProcess({ request, result, resultProcessor, setResultProcessor }) {
      if (!subscriptions.has(request) || Array.isArray(result)) return;
      // A subscription refused before it started (cost, limits) is one JSON answer with its
      // status, when the client takes JSON (Apollo's do); the events are multipart.
      if (!(Symbol.asyncIterator in result) && resultProcessor) return;
      setResultProcessor((events, fetchAPI) => multipartSubscription(events as ExecutionResult, heartbeatMs, fetchAPI), 'multipart/mixed');
    },
  };
}
