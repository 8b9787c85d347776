// Browsers' EventSource cannot send headers, so an SSE request (Accept: text/event-stream) may
// carry its identity in the URL's query string: `access-token` and `app_id` (headers win when both
// are given). For EventSource only: every other request reads headers alone, since a URL ends up
// in browser history and proxy logs. The gateway itself logs no URLs (upstream-log.ts names
// endpoints only; the metrics' labels hold no URL).
import type { IncomingMessage } from 'node:http';

const URL_IDENTITY: ReadonlySet<string> = new Set(['access-token', 'access_token', 'app_id', 'app-id']);

type Lookup = (name: string) => string | undefined;

/** The identity lookup of an HTTP request as Node received it: its headers, and for SSE the query string's identity. */
export function incomingLookup(req: IncomingMessage): Lookup {
  const { headers } = req;
  // Node joins a repeated header with ", " as the Fetch API's Headers#get does; only set-cookie is an array.
  const header: Lookup = (name) => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  if (!headers.accept?.includes('text/event-stream')) return header;
  const query = new URL(req.url ?? '/', 'http://gateway').searchParams;
  return (name) => header(name) ?? (URL_IDENTITY.has(name) ? (query.get(name) ?? undefined) : undefined);
}
