// Incremental delivery (@defer, @stream: @graphql-yoga/plugin-defer-stream, graphql-tools'
// executor). A document that uses them answers in several payloads (src/schema/core/payloads.ts).
// Compiled execution (jit.ts) cannot run them, and a client that accepts only one JSON answer gets the document without them (the
// whole answer at once, as graphql-over-http allows): accept.ts.
import { type DocumentNode, Kind, visit } from 'graphql';

const INCREMENTAL = new Set(['defer', 'stream']);

const uses = new WeakMap<DocumentNode, boolean>();

/** Whether the document has a @defer or @stream anywhere (once per parsed document). */
export function usesIncrementalDelivery(document: DocumentNode): boolean {
  let found = uses.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      Directive(node) {
        if (!INCREMENTAL.has(node.name.value)) return undefined;
        found = true;
        return false;
      },
    });
    uses.set(document, found);
  }
  return found;
}

const stripped = new WeakMap<DocumentNode, DocumentNode>();

/** The document with its @defer and @stream removed: the same answer, in one payload. */
export function withoutIncrementalDelivery(document: DocumentNode): DocumentNode {
  let plain = stripped.get(document);
  if (!plain) {
    plain = visit(document, { [Kind.DIRECTIVE]: (node) => (INCREMENTAL.has(node.name.value) ? null : undefined) });
    stripped.set(document, plain);
  }
  return plain;
}
