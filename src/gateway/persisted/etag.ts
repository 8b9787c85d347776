// HTTP caching of a persisted query sent by GET (`?documentId=…&variables=…`, or an APQ hash).
// The answer depends on the caller (its token, app and acting user), so it is `private` (no shared
// cache keeps it) and `no-cache` (a browser asks again every time). The ETag is a digest of the
// caller's identity, the document, the variables and the answer itself: a 304 is sent only when
// this caller's answer, computed now, is the one the caller holds; an ETag seen by one caller never
// matches for another. It saves the transfer, not the REST calls (the query runs to compare).
import { createHash } from 'node:crypto';

/** The headers that name the caller (context.ts reads the same). */
const IDENTITY_HEADERS = [
  'access-token',
  'access_token',
  'authorization',
  'app_id',
  'app-id',
  'user_id',
  'user-id',
  'group_id',
  'group-id',
];

export const CACHE_CONTROL = 'private, no-cache';

export function etagOf(request: Request, hash: string, body: string): string {
  const digest = createHash('sha256');
  for (const name of IDENTITY_HEADERS) digest.update(`${name}\0${request.headers.get(name) ?? ''}\0`);
  digest.update(`${hash}\0${new URL(request.url).searchParams.get('variables') ?? ''}\0${body}`);
  return `"${digest.digest('base64url').slice(0, 32)}"`;
}

/** Whether an If-None-Match header names this ETag (a list, `*`, weak forms). */
export function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** The answer with its ETag and Cache-Control, or a 304 when the caller holds it already. */
export async function cacheable(
  request: Request,
  response: Response,
  hash: string,
  { Response: Reply, Headers: HeaderList }: { Response: typeof Response; Headers: typeof Headers },
): Promise<Response> {
  const body = await response.text();
  const etag = etagOf(request, hash, body);
  const headers = new HeaderList(response.headers);
  headers.set('ETag', etag);
  headers.set('Cache-Control', CACHE_CONTROL);
  if (matches(request.headers.get('if-none-match'), etag)) {
    headers.delete('content-length');
    headers.delete('content-type');
    return new Reply(null, { status: 304, headers });
  }
  return new Reply(body, { status: response.status, headers });
}
