// Persisted documents for the gateway: the trusted manifest (src/generated/persisted-documents.json,
// written by `npm run codegen` from examples/, merged with PERSISTED_DOCUMENTS), the APQ store,
// and the yoga plugin that resolves a request's document before yoga checks its parameters (so
// `documentId` and a hash without text are accepted). WebSocket operations resolve through
// `resolve` (websocket.ts), so one rule serves HTTP, SSE and graphql-ws.
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../../config';
import generated from '../../generated/persisted-documents.json' with { type: 'json' };
import { type ApqStore, memoryApqStore, redisApqStore } from './apq-store';
import { cacheable } from './etag';
import { namesPersisted, type PersistedParams, resolvePersisted, type ResolveOptions } from './resolve';
import { trustedDocuments } from './manifest';
import type { SharedRedis } from '../../redis/shared-redis';

interface PersistedOptions {
  /** Set (REDIS_URL): APQ documents are kept there, shared by every replica. */
  redis?: SharedRedis | undefined;
  warn: (message: string) => void;
}

const JSON_ANSWER = /^application\/(graphql-response\+)?json\b/;

export function createPersisted(
  config: Pick<Config, 'persistedDocuments' | 'persistedOnly' | 'apqMaxEntries' | 'apqTtlSeconds'>,
  { redis, warn }: PersistedOptions,
) {
  let apq: ApqStore = memoryApqStore(config.apqMaxEntries);
  const options: ResolveOptions = {
    documents: trustedDocuments(generated, config.persistedDocuments),
    apq: () => apq,
    persistedOnly: config.persistedOnly,
  };
  /** Texts sent with their hash, by the params that carry them: stored once they validate. */
  const registrations = new WeakMap<object, { hash: string; document: string }>();
  /** GET requests that named a persisted query by hash: their answers get an ETag. */
  const cacheableGets = new WeakMap<Request, string>();

  /** The params to run (the same object when nothing is persisted); throws a coded refusal. */
  async function resolve<P extends PersistedParams>(params: P, urlDocumentId?: string): Promise<{ params: P; hash?: string }> {
    const resolved = await resolvePersisted(params, options, urlDocumentId);
    if (!resolved) return { params };
    if (resolved.register) registrations.set(resolved.params, resolved.register);
    // The same parameters, with the document's text for `query` and without `documentId`.
    return { params: resolved.params as P, ...(resolved.hash ? { hash: resolved.hash } : {}) };
  }

  /** Stores the registration of the operation about to run (parsed and validated by now). */
  function registerValidated(contextValue: unknown): Promise<void> | undefined {
    const params = (contextValue as { params?: object } | undefined)?.params;
    const registration = params && registrations.get(params);
    if (!registration) return undefined;
    registrations.delete(params);
    return apq.set(registration.hash, registration.document);
  }

  // The hooks stay synchronous for the usual request, which sends its text and names nothing
  // persisted: an awaited hook costs every request a turn of the promise queue.
  const plugin: Plugin = {
    onParams({ params, request, setParams }) {
      if (request.method !== 'GET' && !namesPersisted(params, options)) return undefined;
      // yoga's GET parser keeps the four standard parameters only.
      const urlDocumentId = request.method === 'GET' ? (new URL(request.url).searchParams.get('documentId') ?? undefined) : undefined;
      return resolve(params, urlDocumentId).then((resolved) => {
        if (resolved.params === params) return;
        setParams(resolved.params);
        if (request.method === 'GET' && resolved.hash) cacheableGets.set(request, resolved.hash);
      });
    },
    onExecute: ({ args }) => registerValidated(args.contextValue),
    onSubscribe: ({ args }) => registerValidated(args.contextValue),
    onResponse({ request, response, setResponse, fetchAPI }) {
      const hash = cacheableGets.get(request);
      if (!hash || response.status !== 200 || !JSON_ANSWER.test(response.headers.get('content-type') ?? '')) return undefined;
      return cacheable(request, response, hash, fetchAPI).then(setResponse);
    },
  };

  return {
    plugin,
    resolve,
    /** The trusted documents' texts (warm start compiles them before /ready answers 200). */
    documents: () => options.documents.values(),
    async start() {
      if (redis) apq = redisApqStore({ redis, ttlSeconds: config.apqTtlSeconds, warn });
    },
    async close() {
      await apq.close();
      apq = memoryApqStore(config.apqMaxEntries);
    },
  };
}

export type Persisted = ReturnType<typeof createPersisted>;
