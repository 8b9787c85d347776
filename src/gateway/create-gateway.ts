// createGateway(config) → { start, stop }: graphql-yoga at /graphql (GraphiQL included),
// graphql-ws on the same port and path, /health, /ready and /metrics (or metrics on a listener of
// their own); the subscriptions' pollers; stop() drains (lifecycle/drain.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLError } from 'graphql';
import { createYoga, maskError } from 'graphql-yoga';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { callerFrom, createContext, type GatewayContext, headersLookup, paramsLookup } from '../context';
import type { Config } from '../config';
import { createRestClient, type RestClient } from '../rest/client';
import { forgetCaller, serviceCredential } from '../peers/service-credential';
import { ScalarInputError } from '../schema/core/scalars';
import { graphqlErrorOf, useUpstreamErrors } from '../schema/core/upstream-errors';
import { coalescing } from '../rest/coalesce';
import { backgroundGate, inBackground } from '../rest/background';
import { schema } from '../schema';
import { createSubscriptionHub } from '../subscriptions/hub';
import { subscriptionSlots } from '../subscriptions/slots';
import { graphiqlOptions } from './http/graphiql';
import { createGraphiQLPage } from './http/graphiql-page';
import { useMultipartBodyLimit } from './http/body-limits';
import { createFront, useFrontRefusals } from './http/front';
import { COMPRESSION, CompressibleResponse, compressing } from './http/compression';
import { useAcceptCheck } from './http/accept';
import { useMultipartSubscriptions } from './http/multipart-subscriptions';
import { useRequestParseErrors } from './http/parse-errors';
import { useBatchLimit, yogaBatching } from './http/batch-limit';
import { createRateLimiter } from './rate-limit/limiter';
import { useRateLimit } from './rate-limit/use-rate-limit';
import { useDocumentLimits } from './execution/document-limits';
import { useCostLimit } from './execution/cost';
import { useResultCaps } from './execution/result-caps';
import { useSubscriptionLimits } from './execution/subscription-limits';
import { corsFor, wsOriginAllowed } from './http/cors';
import { useCsrfPrevention } from './http/csrf';
import { createDownloadRoute } from './http/downloads';
import { DOWNLOAD_ROUTES } from '../files/download-paths';
import { requestLookup } from './http/event-source';
import { idFormatFrom } from './http/id-format';
import { useReadinessRoute } from './http/readiness-route';
import { useCompiledExecution } from './execution/jit';
import { useDocumentCache } from './execution/document-cache';
import { useSharedExecution } from './execution/shared-execution';
import { useIntrospectionRefusal } from './execution/introspection';
import { createDrain, type DrainOutcome } from './lifecycle/drain';
import { listenForMetrics } from './observability/metrics-listener';
import { createGatewayMetrics } from './observability/metrics';
import { createReadiness } from './observability/readiness';
import { restCallObserver } from './observability/rest-calls';
import { useStreamingMultipart } from './http/multipart';
import { upstreamLog } from './observability/upstream-log';
import { log } from '../log/logger';
import { observeRequests, operationTrace, traceOf } from './observability/requests';
import { useOperationTracing } from './observability/tracing/operation-plugin';
import { createTracing } from './observability/tracing/tracing';
import { sharedSubscriptions } from './ws/shared-subscriptions';
import { socketSlots } from './ws/socket-slots';
import { mountWebSocket } from './ws/websocket';
import { createPersisted } from './persisted/persisted';

/** What a gateway needs besides its Config. */
export interface GatewayOptions {
  /** The IM service's origin; default: the config's IM_BASE_URL (main.ts passes the emulator's). */
  imBaseUrl?: string;
  /** Headers GraphiQL starts with (the demo identity when the emulator runs). */
  graphiqlHeaders?: Record<string, string>;
  /** Prefix of the Redis keys and channels when `redisUrl` is set (tests use one per run). */
  redisPrefix?: string;
  /** How long a dead replica's subscription slots outlive it in Redis (tests shorten it). Default 60 s. */
  subscriptionLeaseMs?: number;
}

export interface Gateway {
  /** Listens; resolves to the gateway's origin (http://host:port). */
  start(): Promise<string>;
  /**
   * Drains: /ready answers 503, subscriptions complete, pollers stop, and requests in flight have
   * until `timeoutMs` (default 0: none, for tests) to finish; what remains then is cut and named.
   */
  stop(timeoutMs?: number): Promise<DrainOutcome>;
  readonly rest: RestClient;
  /** Where metrics are served when they have a listener of their own (after start). */
  readonly metricsUrl: string | undefined;
}

/** graphql-js wraps a scalar's refusal once or twice (type, then variable) before reporting it. */
function causedByScalarInput(error: unknown): boolean {
  for (let at = error; at instanceof Error; at = at instanceof GraphQLError ? at.originalError : undefined) {
    if (at instanceof ScalarInputError) return true;
  }
  return false;
}

/** Largest `operations` or `map` field of a multipart request. */
const MULTIPART_FIELD_BYTES = 1024 * 1024;

export function createGateway(config: Config, options: GatewayOptions = {}): Gateway {
  const imBaseUrl = options.imBaseUrl ?? config.imBaseUrl;
  if (!imBaseUrl) throw new Error('createGateway: no IM service (IM_BASE_URL, or options.imBaseUrl)');
  // The hub is read only at scrape time, after it exists.
  // WebSocket subscribers of one operation and identity share an execution (one hub subscriber).
  const shared = sharedSubscriptions();
  const subscriptionStats = () => {
    const stats = subscriptions.stats();
    const { executions, members } = shared.stats();
    return { ...stats, subscribers: stats.subscribers - executions + members };
  };
  // Polls take at most pollConnections of the upstream sockets (rest/background.ts).
  const pollGate = backgroundGate(config.pollConnections);
  // At most so many subscriptions per identity, over every transport and replica.
  const slots = subscriptionSlots({
    limit: config.maxSubscriptionsPerIdentity,
    defaultAppId: config.imAppId,
    ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
    ...(options.redisPrefix ? { redisPrefix: options.redisPrefix } : {}),
    ...(options.subscriptionLeaseMs ? { leaseMs: options.subscriptionLeaseMs } : {}),
  });
  const wsSlots = socketSlots(config.maxSubscriptionsPerSocket, slots);
  const limitStats = () => {
    const { refused, failedOpen } = slots.stats();
    return { refused: { socket: wsSlots.refused(), identity: refused }, failedOpen, pollsQueued: pollGate.stats().queued };
  };
  const metrics = config.metrics
    ? createGatewayMetrics({ subscriptions: subscriptionStats, limits: limitStats, public: config.metricsPort === undefined })
    : undefined;
  const drain = createDrain();
  const logTrouble = upstreamLog();
  const tracing = createTracing(config.tracing);
  const readiness = createReadiness({ failedCalls: config.readyFailedCalls, windowMs: config.readyWindowMs });
  // The service credential reads peers' public profiles for user-token callers (README: trust model).
  const service = { credential: serviceCredential(config.imAppId, config.imAdminToken), defaultAppId: config.imAppId };
  const client = createRestClient({
    baseUrl: imBaseUrl,
    appId: config.imAppId,
    connectTimeoutMs: config.connectTimeoutMs,
    callTimeoutMs: config.callTimeoutMs,
    retries: config.retries,
    connections: config.connections,
    freezeReplies: config.freezeReplies,
    // The hosts uploads may go to are the storage downloads may be fetched from (README: UPLOAD_HOSTS).
    storageHosts: config.uploadHosts,
    observer: restCallObserver(tracing?.calls, [logTrouble, readiness.record, metrics?.restCall]),
    // A refused token's remembered caller proof goes at once.
    onTokenRefused: (caller) => service.credential && forgetCaller(service.credential, caller, config.imAppId),
  });
  // Identical reads in flight for one identity share one upstream call (src/rest/coalesce.ts).
  const rest = config.coalesce ? coalescing(client) : client;

  const subscriptions = createSubscriptionHub({
    rest,
    pollRest: inBackground(rest, pollGate),
    intervalMs: config.pollIntervalMs,
    defaultAppId: config.imAppId,
    ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
    ...(options.redisPrefix ? { redisPrefix: options.redisPrefix } : {}),
    ...(tracing ? { traceRound: tracing.traceRound } : {}),
  });

  const limiter =
    config.rateLimit &&
    createRateLimiter({
      ...config.rateLimit,
      defaultAppId: config.imAppId,
      ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
      ...(options.redisPrefix ? { redisPrefix: options.redisPrefix } : {}),
      ...(metrics ? { onRefused: metrics.rateLimited, onStoreFailure: metrics.rateLimitStoreFailure } : {}),
    });

  // Trusted documents and APQ (README: Persisted queries); the Redis store is connected at start.
  const persisted = createPersisted(config, {
    redisPrefix: options.redisPrefix ?? 'im-gateway:',
    warn: (message) => log().warn(`persisted queries: ${message}`),
  });
  const settings = {
    imBaseUrl,
    uploadHosts: config.uploadHosts,
    maxUploadBytes: config.maxUploadBytes,
    maxRestCalls: config.maxRestCalls,
    idFormat: config.idFormat,
  };
  const documents = useDocumentCache();
  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema,
    graphqlEndpoint: '/graphql',
    healthCheckEndpoint: '/health',
    landingPage: false,
    // Replaced by the front's limit and useMultipartBodyLimit (a limit per kind of body).
    maxRequestBodySize: false,
    batching: yogaBatching(config.maxBatch),
    cors: corsFor(config.corsOrigins),
    context: ({
      request,
      req,
      connectionParams,
    }: {
      request?: Request;
      req?: IncomingMessage;
      connectionParams?: Record<string, unknown>;
    }) => {
      const lookup = connectionParams ? paramsLookup(connectionParams) : request ? requestLookup(request) : headersLookup(new Headers());
      const trace = operationTrace(tracing, req, connectionParams);
      const idFormat = idFormatFrom(lookup, config.idFormat);
      return createContext(rest, callerFrom(lookup), settings, subscriptions, service, trace, connectionParams, idFormat);
    },
    // useStreamingMultipart below parses multipart requests (yoga's own parser would only be overridden).
    multipart: false,
    // useDocumentCache below, at a lower cost per request.
    parserAndValidationCache: false,
    // Served ahead of yoga by createGraphiQLPage (rendered once, not per request).
    graphiql: false,
    maskedErrors: {
      maskError(error, message, isDev) {
        // A variable refused by our scalars is the client's mistake, not an internal error.
        if (causedByScalarInput(error)) return error as GraphQLError;
        return graphqlErrorOf(error) ?? maskError(error, message, isDev);
      },
    },
    plugins: [
      useFrontRefusals(),
      // @defer and @stream: deferred and streamed payloads over multipart or SSE (execution/incremental.ts).
      documents.rulesOnly(useDeferStream()),
      useCsrfPrevention(),
      // File uploads reach resolvers as streams of the request body (yoga's own parser buffers them).
      useStreamingMultipart({ maxFileBytes: config.maxUploadBytes, maxFiles: 10, maxFieldBytes: MULTIPART_FIELD_BYTES }),
      useMultipartBodyLimit({ maxUploadBytes: config.maxUploadBytes, maxFieldBytes: MULTIPART_FIELD_BYTES }),
      useRequestParseErrors(),
      // Before yoga checks the parameters: a documentId or a hash alone becomes the document's text.
      persisted.plugin,
      // A batch over MAX_BATCH is refused before the rate limit takes anything for it.
      useBatchLimit(config.maxBatch),
      ...(limiter ? [useRateLimit(limiter)] : []),
      useAcceptCheck(),
      useMultipartSubscriptions({ heartbeatMs: config.multipartHeartbeatMs }),
      useDocumentLimits(config),
      useCostLimit({ maxCost: config.maxCost, mode: config.costMode, ...(metrics ? { onOverLimit: metrics.overCost } : {}) }),
      useResultCaps(config),
      ...(config.introspection ? [] : [documents.rulesOnly(useIntrospectionRefusal())]),
      // After the plugins that may refuse an operation: a refused one takes no slot.
      useSubscriptionLimits(slots),
      useReadinessRoute({
        endpoint: '/ready',
        problem: () => (drain.draining ? 'the gateway is shutting down' : readiness.problem()),
      }),
      ...(metrics ? [metrics.plugin] : []),
      ...(tracing?.tracer || config.logRequests ? [useOperationTracing(tracing)] : []),
      ...(config.jit ? [useCompiledExecution({ afterRuns: config.jitAfterRuns })] : []),
      // After compiled execution: it shares whichever execution that plugin chose.
      ...(config.shareQueries ? [useSharedExecution(metrics ? { onShared: metrics.sharedExecution } : {})] : []),
      useUpstreamErrors(),
      // Where yoga puts its own parse and validation cache, which it replaces.
      documents.plugin,
    ],
  });

  let server: Server | undefined;
  let ws: ReturnType<typeof mountWebSocket> | undefined;
  let metricsListener: Awaited<ReturnType<typeof listenForMetrics>> | undefined;

  return {
    rest,
    get metricsUrl() {
      return metricsListener?.url;
    },
    async start() {
      await subscriptions.start();
      await limiter?.start();
      await persisted.start();
      await slots.start();
      const downloads = createDownloadRoute(rest, traceOf);
      const serveYoga = (req: IncomingMessage, res: ServerResponse) => void yoga(req, res);
      const graphiql = config.graphiql ? createGraphiQLPage(graphiqlOptions(options.graphiqlHeaders)) : () => false;
      server = createServer(
        // One response class: tracked while in flight (lifecycle/tracked-response.ts), coded when yoga armed it (http/compression.ts).
        { ServerResponse: CompressibleResponse },
        drain.track(
          observeRequests(
            createFront({
              maxBodyBytes: config.maxBodyBytes,
              routes: [graphiql, downloads],
              // yoga's Node listener answers or logs its own failures: its promise never rejects.
              serve: config.compression ? compressing(serveYoga, COMPRESSION) : serveYoga,
            }),
            {
              tracing,
              logRequests: config.logRequests,
              routes: ['/graphql', '/health', '/ready', '/metrics', ...Object.keys(DOWNLOAD_ROUTES)],
            },
          ),
        ),
      );
      ws = mountWebSocket(server, yoga, {
        verify: subscriptions.verify,
        maxPayloadBytes: config.maxWsPayloadBytes,
        maxInitBytes: config.maxWsInitBytes,
        shared,
        slots: wsSlots,
        originAllowed: wsOriginAllowed(config.corsOrigins),
        ...(limiter ? { admit: (caller, address) => limiter.admit({ caller, address }, 1, 'ws') } : {}),
        resolveParams: persisted.resolve,
      });
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(config.port, config.host, () => resolve());
      });
      if (metrics && config.metricsPort !== undefined) {
        metricsListener = await listenForMetrics(metrics.scrape, config.metricsPort, config.metricsHost);
      }
      const { port } = server.address() as AddressInfo;
      return `http://${config.host}:${port}`;
    },
    async stop(timeoutMs = 0) {
      const deadline = Date.now() + timeoutMs;
      if (server) drain.begin(server);
      // Every subscription completes (its clients are told, and resume elsewhere) and every poller
      // stops, releasing its lease; then the requests in flight get what time is left.
      await subscriptions.close();
      await ws?.close();
      await slots.close();
      const outcome = server ? await drain.settle(server, deadline) : { cut: [] };
      await metricsListener?.close();
      await limiter?.close();
      await persisted.close();
      // The REST calls of cut requests may still be held: the pool then closes on its own timer
      // (IM_CALL_TIMEOUT_MS) rather than hold the stop.
      const closing = rest.close();
      if (outcome.cut.length === 0) await closing;
      else closing.catch(() => {});
      await tracing?.shutdown();
      server = undefined;
      ws = undefined;
      metricsListener = undefined;
      return outcome;
    },
  };
}
