// The download route: GET /files/avatar?objectName=… (6.1) and GET /files/chat?fileSign=… (6.2)
// fetch the file from the IM service with the caller's identity and stream it through untouched:
// status, type and length as they come, the body never held whole. The service answers with a
// redirect to its storage, which the REST client follows to the IM host or an UPLOAD_HOSTS host
// (without the identity), so the bytes are the storage's; a redirect anywhere else is passed on.
// Identity comes from the usual headers or, for image tags, from the access-token, app_id and
// user_id query parameters (as the official SDK passes them). Failures answer a JSON body shaped
// like a GraphQL error, with the matching HTTP status.
// The files are the users' own: they must never run as pages of the gateway's origin (where
// GraphiQL keeps a token). So every answer is `nosniff` and sandboxed, and only the image types
// a browser cannot run may show inline; everything else downloads as an attachment.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { callerFrom } from '../../context';
import type { RestClient, TraceSource } from '../../rest/client';
import { classifyUpstreamError, type ErrorCode, UpstreamError } from '../../rest/errors';
import { toGraphQLError } from '../../schema/core/upstream-errors';
import type { RequestTrace } from '../../context';
import { DOWNLOAD_ROUTES, type DownloadPath, type DownloadRoute } from '../../files/download-paths';

// Headers of the file worth passing on; hop-by-hop ones (connection, transfer-encoding) are not.
const PASSED_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-disposition',
  'cache-control',
  'etag',
  'last-modified',
  'location',
];

/** Shown inline (an <img>, a preview); SVG is not among them, it can hold script. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Headers on every answer of the route: the browser neither guesses a type nor runs anything. */
const CONTAINED = { 'x-content-type-options': 'nosniff', 'content-security-policy': 'sandbox' } as const;

/** The upstream's disposition, made `attachment` unless the type is an inline-safe image (keeps a filename). */
function disposition(type: string | string[] | undefined, given: string | string[] | undefined): string | undefined {
  const media = String(type ?? '')
    .split(';', 1)[0]!
    .trim()
    .toLowerCase();
  const upstream = Array.isArray(given) ? given[0] : given;
  if (INLINE_TYPES.has(media)) return upstream;
  const params = upstream?.replace(/^\s*[^;]*/, '') ?? '';
  return `attachment${params}`;
}

const STATUS_OF: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  UPSTREAM_ERROR: 502,
  UPSTREAM_UNAVAILABLE: 503,
};

function sendError(res: ServerResponse, status: number, error: { message: string; extensions?: Record<string, unknown> }): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify({ errors: [error] });
  res.writeHead(status, { ...CONTAINED, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** An upstream 4xx status is the answer the client should see (a missing file is a 404); else by code. */
function statusOf(err: UpstreamError): number {
  if (err.kind === 'http' && err.httpStatus !== undefined && err.httpStatus >= 400 && err.httpStatus < 500) return err.httpStatus;
  if (err.kind === 'timeout') return 504;
  return STATUS_OF[classifyUpstreamError(err)];
}

/**
 * A Node request handler for the download routes: answers true when the request was one of them
 * (and is being answered), false to let the next handler (yoga) have it.
 */
/** The request's trace record (observability/requests.ts), when it is traced. */
type TraceOf = (req: IncomingMessage) => RequestTrace | undefined;

/**
 * The last segment of each route's path: a request whose raw path holds none of them cannot name a
 * route once parsed (a URL decodes no percent-escape of a path), so the URL of a GraphQL request is
 * not parsed here at all.
 */
const ROUTE_TAILS = Object.keys(DOWNLOAD_ROUTES).map((path) => path.slice(path.lastIndexOf('/') + 1));

export function createDownloadRoute(rest: RestClient, traceOf?: TraceOf): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const raw = req.url ?? '/';
    if (!ROUTE_TAILS.some((tail) => raw.includes(tail))) return false;
    const url = new URL(raw, 'http://gateway');
    if (!Object.hasOwn(DOWNLOAD_ROUTES, url.pathname)) return false;
    void serve(rest, DOWNLOAD_ROUTES[url.pathname as DownloadPath], url, req, res, traceOf?.(req));
    return true;
  };
}

async function serve(
  rest: RestClient,
  route: DownloadRoute,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
  trace: TraceSource | undefined,
): Promise<void> {
  req.resume();
  if (req.method !== 'GET') {
    res.setHeader('allow', 'GET');
    return sendError(res, 405, { message: `${req.method} is not allowed here; use GET`, extensions: { code: 'METHOD_NOT_ALLOWED' } });
  }
  const key = url.searchParams.get(route.key);
  if (!key) {
    return sendError(res, 400, { message: `${route.key}: required`, extensions: { code: 'BAD_USER_INPUT', field: route.key } });
  }
  const params: Record<string, string> = {};
  for (const [name, wire] of Object.entries(route.params)) {
    const value = url.searchParams.get(name);
    if (value !== null && value !== '') params[wire] = value;
  }
  // Headers first; the query parameters stand in for headers an image tag cannot send.
  const caller = callerFrom((name) => {
    const header = req.headers[name];
    return (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get(name) ?? undefined;
  });

  // The client going away stops the upstream transfer too.
  const abort = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) abort.abort(new Error('client closed the download'));
  });
  try {
    // The values are URL text: the client normalizes them to the table's types and passes what it
    // cannot on unchanged, so the service's own 10002 names a bad one. Hence the cast from strings.
    const file = await rest.download(route.endpoint, params as never, caller, { signal: abort.signal, ...(trace ? { trace } : {}) });
    const headers: Record<string, string | string[]> = { ...CONTAINED };
    for (const name of PASSED_HEADERS) {
      const value = file.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    const shown = disposition(file.headers['content-type'], file.headers['content-disposition']);
    if (shown === undefined) delete headers['content-disposition'];
    else headers['content-disposition'] = shown;
    res.writeHead(file.status, headers);
    await pipeline(file.body, res);
  } catch (err) {
    if (err instanceof UpstreamError) return sendError(res, statusOf(err), toGraphQLError(err).toJSON());
    if (abort.signal.aborted) return;
    sendError(res, 500, { message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  }
}
