// Streaming a file to an upload target (6.3-6.5): the only place that knows upload URLs. The
// target's host is checked before anything is sent to it (the IM service's own host, or one the
// configuration allows); the bytes go from the incoming stream to the socket with backpressure, so
// the gateway never holds the file. The upload carries no identity: the signed fields of
// oss_body_param are the capability, and the caller's token must never reach a storage host.
// The storage answers in its own shape (OSS: 204 or 200 with nothing, 201 with XML, or with a
// callback the callback server's JSON): any 2xx but 203 is success and its body is not read for
// anything; the download URL comes from the upload target, never from this answer.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { Agent, type Dispatcher, request } from 'undici';
import { BodyTooLarge, readText } from './body';
import { UpstreamError } from './errors';
import type { UploadTarget } from './records';
import { storageErrorOf, storageHostAllowed } from './storage';

/** The upload target points at a host the gateway may not send files to. Nothing was sent. */
export class UploadHostRefused extends Error {
  override readonly name = 'UploadHostRefused';
  constructor(readonly host: string) {
    super(`upload target host ${host} is neither the IM service's nor an allowed upload host`);
  }
}

/** The file grew past the limit while streaming; the upload was aborted. */
export class UploadTooLarge extends Error {
  override readonly name = 'UploadTooLarge';
  constructor(readonly limit: number) {
    super(`file larger than ${limit} bytes`);
  }
}

interface UploadSource {
  /** The file's bytes as they arrive; read once, to its end or until the upload fails. */
  stream: Readable;
  filename: string;
  mimeType: string;
}

interface UploadOptions {
  /** The IM service's origin: its host is always allowed. */
  imBaseUrl: string;
  /** Further allowed hosts: 'host:port' matches exactly, 'host' matches that host on any port. */
  uploadHosts: readonly string[];
  maxBytes: number;
  /** undici dispatcher (tests); default: one keep-alive agent for all uploads. */
  dispatcher?: Dispatcher;
}

interface Uploaded {
  /** Bytes sent. */
  size: number;
}

// Storage answers (an OSS callback's JSON, XML, an error) are short; more is not read.
const MAX_ANSWER_BYTES = 64 * 1024;
// OSS: the object is stored but its callback failed, so the IM service does not know of the file.
const CALLBACK_FAILED = 203;
// Idle limits: a slow client may take long for a big file, but not stall for minutes.
const agent = new Agent({ connect: { timeout: 10_000 }, headersTimeout: 120_000, bodyTimeout: 120_000 });

/** A form-data name or filename, quoted as browsers do (WHATWG form encoding). */
const quoted = (text: string) => `"${text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;

/**
 * Streams `source` to the target with its method: POST as multipart/form-data (the oss_body_param
 * fields first, as OSS requires, then the file part), PUT as the raw bytes with the fields in the
 * query. Answers the size sent; throws UploadHostRefused (nothing sent), UploadTooLarge (aborted),
 * the source's own error (the client went away), or an UpstreamError (endpoint `<METHOD> upload_url`).
 */
export async function uploadToTarget(target: UploadTarget, source: UploadSource, options: UploadOptions): Promise<Uploaded> {
  const url = new URL(target.upload_url);
  if (!storageHostAllowed(url, options.imBaseUrl, options.uploadHosts)) throw new UploadHostRefused(url.host);
  const method = target.upload_method === 'PUT' ? 'PUT' : 'POST';
  const endpoint = `${method} upload_url`;
  const fields = Object.entries(target.oss_body_param ?? {}).map(([k, v]) => [k, String(v)] as const);

  let size = 0;
  let sourceError: unknown;
  async function* fileBytes(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of source.stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > options.maxBytes) throw new UploadTooLarge(options.maxBytes);
        yield chunk;
      }
    } catch (err) {
      sourceError = err;
      throw err;
    }
  }

  let body: AsyncIterable<Buffer>;
  const headers: Record<string, string> = {};
  if (method === 'PUT') {
    for (const [k, v] of fields) url.searchParams.set(k, v);
    headers['content-type'] = source.mimeType || 'application/octet-stream';
    body = fileBytes();
  } else {
    const boundary = `----im-gateway-${randomBytes(12).toString('hex')}`;
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    body = (async function* () {
      for (const [k, v] of fields) yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name=${quoted(k)}\r\n\r\n${v}\r\n`);
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=${quoted(source.filename || 'file')}\r\n` +
          `Content-Type: ${source.mimeType || 'application/octet-stream'}\r\n\r\n`,
      );
      yield* fileBytes();
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    })();
  }

  let answer: Dispatcher.ResponseData;
  try {
    answer = await request(url, {
      method,
      headers,
      body: Readable.from(body, { objectMode: false }),
      dispatcher: options.dispatcher ?? agent,
    });
  } catch (err) {
    if (sourceError !== undefined) throw sourceError;
    const code = (err as { code?: unknown } | null)?.code;
    throw new UpstreamError({ endpoint, kind: 'unavailable', detail: `upload failed (${String(code ?? 'network error')})`, cause: err });
  }
  // The storage may answer (a refusal) before it has read the whole file: the upload failed then.
  if (sourceError !== undefined) {
    answer.body.destroy();
    throw sourceError;
  }
  let text = '';
  try {
    text = await readText(answer.body, answer.headers, MAX_ANSWER_BYTES);
  } catch (err) {
    if (!(err instanceof BodyTooLarge))
      throw new UpstreamError({ endpoint, kind: 'unavailable', detail: 'upload answer broke off', cause: err });
  }
  const status = answer.statusCode;
  if (status < 200 || status >= 300 || status === CALLBACK_FAILED) {
    throw new UpstreamError({ endpoint, kind: 'http', httpStatus: status, ...storageErrorOf(text) });
  }
  return { size };
}
