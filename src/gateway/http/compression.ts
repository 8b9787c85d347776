// Compression of the gateway's own answers (GraphQL results, errors, /health, /ready), done in Node
// under yoga's Node handler: yoga writes its answer to the ServerResponse in one go (head, then the
// JSON), and the server's response class (CompressibleResponse) looks at it as it is written. At
// the head it decides from the type alone: JSON and text answers vary by Accept-Encoding (`Vary`
// says so); event streams (SSE), multipart/mixed (@defer, uploads'
// answers streamed), HEAD, 204/304 and answers already coded pass through untouched and unheld.
// A varying answer is held until its end, then sent as it is below `minBytes` or coded whole, with
// its Content-Length: the answers are bounded (MAX_RESPONSE_BYTES) and yoga builds them whole anyway.
// (whatwg-node's useContentEncoding was not kept: no q-values, no size floor, no Vary, and it codes
// event streams too.) Downloads and GraphiQL's page are served before yoga and never reach here.
import { type IncomingMessage, type OutgoingHttpHeader, ServerResponse } from 'node:http';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import { TrackedResponse } from '../lifecycle/tracked-response';
import { chooseCoding, type Coding } from './accept-encoding';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export interface CompressionOptions {
  /** Answers smaller than this go as they are (the coding's framing would eat the gain). */
  minBytes: number;
  /** Brotli quality (0-11) and gzip level (1-9): bench/RESULTS.md says why these. */
  brotliQuality: number;
  gzipLevel: number;
}

/** What the gateway uses (bench/RESULTS.md, "Compression", for the measurements behind the levels). */
export const COMPRESSION: CompressionOptions = { minBytes: 1024, brotliQuality: 3, gzipLevel: 4 };

/** Answers at least this large are coded on the thread pool rather than on the event loop. */
const ASYNC_FROM_BYTES = 64 * 1024;

/** Types coded when large enough; anything else (event streams, multipart, files) never is. */
const COMPRESSIBLE = /^\s*(?:application\/(?:graphql-response\+)?json|text\/(?:plain|html))\s*(?:;|$)/i;

const headerText = (value: number | string | readonly string[] | undefined) =>
  value === undefined ? undefined : Array.isArray(value) ? value.join(', ') : String(value);

/** A Vary value that names Accept-Encoding (as it was when it did, or says `*`). */
function withAcceptEncoding(vary: string | undefined): string {
  if (vary === undefined || vary.trim() === '') return 'Accept-Encoding';
  return /(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(vary) ? vary : `${vary}, Accept-Encoding`;
}

type Fields = Record<string, OutgoingHttpHeader | undefined>;

/** Whether a field's name is `lower` (lower case) in any case; the length first, to spare most lowercasing. */
const named = (name: string, lower: string) => name.length === lower.length && name.toLowerCase() === lower;

/** A field of a head given as an object, whatever the case of its name. */
function fieldOf(fields: Fields, lower: string): OutgoingHttpHeader | undefined {
  for (const name in fields) if (named(name, lower)) return fields[name];
  return undefined;
}

/** The fields with one set (under any case of its name before) to `value`. */
function withField(fields: Fields | undefined, lower: string, value: string): Fields {
  const out: Fields = {};
  if (fields) for (const name in fields) if (!named(name, lower)) out[name] = fields[name];
  out[lower] = value;
  return out;
}

type Done = (err: Error | null, out: Buffer) => void;

/** The coding's encoder, once synchronous (small answers: no thread-pool hop) and once on the pool. */
function encoder(coding: Coding, options: CompressionOptions, size: number) {
  if (coding === 'gzip') {
    const opts = { level: options.gzipLevel };
    return { sync: (body: Buffer) => gzipSync(body, opts), async: (body: Buffer, done: Done) => gzip(body, opts, done) };
  }
  const opts = {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: options.brotliQuality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
  return { sync: (body: Buffer) => brotliCompressSync(body, opts), async: (body: Buffer, done: Done) => brotliCompress(body, opts, done) };
}

/** Should an answer with this head vary by Accept-Encoding (and so maybe be held)? */
const varies = (method: string | undefined, status: number, field: (lower: string) => OutgoingHttpHeader | undefined) =>
  method !== 'HEAD' &&
  status >= 200 &&
  status !== 204 &&
  status !== 304 &&
  field('content-encoding') === undefined &&
  COMPRESSIBLE.test(headerText(field('content-type')) ?? '');

const toBuffer = (chunk: unknown, encoding: unknown): Buffer | undefined =>
  chunk === undefined || chunk === null || typeof chunk === 'function'
    ? undefined
    : typeof chunk === 'string'
      ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
      : Buffer.from(chunk as Uint8Array);

// Node's own methods, called loosely typed: the overloads of each are one function underneath.
const plainWriteHead = ServerResponse.prototype.writeHead as (this: ServerResponse, status: number, ...rest: unknown[]) => ServerResponse;
const plainWrite = ServerResponse.prototype.write as (
  this: ServerResponse,
  chunk: unknown,
  encoding?: unknown,
  callback?: unknown,
) => boolean;
const plainEnd = ServerResponse.prototype.end as (
  this: ServerResponse,
  chunk?: unknown,
  encoding?: unknown,
  callback?: unknown,
) => ServerResponse;

/**
 * The server's response class (`createServer({ ServerResponse: CompressibleResponse })`): an answer
 * `compressing` armed is looked at when its head is written, and held and coded when it should be;
 * any other answer (downloads, GraphiQL's page, an unarmed one) is written as Node writes it.
 * An answer sent as it is keeps the head yoga gave, an object written by one `writeHead` (Vary
 * added to a copy): setting it field by field and reading it back, as the first version did for
 * every answer, cost 11-16% of a request's CPU (bench/RESULTS.md, "Compression at no cost").
 * A class, not methods put on each response: no closures per answer.
 */
export class CompressibleResponse<Request extends IncomingMessage = IncomingMessage> extends TrackedResponse<Request> {
  /** Set by `compressing` until the head is written: the answer may be coded. */
  private armed = false;
  private options: CompressionOptions = COMPRESSION;
  /** The coding the request accepts (none: the answer still varies by Accept-Encoding). */
  private coding: Coding | undefined = undefined;
  /** The chunks of an answer held until its end, to be coded whole. */
  private held: Buffer[] | undefined = undefined;

  arm(coding: Coding | undefined, options: CompressionOptions): void {
    this.coding = coding;
    this.options = options;
    this.armed = true;
  }

  override writeHead(status: number, reason?: unknown, given?: unknown): this {
    if (!this.armed) return plainWriteHead.call(this, status, reason, given) as this;
    this.armed = false;
    const statusText = typeof reason === 'string' ? reason : undefined;
    const headers = typeof reason === 'object' && reason !== null ? reason : given;
    // A flat array of headers is written as given (yoga never sends one).
    if (Array.isArray(headers)) return plainWriteHead.call(this, status, statusText, headers) as this;
    const fields = headers === undefined || headers === null ? undefined : (headers as Fields);
    // The head as Node will write it: the fields given over any set before.
    const field = (lower: string) => (fields && fieldOf(fields, lower)) ?? this.getHeader(lower);
    if (!varies(this.req.method, status, field)) return plainWriteHead.call(this, status, statusText, fields) as this;
    const vary = withAcceptEncoding(headerText(field('vary')));
    const length = Number(field('content-length') ?? Number.NaN);
    // Sent as it is: one head written from the object, as Node writes it without us.
    if (this.coding === undefined || length < this.options.minBytes)
      return plainWriteHead.call(this, status, statusText, withField(fields, 'vary', vary)) as this;
    // Held: the head is set field by field, and written at the end with the coded length.
    if (fields) for (const name in fields) if (fields[name] !== undefined) this.setHeader(name, fields[name]);
    this.setHeader('vary', vary);
    this.statusCode = status;
    if (statusText !== undefined) this.statusMessage = statusText;
    this.held = [];
    return this;
  }

  override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    // Still armed: the head was set field by field and no writeHead came. Decided here, as Node
    // would write it by itself, which would send a held answer's body without a head.
    if (this.armed) this.writeHead(this.statusCode);
    const held = this.held;
    if (held === undefined) return plainWrite.call(this, chunk, encoding, callback);
    const buffer = toBuffer(chunk, encoding);
    if (buffer) held.push(buffer);
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(done as () => void);
    return true;
  }

  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    if (this.armed) this.writeHead(this.statusCode);
    const held = this.held;
    if (held === undefined) return plainEnd.call(this, chunk, encoding, callback) as this;
    this.held = undefined;
    const buffer = toBuffer(chunk, encoding);
    if (buffer) held.push(buffer);
    const done = [chunk, encoding, callback].find((a): a is () => void => typeof a === 'function');
    const body = Buffer.concat(held);
    const options = this.options;
    const coding = this.coding!;
    const send = (out: Buffer, coded: boolean) => {
      if (coded) this.setHeader('content-encoding', coding);
      this.setHeader('content-length', out.byteLength);
      plainWriteHead.call(this, this.statusCode);
      plainEnd.call(this, out, done);
    };
    if (body.byteLength < options.minBytes) send(body, false);
    else {
      const { sync, async } = encoder(coding, options, body.byteLength);
      if (body.byteLength < ASYNC_FROM_BYTES) send(sync(body), true);
      else async(body, (err, out) => (err ? send(body, false) : send(out, true)));
    }
    return this;
  }
}

/**
 * Wraps the listener so that its answers are coded as the request accepts. The server must make
 * its responses as CompressibleResponse.
 */
export function compressing(listener: Listener, options: CompressionOptions): Listener {
  return (req, res) => {
    if (!(res instanceof CompressibleResponse))
      throw new TypeError('compressing needs a server made with { ServerResponse: CompressibleResponse }');
    res.arm(chooseCoding(req.headers['accept-encoding']), options);
    listener(req, res);
  };
}
