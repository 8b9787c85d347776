// Which web origins may read the gateway's answers (CORS_ORIGINS). By default none: no CORS
// headers at all, so only same-origin pages (GraphiQL) and non-browser clients use it. Listed
// origins are answered with credentials; `*` lets any other origin read without credentials.
// Browsers apply no CORS to WebSockets: `wsOriginAllowed` holds them to the same list.
import type { YogaServerOptions } from 'graphql-yoga';

type CorsSetting = NonNullable<YogaServerOptions<Record<string, unknown>, Record<string, unknown>>['cors']>;

export function corsFor(origins: readonly string[]): CorsSetting {
  const listed = new Set(origins.filter((o) => o !== '*'));
  const anyOrigin = origins.includes('*');
  if (listed.size === 0 && !anyOrigin) return false;
  return (request: Request) => {
    const origin = request.headers.get('origin');
    if (origin === null) return false;
    // One origin in the list: the header names exactly it.
    if (listed.has(origin)) return { origin: [origin], credentials: true, maxAge: 600 };
    // '*' in whatwg-node's sense echoes the origin (with Vary: Origin); no credentials.
    if (anyOrigin) return { origin: '*', credentials: false, maxAge: 600 };
    return false;
  };
}

/**
 * Whether a WebSocket upgrade may go ahead: one without an Origin header (not a browser page), from
 * a page of the gateway's own host (GraphiQL), or from an origin CORS_ORIGINS lets read answers.
 */
export function wsOriginAllowed(origins: readonly string[]): (origin: string | undefined, host: string | undefined) => boolean {
  const listed = new Set(origins);
  return (origin, host) => {
    if (origin === undefined || listed.has('*') || listed.has(origin)) return true;
    try {
      // The scheme is left out: behind a TLS proxy the page is https and the request plain.
      return host !== undefined && new URL(origin).host === host;
    } catch {
      return false;
    }
  };
}
