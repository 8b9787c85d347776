// Parsed documents by their text, and validation verdicts by parsed document: in place of yoga's
// parserAndValidationCache, which builds a key of every validation rule's name for each request
// (the `name` getters alone were 1% of a cached `me`) and keeps its entries in an LRU whose
// bookkeeping showed beside. Here the rules are fixed for the gateway's life (one schema, the
// limits and introspection rules of its configuration), so a verdict needs no key but the
// document; texts are held up to `maxDocuments`, the oldest stored going first.
import type { DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export interface DocumentCache {
  plugin: Plugin;
  /**
   * The plugin with its onValidate run only for a document not yet validated: for plugins whose
   * onValidate just changes the rules (@defer's, which filters the rules by name on every call).
   */
  rulesOnly<P extends Plugin>(plugin: P): P;
  /** The text's parsed document once it has been validated without errors (what warm start left here). */
  validated(text: string): DocumentNode | undefined;
}

export function useDocumentCache(maxDocuments = 1024): DocumentCache {
  /** A text's parsed document, or the error parsing it threw (a bad text is refused again at once). */
  const parsed = new Map<string, DocumentNode | Error>();
  const verdicts = new WeakMap<DocumentNode, readonly Error[]>();
  const remember = (text: string, outcome: DocumentNode | Error) => {
    if (parsed.size >= maxDocuments) parsed.delete(parsed.keys().next().value!);
    parsed.set(text, outcome);
  };
  const plugin: Plugin = {
    onParse({ params, setParsedDocument }) {
      const text = typeof params.source === 'string' ? params.source : params.source.body;
      const known = parsed.get(text);
      if (known instanceof Error) throw known;
      if (known) return setParsedDocument(known);
      return ({ result }) => {
        // A document or the parse error (an Error too); null when no parser ran.
        if (result) remember(text, result as DocumentNode | Error);
      };
    },
    onValidate({ params: { documentAST }, setResult }) {
      const verdict = verdicts.get(documentAST);
      if (verdict) return setResult(verdict);
      return ({ result }) => {
        verdicts.set(documentAST, result);
      };
    },
  };
  return {
    plugin,
    validated(text) {
      const document = parsed.get(text);
      return document && !(document instanceof Error) && verdicts.get(document)?.length === 0 ? document : undefined;
    },
    rulesOnly(plugin) {
      const { onValidate } = plugin;
      if (!onValidate) return plugin;
      return { ...plugin, onValidate: (payload) => (verdicts.has(payload.params.documentAST) ? undefined : onValidate(payload)) };
    },
  };
}
