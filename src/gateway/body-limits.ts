// Request body limits, by kind of body. Yoga's own limit (25 MB for every body) is turned off in
// create-gateway: it let a JSON body of 25 MB in (parsed in full, seconds of event loop for its
// unused variables) and cut multipart uploads well below MAX_UPLOAD_BYTES.
// - multipart (uploads): the largest upload plus room for the operations and map fields;
// - anything else (JSON, GraphQL strings, forms): maxBodyBytes.
// A Content-Length over the limit is refused before a byte is read; a body without one (chunked)
// is cut where it passes the limit. Either way: HTTP 413, code REQUEST_ENTITY_TOO_LARGE, and the
// message names the limit.
import { createGraphQLError, type FetchAPI, type Plugin } from 'graphql-yoga';

export interface BodyLimits {
  /** Largest body that is not multipart. */
  maxBodyBytes: number;
  /** Largest file of a multipart request. */
  maxUploadBytes: number;
  /** Largest `operations` or `map` field of a multipart request. */
  maxFieldBytes: number;
}

/** Multipart part headers and boundaries: generous for the handful of parts a request has. */
const PART_FRAMING_BYTES = 64 * 1024;

const isMultipart = (request: Request) => /^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? '');

export function bodyTooLarge(limit: number, what: string): Error {
  return createGraphQLError(`${what} is larger than the limit of ${limit} bytes`, {
    extensions: { http: { status: 413 }, code: 'REQUEST_ENTITY_TOO_LARGE', limit },
  });
}

function badContentLength() {
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
  return new fetchAPI.Request(request.url, { method: request.method, headers: request.headers, signal: request.signal, body, duplex: 'half' } as RequestInit);
}

/** Must come after every plugin that picks a request parser, so that it wraps the one chosen. */
export function useBodyLimits(limits: BodyLimits): Plugin {
  const multipartBytes = limits.maxUploadBytes + 2 * limits.maxFieldBytes + PART_FRAMING_BYTES;
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      const [limit, what] = isMultipart(request) ? [multipartBytes, 'the multipart request body'] : [limits.maxBodyBytes, 'the request body'];
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
