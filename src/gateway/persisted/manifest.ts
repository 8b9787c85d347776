// The trusted documents: the manifest `npm run codegen` writes from examples/ (keys `sha256:<hex>`)
// merged with an app's own (PERSISTED_DOCUMENTS, read and checked by config.ts), by bare hash.
import { ConfigError, persistedDocumentHash } from '../../config';

export function trustedDocuments(generated: Readonly<Record<string, string>>, app: ReadonlyMap<string, string>): Map<string, string> {
  const documents = new Map<string, string>();
  for (const [id, document] of Object.entries(generated)) {
    const hash = persistedDocumentHash(id);
    // The generated file is ours: a bad key is a codegen change to look at, not a client's input.
    if (!hash) throw new ConfigError(`src/generated/persisted-documents.json: ${JSON.stringify(id)} is no documentId`);
    documents.set(hash, document);
  }
  for (const [hash, document] of app) documents.set(hash, document);
  return documents;
}
