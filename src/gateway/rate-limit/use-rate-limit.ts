// The rate limit on HTTP (GET, POST, SSE, batches): taken once the request's parameters are read,
// before any document is parsed, validated or run; a batch takes one per operation. WebSocket
// operations take theirs in ws/websocket.ts (graphql-ws does not pass through this hook).
import type { Plugin } from 'graphql-yoga';
import { type FrontRequest, requestIdentity } from '../http/front';
import type { RateLimiter } from './limiter';

export function useRateLimit(limiter: RateLimiter): Plugin<Record<string, unknown>, { req?: FrontRequest }> {
  return {
    onRequestParse({ serverContext }) {
      return {
        async onRequestParseDone({ requestParserResult }) {
          const cost = Array.isArray(requestParserResult) ? requestParserResult.length : 1;
          // The identity holds the caller and the address its bucket is chosen by.
          const refusal = await limiter.admit(requestIdentity(serverContext.req), cost, 'http');
          if (refusal) throw refusal;
        },
      };
    },
  };
}
