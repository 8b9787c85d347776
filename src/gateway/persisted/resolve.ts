// Which document a request runs when it names one instead of (or beside) sending its text:
// - `documentId` (a trusted document: the generated manifest or PERSISTED_DOCUMENTS), bare hex or
//   `sha256:<hex>`;
// - `extensions.persistedQuery { version: 1, sha256Hash }`, Apollo's automatic persisted queries:
//   the hash alone runs a trusted document or one registered before, else PersistedQueryNotFound
//   (Apollo clients then send the text with the hash); text and hash register the text once its
//   hash is checked (it is stored when it validates: see `registrationOf`).
// With PERSISTED_ONLY, only trusted documents run: text is refused, registrations too.
// Every refusal is a coded error raised before anything runs: no REST call.
import { createHash } from 'node:crypto';
import { createGraphQLError } from 'graphql-yoga';
import { persistedDocumentHash } from '../../config';
import type { ApqStore } from './apq-store';

export interface PersistedParams {
  query?: unknown;
  documentId?: unknown;
  extensions?: unknown;
}

export interface ResolveOptions {
  /** Trusted documents by hash (64 hex, lowercase). */
  documents: ReadonlyMap<string, string>;
  apq: () => ApqStore;
  persistedOnly: boolean;
}

/** What resolution found: the text to run, and the hash that named it (for a cacheable GET). */
export interface Resolved {
  params: PersistedParams;
  hash?: string;
  /** Text and hash that were sent together: stored once the document validates. */
  register?: { hash: string; document: string };
}

/**
 * Cache-Control on a miss: an intermediary must not keep the 404 of a hash that is registered a
 * moment later (Apollo Server's choice too).
 */
const NOT_CACHED = { 'Cache-Control': 'private, no-cache, must-revalidate' };

function refusal(message: string, code: string, status: number, extra: Record<string, unknown> = {}) {
  return createGraphQLError(message, {
    extensions: { code, ...extra, http: { status, ...(status === 404 ? { headers: NOT_CACHED } : {}) } },
  });
}

/** Apollo clients retry with the text on this message or code. */
const notFound = () => refusal('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND', 404);
const persistedOnly = () => refusal('Only persisted documents run here (PERSISTED_ONLY): send a documentId', 'PERSISTED_QUERY_ONLY', 400);
const badInput = (field: string, message: string) => refusal(`${field} ${message}`, 'BAD_USER_INPUT', 400, { field });

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** graphql-ws requires a `query` string: an empty one stands for none there. */
const textOf = (query: unknown) => (typeof query === 'string' && query !== '' ? query : undefined);

/**
 * Whether resolvePersisted has anything to do with these params (a GET's documentId in its URL
 * aside): false for the usual request, which sends its text and nothing persisted.
 */
export function namesPersisted(params: PersistedParams, options: ResolveOptions): boolean {
  if (options.persistedOnly || (params.documentId !== undefined && params.documentId !== null)) return true;
  const persisted = isRecord(params.extensions) ? params.extensions.persistedQuery : undefined;
  return persisted !== undefined && persisted !== null;
}

/** Undefined when the request names no persisted document (and may send text). */
export async function resolvePersisted(
  params: PersistedParams,
  options: ResolveOptions,
  urlDocumentId?: string,
): Promise<Resolved | undefined> {
  const { documentId: bodyDocumentId, ...rest } = params;
  const documentId = bodyDocumentId ?? urlDocumentId;
  const query = textOf(params.query);
  if (documentId !== undefined && documentId !== null) {
    const hash = persistedDocumentHash(documentId);
    if (!hash) throw badInput('documentId', 'must be a SHA-256 in hex, bare or as sha256:<hex>');
    if (query !== undefined) throw badInput('documentId', 'names the document: send it without a query');
    const document = options.documents.get(hash);
    if (document === undefined) throw notFound();
    return { params: { ...rest, query: document }, hash };
  }
  const persisted = isRecord(params.extensions) ? params.extensions.persistedQuery : undefined;
  if (persisted === undefined || persisted === null) {
    if (options.persistedOnly) throw persistedOnly();
    return undefined;
  }
  if (!isRecord(persisted)) throw badInput('extensions.persistedQuery', 'must be an object { version: 1, sha256Hash }');
  if (persisted.version !== 1) throw badInput('extensions.persistedQuery.version', 'must be 1 (the only version supported)');
  const hash =
    typeof persisted.sha256Hash === 'string' && /^[0-9a-f]{64}$/i.test(persisted.sha256Hash)
      ? persisted.sha256Hash.toLowerCase()
      : undefined;
  if (!hash) throw badInput('extensions.persistedQuery.sha256Hash', 'must be a SHA-256 in hex (64 characters)');
  if (query !== undefined) {
    if (options.persistedOnly) throw persistedOnly();
    if (sha256(query) !== hash) {
      throw refusal('the query does not match extensions.persistedQuery.sha256Hash', 'PERSISTED_QUERY_HASH_MISMATCH', 400, {
        field: 'extensions.persistedQuery.sha256Hash',
      });
    }
    return { params: rest, register: { hash, document: query } };
  }
  const document = options.documents.get(hash) ?? (options.persistedOnly ? undefined : await options.apq().get(hash));
  if (document === undefined) throw notFound();
  return { params: { ...rest, query: document }, hash };
}
