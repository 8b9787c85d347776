// Receiving an upload: multipart/form-data (the oss_body_param fields, then a `file` part) or a
// PUT of the raw bytes with the same fields in the query. Bytes go to memory chunk by chunk as
// they arrive; the signature is checked before the first byte of the file is kept. A refused
// request is still read to its end, so the client gets the answer instead of a broken pipe.
import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream/promises';
import busboy from 'busboy';
import type { UploadGrant } from './signing';
import { entityTooLarge as tooLarge, malformedPost as malformed } from './storage-errors';

/** What arrived under a grant: the bytes, and the grant the upload's fields won. */
export interface Received<G extends UploadGrant> {
  grant: G;
  chunks: Buffer[];
  size: number;
  contentType: string;
}

/** Checks an upload's fields before a byte of the file is kept; throws a StorageError to refuse. */
export type Verify<G extends UploadGrant> = (fields: Readonly<Record<string, string | undefined>>) => G;

const DEFAULT_TYPE = 'application/octet-stream';

/** Reads what is left of a request and drops it. */
async function drain(req: IncomingMessage): Promise<void> {
  req.resume();
  await finished(req).catch(() => undefined);
}

/** Collects a byte stream up to `max` bytes; past it, keeps reading but drops the bytes. */
class Collector {
  readonly chunks: Buffer[] = [];
  size = 0;
  constructor(private readonly max: number) {}
  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.max) this.chunks.length = 0;
    else this.chunks.push(chunk);
  }
  get over(): boolean {
    return this.size > this.max;
  }
}

export async function receivePut<G extends UploadGrant>(
  req: IncomingMessage,
  verify: Verify<G>,
  query: Record<string, string>,
): Promise<Received<G>> {
  let grant: G;
  try {
    grant = verify(query);
  } catch (err) {
    await drain(req);
    throw err;
  }
  const collector = new Collector(grant.maxBytes);
  for await (const chunk of req as AsyncIterable<Buffer>) collector.add(chunk);
  if (collector.over) throw tooLarge(grant.maxBytes);
  return { grant, chunks: collector.chunks, size: collector.size, contentType: req.headers['content-type'] || DEFAULT_TYPE };
}

export function receiveMultipart<G extends UploadGrant>(req: IncomingMessage, verify: Verify<G>, hardLimit: number): Promise<Received<G>> {
  let parser: busboy.Busboy;
  try {
    // One byte past the limit reaches us, so the collector sees the overflow; busboy drops the rest.
    parser = busboy({ headers: req.headers, limits: { files: 1, fields: 32, fieldSize: 64 * 1024, fileSize: hardLimit + 1 } });
  } catch {
    return drain(req).then(() => Promise.reject(malformed('expected a multipart/form-data body')));
  }
  return new Promise<Received<G>>((resolve, reject) => {
    // OSS reads the fields before the file, and so do we: the file part comes last.
    const fields: Record<string, string> = {};
    let failure: unknown;
    let received: Promise<Received<G> | undefined> = Promise.resolve(undefined);

    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      let grant: G | undefined;
      try {
        if (name !== 'file') throw malformed(`unexpected file part ${name} (the file goes in the part named file)`);
        grant = verify(fields);
      } catch (err) {
        failure ??= err;
      }
      if (!grant || failure) {
        stream.resume();
        return;
      }
      const granted = grant;
      const collector = new Collector(granted.maxBytes);
      stream.on('data', (chunk: Buffer) => collector.add(chunk));
      received = finished(stream).then(() => {
        if (collector.over) throw tooLarge(granted.maxBytes);
        return { grant: granted, chunks: collector.chunks, size: collector.size, contentType: info.mimeType || DEFAULT_TYPE };
      });
      // Its outcome is read when the parser closes; until then a refusal is not "unhandled".
      received.catch(() => undefined);
    });
    parser.on('close', () => {
      if (failure) return reject(failure);
      received.then((r) => (r ? resolve(r) : reject(malformed('no part named file'))), reject);
    });
    parser.on('error', () => {
      req.unpipe(parser);
      // drain() swallows stream errors; should it ever reject, the request still gets an answer.
      drain(req).then(() => reject(failure ?? malformed('malformed multipart body')), reject);
    });
    req.pipe(parser);
  });
}
