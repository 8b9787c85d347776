// yoga at /graphql with the gateway's plugins: each operation's context (its identity, from the
// front or the socket), the body and parse settings the plugins replace, and errors worded once.
import type { IncomingMessage } from 'node:http';
import { GraphQLError } from 'graphql';
import { createYoga } from 'graphql-yoga';
import type { Config } from '../config';
import { type ContextParts, createContext, type GatewayContext } from '../context';
import type { Identity } from '../identity';
import type { RestClient } from '../rest/client';
import { schema } from '../schema';
import { ScalarInputError } from '../schema/core/scalars';
import { edgeMaskError } from './observability/error-detail';
import type { SubscriptionHub } from '../subscriptions/hub';
import type { ResumeSlot } from '../subscriptions/resume';
import { requestIdentity } from './http/front';
import { yogaBatching } from './http/batch-limit';
import { corsFor } from './http/cors';
import { checkedIdFormat } from './http/id-format';
import { operationTrace } from './observability/requests';
import type { Tracing } from './observability/tracing/tracing';
import type { NamedPlugin } from './plugins';
import { fusePlugins } from './hook-fusion';

interface YogaParts {
  readonly plugins: readonly NamedPlugin[];
  readonly rest: RestClient;
  readonly settings: ContextParts['settings'];
  readonly subscriptions: SubscriptionHub;
  readonly service: ContextParts['service'];
  readonly tracing: Tracing | undefined;
}

/** graphql-js wraps a scalar's refusal once or twice (type, then variable) before reporting it. */
function causedByScalarInput(error: unknown): boolean {
  for (let at = error; at instanceof Error; at = at instanceof GraphQLError ? at.originalError : undefined) {
    if (at instanceof ScalarInputError) return true;
  }
  return false;
}

export function gatewayYoga(config: Config, { plugins, rest, settings, subscriptions, service, tracing }: YogaParts) {
  // What errors tell clients (ERROR_DETAIL): observability/error-detail.ts.
  const maskOther = edgeMaskError(config.errorDetail);
  return createYoga<Record<string, unknown>, GatewayContext>({
    schema,
    graphqlEndpoint: '/graphql',
    healthCheckEndpoint: '/health',
    landingPage: false,
    // Replaced by the front's limit and useMultipartBodyLimit (a limit per kind of body).
    maxRequestBodySize: false,
    batching: yogaBatching(config.maxBatch),
    cors: corsFor(config.corsOrigins),
    context: ({
      req,
      connectionParams,
      identity,
      resume,
    }: {
      request?: Request;
      req?: IncomingMessage;
      connectionParams?: Record<string, unknown>;
      /** A WebSocket operation's (websocket.ts); an HTTP request's is on `req` (the front's). */
      identity?: Identity;
      /** A WebSocket subscription's resume slot (ws/resume-on-retry.ts). */
      resume?: ResumeSlot;
    }) => {
      const who = identity ?? requestIdentity(req);
      const trace = operationTrace(tracing, req, connectionParams);
      checkedIdFormat(who);
      return createContext({ client: rest, identity: who, settings, subscriptions, service, trace, connection: connectionParams, resume });
    },
    // useStreamingMultipart parses multipart requests (yoga's own parser would only be overridden).
    multipart: false,
    // useDocumentCache, at a lower cost per request.
    parserAndValidationCache: false,
    // Served ahead of yoga by createGraphiQLPage (rendered once, not per request).
    graphiql: false,
    maskedErrors: {
      maskError(error, message, isDev) {
        // A variable refused by our scalars is the client's mistake, not an internal error.
        if (causedByScalarInput(error)) return error as GraphQLError;
        return maskOther(error, message, isDev);
      },
    },
    // Their per-request hooks fused into one loop each (hook-fusion.ts): same order, same effects.
    plugins: fusePlugins(plugins.map(({ plugin }) => plugin)),
  });
}

export type GatewayYoga = ReturnType<typeof gatewayYoga>;
