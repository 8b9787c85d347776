// Warm start (issue 34): before /ready answers 200, the persisted documents are parsed, validated
// and compiled as their first requests would have done it, through yoga's own pipeline (so the
// document cache and compiled execution keep them), and connections to the IM service are opened.
// The first request after start then costs what the hundredth does. The gateway listens first
// (/health answers, /ready says it is warming up), and start() resolves once the warm-up is over.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';

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
  preconnect(): Promise<unknown>;
  warn(message: string): void;
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
}

export function warmUp(parts: WarmUpParts): WarmUp {
  let warm = false;

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
      const connecting = parts.preconnect().catch((err: unknown) => parts.warn(`warm start: no connection opened (${String(err)})`));
      const pipeline = pipelineOf();
      for (const text of parts.documents()) {
        prepare(pipeline, text);
        // A turn between documents: /health and /ready answer while the gateway compiles.
        await nextTurn();
      }
      await connecting;
      warm = true;
    },
    pending: () => (warm ? undefined : 'the gateway is warming up (persisted documents, connections to the IM service)'),
  };
}
