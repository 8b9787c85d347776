// Warm start (issue 34): before /ready answers 200, the persisted documents are parsed, validated
// and compiled as their first requests would have done it, through yoga's own pipeline (so the
// document cache and compiled execution keep them), and connections to the IM service are opened.
// The first request after start then costs what the hundredth does. The gateway listens first
// (/health answers, /ready says it is warming up), and start() resolves once the warm-up is over.
// A start that opens no connection at all says so (a wrong IM_BASE_URL, the service down): one
// warning naming the URL and the error, and /ready stays 503 while connections are retried in the
// background, so that no load balancer sends traffic to a replica that can answer nothing.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';
import type { Preconnected } from '../../rest/spare-sockets';

/** The first retry of a start that opened no connection, doubled up to the last. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 5_000;

interface Pipeline {
  parse(source: string): DocumentNode;
  validate(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[];
  readonly schema: GraphQLSchema;
}

interface WarmUpParts {
  /** The persisted documents' texts. */
  documents(): Iterable<string>;
  /** Compiles a validated document's operations (compiled execution), when it is on. */
  compile: ((schema: GraphQLSchema, document: DocumentNode) => unknown) | undefined;
  /** Opens connections to the IM service. */
  preconnect(): Promise<Preconnected>;
  /** The IM service's origin, named when it cannot be reached. */
  imBaseUrl: string;
  warn(message: string): void;
  info(message: string): void;
}

export interface WarmUp {
  /**
   * Warms the gateway up through `pipeline` (yoga's, with every plugin's parse and validate hooks:
   * made after the plugins, which ask pending()); resolves when it is done (never rejects: what
   * fails is warned about and left to the first request).
   */
  run(pipeline: () => Pipeline): Promise<void>;
  /** Why /ready must wait, or undefined once warm. */
  pending(): string | undefined;
  /** Stops retrying connections. */
  stop(): void;
}

export function warmUp(parts: WarmUpParts): WarmUp {
  let warm = false;
  /** Why no connection could be opened, while none has been. */
  let unreachable: string | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;

  const why = (error: Error | undefined) => {
    const message = error?.message || 'no connection opened';
    const code = error && 'code' in error ? String(error.code) : '';
    return code && !message.includes(code) ? `${message} (${code})` : message;
  };

  /** Connects again after `ms`, and again with a longer wait until a connection opens. */
  function retryAfter(ms: number): void {
    retry = setTimeout(() => {
      void parts.preconnect().then((result) => {
        if (stopped) return;
        if (result.open > 0) {
          unreachable = undefined;
          parts.info(`warm start: connected to the IM service at ${parts.imBaseUrl}; ready`);
        } else {
          unreachable = why(result.error);
          retryAfter(Math.min(ms * 2, RETRY_MAX_MS));
        }
      });
    }, ms);
    // A process that is otherwise done is not held up by the retries.
    retry.unref();
  }

  async function connect(): Promise<void> {
    const result = await parts.preconnect().catch((err: unknown): Preconnected => ({ open: 0, error: err as Error }));
    if (result.open > 0 || stopped) return;
    unreachable = why(result.error);
    parts.warn(
      `warm start: no connection to the IM service at ${parts.imBaseUrl} (IM_BASE_URL): ${unreachable}. ` +
        '/ready answers 503 until one opens; retrying in the background.',
    );
    retryAfter(RETRY_FIRST_MS);
  }

  function prepare(pipeline: Pipeline, text: string): void {
    try {
      const document = pipeline.parse(text);
      const errors = pipeline.validate(pipeline.schema, document);
      if (errors.length > 0) throw new Error(errors[0]!.message);
      parts.compile?.(pipeline.schema, document);
    } catch (err) {
      parts.warn(`warm start: a persisted document was left to its first request (${err instanceof Error ? err.message : String(err)})`);
    }
  }

  return {
    async run(pipelineOf) {
      const connecting = connect();
      const pipeline = pipelineOf();
      for (const text of parts.documents()) {
        prepare(pipeline, text);
        // A turn between documents: /health and /ready answer while the gateway compiles.
        await nextTurn();
      }
      await connecting;
      warm = true;
    },
    pending() {
      if (!warm) return 'the gateway is warming up (persisted documents, connections to the IM service)';
      if (unreachable !== undefined) return `no connection to the IM service at ${parts.imBaseUrl} (IM_BASE_URL) yet: ${unreachable}`;
      return undefined;
    },
    stop() {
      stopped = true;
      clearTimeout(retry);
    },
  };
}
