// Request body limits, by kind of body. Yoga's own limit (25 MB for every body) is turned off in
// create-gateway: it let a JSON body of 25 MB in (parsed in full, seconds of event loop for its
// unused variables) and cut multipart uploads well below MAX_UPLOAD_BYTES.
// - anything but multipart (JSON, GraphQL strings, forms): MAX_BODY_BYTES, read by the front
//   (front.ts) before yoga sees the request, on every path;
// - multipart (uploads): the largest upload plus room for the operations and map fields, counted
//   here as the body streams to the multipart reader.
// A Content-Length over the limit is refused before a byte is read; a body without one (chunked)
// is cut where it passes the limit. Either way: HTTP 413, code REQUEST_ENTITY_TOO_LARGE, and the
// message names the limit.
//
// Size alone does not bound JSON.parse: 2 MB of distinct object keys (unused variables, say) take
// it about a second (V8's slow path for objects with very many keys). A JSON body is scanned
// first (a few ms for 2 MB), and one with more than MAX_JSON_MEMBERS object members is refused
// with 400 BAD_REQUEST. So is one with more than MAX_JSON_ITEMS array items: parsing them is
// cheap, but coercing every item of a variable (an ID list of 100,000) holds the event loop for
// as long, and no field takes a list of that size. And one nested deeper than MAX_JSON_DEPTH:
// V8 parses any depth, but everything after it that walks the value recurses (JSON.stringify in
// the shared-execution key overflowed the stack on 100,000 nested arrays: a 500 with a stack).
import { createGraphQLError, type FetchAPI, type Plugin } from 'graphql-yoga';

interface MultipartLimits {
  /** Largest file of a multipart request. */
  maxUploadBytes: number;
  /** Largest `operations` or `map` field of a multipart request. */
  maxFieldBytes: number;
}

/** Object members (`"key": value`) a JSON body may hold; GraphQL requests need a few dozen. */
export const MAX_JSON_MEMBERS = 10_000;

/** Array items a JSON body may hold: the longest list a field takes is a few hundred IDs. */
export const MAX_JSON_ITEMS = 10_000;

/**
 * Arrays and objects open at once in a JSON body: a request nests its variables three levels in
 * (a batch, the request, `variables`), and the deepest input a field takes is a few levels more.
 */
export const MAX_JSON_DEPTH = 64;

/** Multipart part headers and boundaries: generous for the handful of parts a request has. */
const PART_FRAMING_BYTES = 64 * 1024;

/** Whether a Content-Type names a multipart body (uploads): those stream on, within their own cap. */
export const isMultipart = (type: string | null | undefined): boolean => type != null && /^multipart\/form-data\b/i.test(type);

/** Which bound of a JSON body is passed. */
export type JsonExcess = 'object members' | 'array items' | 'nesting depth';

/**
 * Which bound a JSON body passes: more than MAX_JSON_MEMBERS object members (colons outside
 * strings), more than MAX_JSON_ITEMS array items (commas outside strings beyond one per member:
 * never more than the items there are), or more than MAX_JSON_DEPTH brackets open at once (not
 * checked for balance: the parser refuses what does not close); undefined within all three. Read as bytes: the characters it
 * looks for are ASCII, and UTF-8 never uses ASCII bytes inside a character.
 */
export function jsonExcess(body: Uint8Array): JsonExcess | undefined {
  let members = 0;
  let commas = 0;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x3a) {
      if (++members > MAX_JSON_MEMBERS) return 'object members';
    } else if (c === 0x2c) {
      if (++commas - members > MAX_JSON_ITEMS) return 'array items';
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return 'nesting depth';
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
}

export function tooMuchJson(excess: JsonExcess): Error {
  if (excess === 'nesting depth') return nestedTooDeep('the JSON body');
  const limit = excess === 'object members' ? MAX_JSON_MEMBERS : MAX_JSON_ITEMS;
  return createGraphQLError(`the JSON body has more than ${limit} ${excess}`, {
    extensions: { http: { status: 400 }, code: 'BAD_REQUEST', limit },
  });
}

/** The refusal of a value nested deeper than MAX_JSON_DEPTH: `what` names it (a body, a request's `variables`). */
export function nestedTooDeep(what: string): Error {
  return createGraphQLError(`${what} is nested deeper than ${MAX_JSON_DEPTH} levels`, {
    extensions: { http: { status: 400 }, code: 'BAD_REQUEST', limit: MAX_JSON_DEPTH },
  });
}

/**
 * The rest of the body is not read: the connection closes after the answer, or a client reusing
 * it would send its next request into the unread remainder (and see a reset).
 */
export function bodyTooLarge(limit: number, what: string): Error {
  return createGraphQLError(`${what} is larger than the limit of ${limit} bytes`, {
    extensions: { http: { status: 413, headers: { connection: 'close' } }, code: 'REQUEST_ENTITY_TOO_LARGE', limit },
  });
}

export function badContentLength(): Error {
  return createGraphQLError('Content-Length header is invalid', { extensions: { http: { status: 400 }, code: 'BAD_REQUEST' } });
}

/** The same request, with a body that fails once more than `limit` bytes went through. */
function capped(request: Request, limit: number, what: string, fetchAPI: FetchAPI): Request {
  if (!request.body) return request;
  let seen = 0;
  // The body may be Node's own stream or the fetch ponyfill's: each pipes only into its own kind.
  const Transform = request.body instanceof ReadableStream ? TransformStream : fetchAPI.TransformStream;
  const body = request.body.pipeThrough(
    new Transform<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) controller.error(bodyTooLarge(limit, what));
        else controller.enqueue(chunk);
      },
    }),
  );
  // `duplex` is required by Node's fetch for a streamed body, and missing from the DOM typings.
  return new fetchAPI.Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    body,
    duplex: 'half',
  } as RequestInit);
}

/** Must come after every plugin that picks a request parser, so that it wraps the one chosen. */
export function useMultipartBodyLimit(limits: MultipartLimits): Plugin {
  const limit = limits.maxUploadBytes + 2 * limits.maxFieldBytes + PART_FRAMING_BYTES;
  const what = 'the multipart request body';
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      if (!isMultipart(request.headers.get('content-type'))) return;
      const length = request.headers.get('content-length');
      if (length !== null) {
        if (!/^\d+$/.test(length)) throw badContentLength();
        if (Number(length) > limit) throw bodyTooLarge(limit, what);
      }
      if (!requestParser || !request.body) return;
      setRequestParser((req) => requestParser(capped(req, limit, what, fetchAPI)));
    },
  };
}
