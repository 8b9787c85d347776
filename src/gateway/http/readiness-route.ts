// GET /ready: 200 when the gateway takes traffic, else 503 with the reason as text. In place of
// yoga's useReadinessCheck, which tests every request's URL against a URLPattern (3% of the CPU of
// a cached `me` in profiles); the request's path, read off its URL string (observability/request-path.ts), is enough here.
import type { Plugin } from 'graphql-yoga';
import { pathOf } from '../observability/request-path';

export interface ReadinessRoute {
  endpoint: string;
  /** Why the gateway is not ready, or undefined when it is. */
  problem(): string | undefined;
}

export function useReadinessRoute({ endpoint, problem }: ReadinessRoute): Plugin {
  return {
    onRequest({ request, fetchAPI, endResponse }) {
      if (pathOf(request.url) !== endpoint) return;
      const why = problem();
      endResponse(
        why === undefined
          ? new fetchAPI.Response(null, { status: 200 })
          : new fetchAPI.Response(why, { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8' } }),
      );
    },
  };
}
