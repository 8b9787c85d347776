// Cross-site request forgery: a browser sends "simple" requests (a form post, text/plain, a GET
// without custom headers) to any origin without asking first, so such a request must not run an
// operation. Yoga's plugin refuses them unless a custom header is present (which a cross-site page
// cannot add without a CORS preflight); JSON posts, GraphiQL and graphql-ws pass as they are.
// One exception: a GET asking for text/event-stream (an SSE subscription, as EventSource sends it:
// it cannot add headers). Yoga never runs a mutation over GET, and identity rides in headers (or
// the URL), not cookies, so a forged stream can neither write nor act as anyone.
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

/** Any one of these headers marks a request as sent on purpose (multipart uploads need one). */
const CSRF_HEADERS = ['x-graphql-yoga-csrf', 'apollo-require-preflight'] as const;

function isEventStreamGet(request: Request): boolean {
  return request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/event-stream');
}

export function useCsrfPrevention(): Plugin {
  const yogaCheck = useCSRFPrevention({ requestHeaders: [...CSRF_HEADERS] });
  return {
    onRequestParse(payload) {
      if (isEventStreamGet(payload.request)) return;
      try {
        return yogaCheck.onRequestParse?.(payload);
      } catch {
        // The plugin's message names no header; say what the client must send.
        throw createGraphQLError(
          `This request may have come from another site: send content-type application/json, or the header ${CSRF_HEADERS.join(' or ')} (for multipart uploads and GET queries).`,
          { extensions: { code: 'CSRF_HEADER_REQUIRED', http: { status: 403 } } },
        );
      }
    },
  };
}
