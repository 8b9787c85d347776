// The persisted family: the trusted documents and the APQ store (in Redis when set), the document
// cache, and compiled execution (GRAPHQL_JIT): what makes a document ready to run, and says so.
import { Kind, type OperationDefinitionNode } from 'graphql';
import type { Config } from '../../config';
import { log } from '../../log/logger';
import type { SharedRedis } from '../../redis/shared-redis';
import { useDocumentCache } from '../execution/document-cache';
import { useCompiledExecution } from '../execution/jit';
import type { Resource } from '../lifecycle/resources';
import { createPersisted } from '../persisted/persisted';

export function persistedFamily(config: Config, redis: SharedRedis | undefined) {
  // Trusted documents and APQ (README: Persisted queries); the APQ store uses Redis once it started.
  const persisted = createPersisted(config, { redis, warn: (message) => log().warn(`persisted queries: ${message}`) });
  const documents = useDocumentCache();
  const compiled = config.jit ? useCompiledExecution({ afterRuns: config.jitAfterRuns }) : undefined;
  const resource: Resource = { name: 'persisted-documents', start: () => persisted.start(), close: () => persisted.close() };
  return {
    persisted,
    documents,
    compiled,
    /** Whether a document's text is parsed, validated and (compiled execution on) its queries and mutations compiled. */
    prepared(text: string): boolean {
      const document = documents.validated(text);
      if (!document) return false;
      // Subscriptions run on graphql-js.
      const compilable = document.definitions.filter(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && d.operation !== 'subscription',
      );
      return !compiled || compilable.every((d) => compiled.isCompiled(document, d.name?.value));
    },
    resources: [resource],
  };
}
