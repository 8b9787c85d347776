// The rate limit on HTTP (GET, POST, SSE, batches): taken once the request's parameters are read,
// before any document is parsed, validated or run; a batch takes one per operation. WebSocket
// operations take theirs in ws/websocket.ts (graphql-ws does not pass through this hook).
import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import { callerFrom } from '../../context';
import { requestLookup } from '../http/event-source';
import type { RateLimiter } from './limiter';

export function useRateLimit(limiter: RateLimiter): Plugin<Record<string, unknown>, { req?: IncomingMessage }> {
  return {
    onRequestParse({ request, serverContext }) {
      return {
        async onRequestParseDone({ requestParserResult }) {
          const cost = Array.isArray(requestParserResult) ? requestParserResult.length : 1;
          const sender = { caller: callerFrom(requestLookup(request)), address: serverContext.req?.socket.remoteAddress };
          const refusal = await limiter.admit(sender, cost, 'http');
          if (refusal) throw refusal;
        },
      };
    },
  };
}
