// Browsers' EventSource cannot send headers, so an SSE request (Accept: text/event-stream) may
// carry its identity in the URL's query string: `access-token` and `app_id` (headers win when both
// are given). For EventSource only: every other request reads headers alone, since a URL ends up
// in browser history and proxy logs. The gateway itself logs no URLs (upstream-log.ts names
// endpoints only; the metrics' labels hold no URL).
import { headersLookup } from '../../context';

const URL_IDENTITY: ReadonlySet<string> = new Set(['access-token', 'access_token', 'app_id', 'app-id']);

/** The identity lookup of an HTTP request: its headers, and for SSE the query string's identity. */
export function requestLookup(request: Request): (name: string) => string | undefined {
  const headers = headersLookup(request.headers);
  if (!request.headers.get('accept')?.includes('text/event-stream')) return headers;
  const query = new URL(request.url).searchParams;
  return (name) => headers(name) ?? (URL_IDENTITY.has(name) ? (query.get(name) ?? undefined) : undefined);
}
