// GraphQL multipart requests (https://github.com/jaydenseric/graphql-multipart-request-spec),
// streamed. Yoga's own parser reads the whole body into memory (every file as a Blob) before the
// operation starts; this one hands the operation to yoga as soon as `operations` and `map` have
// arrived, and each file reaches its resolver as a stream of the request body itself, read with
// backpressure while the resolver forwards it.
//
// Order rule: the body is read front to back, so files are usable in the order they are sent
// (mutations run one after another, and each upload mutation reads or drops its file before the
// next one starts). A file sent before the one a resolver waits for, and not yet claimed, is
// dropped so that the body can move on; opening it later fails with BAD_USER_INPUT. Whatever is
// left unread when the response is ready is drained before the response goes out, so that the
// client can finish sending and the connection stays usable.
import { PassThrough, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import busboy from 'busboy';
import { GraphQLError } from 'graphql';
import { createGraphQLError, type GraphQLParams, type Plugin } from 'graphql-yoga';
import { fileError, IncomingFile } from '../../files/incoming-file';

/** The body broke off (truncated, malformed) while a file was awaited or read: the request is bad. */
const brokeOff = (err: Error) =>
  err instanceof GraphQLError
    ? err
    : createGraphQLError(`the multipart request broke off: ${err.message}`, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });

/**
 * The file's bytes as its reader sees them. busboy fails a file stream with its own bare error
 * (say, "Unexpected end of form" for a truncated body), which would reach the client as an
 * internal error with a stack trace logged: the reader sees a BAD_REQUEST instead. Destroying
 * this stream (a reader that stops early, or fail()) destroys busboy's at once, as before.
 */
function readable(file: Readable): Readable {
  const relay = new PassThrough();
  file.on('error', (err) => relay.destroy(brokeOff(err)));
  relay.on('close', () => {
    if (!file.readableEnded) file.destroy();
  });
  return file.pipe(relay);
}

interface MultipartLimits {
  /** Largest file; busboy cuts a file there (the upload then reports it too large). */
  maxFileBytes: number;
  /** Most files in one request. */
  maxFiles: number;
  /** Largest `operations` or `map` field. */
  maxFieldBytes: number;
}

const badRequest = (message: string, status = 400) =>
  createGraphQLError(message, { extensions: { http: { status }, code: status === 413 ? 'REQUEST_ENTITY_TOO_LARGE' : 'BAD_REQUEST' } });

/** Writes `value` at a dotted `map` path of the operations; false when the path leads nowhere. */
function setPath(root: unknown, path: string, value: unknown): boolean {
  const keys = path.split('.');
  let node = root;
  for (const [i, key] of keys.entries()) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') return false;
    if (node === null || typeof node !== 'object') return false;
    const record = node as Record<string, unknown>;
    if (i === keys.length - 1) {
      record[key] = value;
      return true;
    }
    node = record[key];
  }
  return false;
}

/** One multipart request being read. */
class UploadSession {
  readonly files = new Map<string, IncomingFile>();
  private operations: unknown;
  private resolved = false;
  private finished = false;
  /** Settles when the request body has been read to its end (or broke off). */
  private bodyRead: Promise<void> = Promise.resolve();

  constructor(private readonly limits: MultipartLimits) {}

  /** A resolver waits for `file`: an earlier file that arrived unclaimed is in the way. */
  waitingFor(file: IncomingFile): void {
    for (const other of this.files.values()) if (other !== file && other.isArrived) other.skip();
  }

  /** Reads `body`; resolves to the operation(s) once `map` is read (or the body ended without one). */
  parse(body: Readable, contentType: string): Promise<GraphQLParams | GraphQLParams[]> {
    this.bodyRead = finished(body).catch(() => undefined);
    return new Promise((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: { 'content-type': contentType },
          limits: { fieldSize: this.limits.maxFieldBytes, fields: 2, files: this.limits.maxFiles, fileSize: this.limits.maxFileBytes + 1 },
        });
      } catch (err) {
        body.resume();
        return reject(badRequest(`malformed multipart request: ${(err as Error).message}`));
      }
      const done = (params: GraphQLParams | GraphQLParams[]) => {
        this.resolved = true;
        resolve(params);
      };
      const fail = (err: Error) => {
        if (!this.resolved) {
          this.resolved = true;
          reject(err);
        }
        for (const file of this.files.values()) file.fail(brokeOff(err));
        body.resume();
      };

      parser.on('field', (name, value, info) => {
        if (info.valueTruncated) return fail(badRequest(`multipart field ${name} is larger than ${this.limits.maxFieldBytes} bytes`, 413));
        try {
          if (name === 'operations') this.operations = JSON.parse(value);
          else if (name === 'map') done(this.placeFiles(JSON.parse(value)));
        } catch (err) {
          fail(err instanceof GraphQLError ? err : badRequest(`multipart field ${name} is not valid JSON`));
        }
      });
      parser.on('file', (name, stream, info) => {
        const file = this.files.get(name);
        if (!this.resolved) fail(badRequest('multipart files must follow the operations and map fields'));
        if (!file || file.isArrived || this.finished) {
          stream.resume();
          return;
        }
        file.attach({ filename: info.filename ?? '', mimeType: info.mimeType, stream: readable(stream) });
        // Someone waits for a later file: this one is in the way.
        if (!file.isClaimed && [...this.files.values()].some((f) => f.isClaimed && !f.isArrived)) file.skip();
      });
      parser.on('filesLimit', () => fail(badRequest(`more than ${this.limits.maxFiles} files in one request`, 413)));
      parser.on('fieldsLimit', () => fail(badRequest('unexpected multipart fields (only operations and map)')));
      parser.on('error', (err: Error) => fail(badRequest(`malformed multipart request: ${err.message}`)));
      parser.on('close', () => {
        if (!this.resolved) {
          if (this.operations === undefined) return fail(badRequest('missing multipart field "operations"'));
          done(this.operations as GraphQLParams);
        }
        for (const file of this.files.values()) if (!file.isArrived) file.fail(fileError(`file ${file.field} was not sent`));
      });
      // A body over its limit fails with the limit's own error (413 naming the limit).
      body.on('error', (err) => fail(err instanceof GraphQLError ? err : badRequest(`the request broke off: ${err.message}`)));
      body.pipe(parser);
    });
  }

  /** Puts an IncomingFile at every variable path `map` names. */
  private placeFiles(map: unknown): GraphQLParams | GraphQLParams[] {
    if (this.operations === undefined) throw badRequest('multipart field "operations" must come before "map"');
    if (map === null || typeof map !== 'object' || Array.isArray(map)) throw badRequest('multipart field "map" must be an object');
    if (Object.keys(map).length > this.limits.maxFiles) throw badRequest(`more than ${this.limits.maxFiles} files in one request`, 413);
    for (const [field, paths] of Object.entries(map as Record<string, unknown>)) {
      if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string'))
        throw badRequest(`map entry ${field} must be a list of paths`);
      const file = new IncomingFile(this, field);
      this.files.set(field, file);
      for (const path of paths) {
        if (!setPath(this.operations, path, file)) throw badRequest(`map path ${path} names no place in operations`);
      }
    }
    return this.operations as GraphQLParams | GraphQLParams[];
  }

  /**
   * The response is ready: nothing else will read the files, so the rest of the body is drained,
   * and the response waits for that (a response sent before the body is read leaves the client
   * unable to finish sending: Node stops reading the request once its response is done).
   */
  finish(): Promise<void> {
    this.finished = true;
    for (const file of this.files.values()) file.discard();
    return this.bodyRead;
  }
}

/** The yoga plugin that replaces the built-in multipart parser with the streaming one. */
export function useStreamingMultipart(limits: MultipartLimits): Plugin {
  const sessions = new WeakMap<Request, UploadSession>();
  return {
    onRequestParse({ request, setRequestParser }) {
      const type = request.headers.get('content-type') ?? '';
      if (request.method !== 'POST' || !/^multipart\/form-data\b/i.test(type)) return;
      setRequestParser((req) => {
        const session = new UploadSession(limits);
        // Keyed by the request onResponse will name (the parser may be handed a wrapper of it).
        sessions.set(request, session);
        if (!req.body) return Promise.reject(badRequest('empty multipart request'));
        // The fetch body, not the Node request under it: reading that directly, alongside the
        // fetch layer's own hold on it, was measured to buffer the whole file.
        return session.parse(Readable.from(req.body as unknown as AsyncIterable<Uint8Array>, { objectMode: false }), type);
      });
    },
    onResponse({ request }) {
      return sessions.get(request)?.finish();
    },
  };
}
