// Compression of the gateway's own answers (GraphQL results, errors, /health, /ready), done in Node
// around yoga's Node handler: yoga writes its answer to the ServerResponse in one go (head, then
// the JSON), which this wraps. At the head it decides from the type alone: JSON and text answers
// vary by Accept-Encoding (`Vary` says so); event streams (SSE), multipart/mixed (@defer, uploads'
// answers streamed), HEAD, 204/304 and answers already coded pass through untouched and unheld.
// A varying answer is held until its end, then sent as it is below `minBytes` or coded whole, with
// its Content-Length: the answers are bounded (MAX_RESPONSE_BYTES) and yoga builds them whole anyway.
// (whatwg-node's useContentEncoding was not kept: no q-values, no size floor, no Vary, and it codes
// event streams too.) Downloads and GraphiQL's page are served before yoga and never reach here.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
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

function addVary(res: ServerResponse): void {
  const vary = headerText(res.getHeader('vary'));
  if (vary === undefined || vary.trim() === '') res.setHeader('vary', 'Accept-Encoding');
  else if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(vary)) res.setHeader('vary', `${vary}, Accept-Encoding`);
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

/** Should the answer whose head this is vary by Accept-Encoding (and so be held)? */
const varies = (req: IncomingMessage, res: ServerResponse) =>
  req.method !== 'HEAD' &&
  res.statusCode >= 200 &&
  res.statusCode !== 204 &&
  res.statusCode !== 304 &&
  res.getHeader('content-encoding') === undefined &&
  COMPRESSIBLE.test(headerText(res.getHeader('content-type')) ?? '');

type WriteArgs = [chunk?: unknown, encoding?: unknown, callback?: unknown];

const toBuffer = (chunk: unknown, encoding: unknown): Buffer | undefined =>
  chunk === undefined || chunk === null || typeof chunk === 'function'
    ? undefined
    : typeof chunk === 'string'
      ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
      : Buffer.from(chunk as Uint8Array);

const callbackOf = (args: WriteArgs) => args.find((a): a is () => void => typeof a === 'function');

/**
 * Wraps the listener so that its answers are coded as the request accepts. The response's own
 * methods are shadowed only while an answer is held, and the prototype's are back once it is sent.
 */
export function compressing(listener: Listener, options: CompressionOptions): Listener {
  return (req, res) => {
    const coding = chooseCoding(req.headers['accept-encoding']);
    const original = { writeHead: res.writeHead, write: res.write, end: res.end };
    const restore = () => {
      res.writeHead = original.writeHead;
      res.write = original.write;
      res.end = original.end;
    };

    res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
      const statusText = typeof rest[0] === 'string' ? rest[0] : undefined;
      const headers = rest.find((a) => typeof a === 'object' && a !== null);
      // A flat array of headers is written as given (yoga never sends one).
      if (Array.isArray(headers)) {
        restore();
        return res.writeHead(status, statusText, headers);
      }
      for (const [name, value] of Object.entries((headers ?? {}) as OutgoingHttpHeaders))
        if (value !== undefined) res.setHeader(name, value);
      res.statusCode = status;
      if (statusText !== undefined) res.statusMessage = statusText;
      if (!varies(req, res)) {
        restore();
        return res.writeHead(status);
      }
      addVary(res);
      const length = Number(res.getHeader('content-length') ?? Number.NaN);
      if (coding === undefined || length < options.minBytes) {
        restore();
        return res.writeHead(status);
      }
      hold(coding);
      return res;
    };

    /** Keeps the answer's chunks until its end, then sends it, coded when large enough. */
    function hold(chosen: Coding) {
      const chunks: Buffer[] = [];
      res.write = function (...args: WriteArgs) {
        const chunk = toBuffer(args[0], args[1]);
        if (chunk) chunks.push(chunk);
        const callback = callbackOf(args.slice(1) as WriteArgs);
        if (callback) queueMicrotask(callback);
        return true;
      } as ServerResponse['write'];
      res.end = function (...args: WriteArgs) {
        const chunk = toBuffer(args[0], args[1]);
        if (chunk) chunks.push(chunk);
        const callback = callbackOf(args);
        restore();
        const body = Buffer.concat(chunks);
        const send = (out: Buffer, coded: boolean) => {
          if (coded) res.setHeader('content-encoding', chosen);
          res.setHeader('content-length', out.byteLength);
          res.writeHead(res.statusCode);
          res.end(out, callback);
        };
        if (body.byteLength < options.minBytes) send(body, false);
        else {
          const { sync, async } = encoder(chosen, options, body.byteLength);
          if (body.byteLength < ASYNC_FROM_BYTES) send(sync(body), true);
          else async(body, (err, out) => (err ? send(body, false) : send(out, true)));
        }
        return res;
      } as ServerResponse['end'];
    }

    listener(req, res);
  };
}
