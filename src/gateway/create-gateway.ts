// createGateway(config) → { start, stop }: graphql-yoga at /graphql (GraphiQL included),
// graphql-ws on the same port and path, /health, /ready and /metrics (or metrics on a listener of
// their own); the subscriptions' pollers. The plugins come in phases from plugins.ts; the
// subsystems are one list of resources (lifecycle/resources.ts): stop() drains, then closes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLError, Kind, type OperationDefinitionNode } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { createContext, type GatewayContext } from '../context';
import type { Config } from '../config';
import { type Identity, identityOf } from '../identity';
import { createRestClient, type RestClient } from '../rest/client';
import { forgetCaller, serviceCredential } from '../peers/service-credential';
import { ScalarInputError } from '../schema/core/scalars';
import { coalescing } from '../rest/coalesce';
import { backgroundGate, inBackground } from '../rest/background';
import { writeClock } from '../rest/write-clock';
import { schema } from '../schema';
import { createSubscriptionHub } from '../subscriptions/hub';
import type { ResumeSlot } from '../subscriptions/resume';
import { memoryLedger, redisLedger, type ResumeLedger } from '../subscriptions/resume-ledger';
import { resumeSlot } from './ws/resume-on-retry';
import { subscriptionSlots } from '../subscriptions/slots';
import { graphiqlOptions } from './http/graphiql';
import { createGraphiQLPage } from './http/graphiql-page';
import { createFront, requestIdentity } from './http/front';
import { COMPRESSION, CompressibleResponse, compressing } from './http/compression';
import { yogaBatching } from './http/batch-limit';
import { bucketKey, createRateLimiter } from './rate-limit/limiter';
import { Admission } from './admission/admission';
import { tokenProofs } from './rate-limit/token-proofs';
import { createSignInLimiter } from './rate-limit/sign-in-limiter';
import { clientAddress } from './http/client-address';
import { corsFor, wsOriginAllowed } from './http/cors';
import { createDownloadRoute } from './http/downloads';
import { DOWNLOAD_ROUTES } from '../files/download-paths';
import { incomingLookup } from './http/event-source';
import { checkedIdFormat } from './http/id-format';
import { useDocumentCache } from './execution/document-cache';
import { createDrain, type DrainOutcome } from './lifecycle/drain';
import { resources } from './lifecycle/resources';
import { listenForMetrics } from './observability/metrics-listener';
import { createGatewayMetrics } from './observability/metrics';
import { createReadiness } from './observability/readiness';
import { restCallObserver } from './observability/rest-calls';
import { upstreamLog } from './observability/upstream-log';
import { edgeMaskError } from './observability/error-detail';
import { log } from '../log/logger';
import { observeRequests, operationTrace, traceOf } from './observability/requests';
import { createTracing } from './observability/tracing/tracing';
import { sharedSubscriptions } from './ws/shared-subscriptions';
import { socketSlots } from './ws/socket-slots';
import { mountWebSocket } from './ws/websocket';
import { createPersisted } from './persisted/persisted';
import { gatewayPlugins } from './plugins';
import { warmUp } from './lifecycle/warm-up';
import type { CompiledExecution } from './execution/jit';

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
  /** Admission's load now: estimated REST calls of the operations running, operations waiting. */
  readonly admission: Admission['load'];
  /**
   * Whether a document's text is parsed, validated and (with compiled execution) its queries and
   * mutations compiled: the persisted documents are, once /ready answers 200.
   */
  prepared(text: string): boolean;
}

/** graphql-js wraps a scalar's refusal once or twice (type, then variable) before reporting it. */
function causedByScalarInput(error: unknown): boolean {
  for (let at = error; at instanceof Error; at = at instanceof GraphQLError ? at.originalError : undefined) {
    if (at instanceof ScalarInputError) return true;
  }
  return false;
}

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
  // The tokens the service accepted, per app: the rate limit's identities (rate-limit/token-proofs.ts).
  const proofs =
    config.rateLimit &&
    tokenProofs({ defaultAppId: config.imAppId, rate: config.rateLimit, rest: () => rest, serviceToken: config.imAdminToken });
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
    onTokenRefused: (caller) => {
      if (service.credential) forgetCaller(service.credential, caller, config.imAppId);
      if (proofs) proofs.refused(caller);
    },
    ...(proofs ? { onTokenAccepted: proofs.accepted } : {}),
  });
  // Read your writes: one clock for REST coalescing and shared executions (rest/write-clock.ts).
  const writes = writeClock();
  // Identical reads in flight for one identity share one upstream call (src/rest/coalesce.ts).
  const rest = config.coalesce ? coalescing(client, { defaultAppId: config.imAppId, writes }) : client;
  // Who a request is: read once per HTTP request (the front) or WebSocket connection (src/identity.ts).
  const identityDefaults = { defaultAppId: config.imAppId, idFormat: config.idFormat };
  // The client's address: the peer's, or what a trusted proxy says it is (TRUSTED_PROXIES).
  const addressOf = clientAddress(config.trustedProxies);
  const identify = (lookup: (name: string) => string | undefined, address: string | undefined) =>
    identityOf(lookup, address, identityDefaults);

  const subscriptions = createSubscriptionHub({
    rest,
    pollRest: inBackground(rest, pollGate),
    intervalMs: config.pollIntervalMs,
    defaultAppId: config.imAppId,
    ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
    ...(options.redisPrefix ? { redisPrefix: options.redisPrefix } : {}),
    ...(tracing ? { traceRound: tracing.traceRound } : {}),
  });

  // Bounds the estimated cost in flight per identity and on this replica (gateway/admission/).
  const admission = new Admission({
    replica: config.maxCostInFlight,
    perIdentity: config.maxCostInFlightPerIdentity,
    queue: config.admissionQueue,
    waitMs: config.admissionWaitMs,
  });

  // Where retried WebSocket subscriptions resume (ws/resume-on-retry.ts); Redis is connected at start.
  const ledgerOptions = { windowMs: config.resumeWindowMs, maxEntries: config.resumeMaxEntries };
  let ledger: ResumeLedger | undefined = config.resumeWindowMs > 0 && !config.redisUrl ? memoryLedger(ledgerOptions) : undefined;

  const limiter =
    config.rateLimit &&
    createRateLimiter({
      ...config.rateLimit,
      defaultAppId: config.imAppId,
      ...(proofs ? { proofs } : {}),
      ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
      ...(options.redisPrefix ? { redisPrefix: options.redisPrefix } : {}),
      ...(metrics ? { onRefused: metrics.rateLimited, onStoreFailure: metrics.rateLimitStoreFailure } : {}),
    });

  // Guessing passwords: sign-ins per address and per login name, on unless both are turned off.
  const signInLimiter =
    (config.signInLimitAddress || config.signInLimitName) &&
    createSignInLimiter({
      address: config.signInLimitAddress,
      name: config.signInLimitName,
      redisUrl: config.redisUrl,
      redisPrefix: options.redisPrefix,
      onRefused: metrics?.rateLimited,
      onStoreFailure: metrics?.rateLimitStoreFailure,
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
  // What errors tell clients (ERROR_DETAIL): observability/error-detail.ts.
  const maskOther = edgeMaskError(config.errorDetail);
  const plugins = gatewayPlugins({
    config,
    documents,
    persisted,
    limiter: limiter || undefined,
    admission,
    // With proofs (RATE_LIMIT set), the rate limit's bucket: an unproven token counts as its address.
    ...(proofs ? { admissionKey: (identity: Identity) => bucketKey(identity, config.imAppId, proofs.isProven) } : {}),
    signInLimiter: signInLimiter || undefined,
    slots,
    metrics,
    tracing,
    notReady: () => (drain.draining ? 'the gateway is shutting down' : (warming.pending() ?? readiness.problem())),
    writes,
  });
  const compiled = plugins.find((p) => p.name === 'compiled-execution')?.plugin as CompiledExecution | undefined;
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
        return maskOther(error, message, isDev);
      },
    },
    plugins: plugins.map(({ plugin }) => plugin),
  });
  // Warm start: the persisted documents compiled and the pool's connections (IM_CONNECTIONS) opened
  // before /ready answers 200: a cold home list reads 30-odd calls at once, each new connection 1-2 RTT.
  const warming = warmUp({
    pipeline: () => yoga.getEnveloped({}),
    documents: persisted.documents,
    compile: compiled && ((schema, document) => compiled.precompile(schema, document)),
    preconnect: () => client.preconnect(config.connections),
    warn: (message) => log().warn(message),
  });

  const downloads = createDownloadRoute(rest, traceOf);
  const serveYoga = (req: IncomingMessage, res: ServerResponse) => void yoga(req, res);
  const graphiql = config.graphiql ? createGraphiQLPage(graphiqlOptions(options.graphiqlHeaders)) : () => false;
  const server: Server = createServer(
    // One response class: tracked while in flight (lifecycle/tracked-response.ts), coded when yoga armed it (http/compression.ts).
    { ServerResponse: CompressibleResponse },
    drain.track(
      observeRequests(
        createFront({
          maxBodyBytes: config.maxBodyBytes,
          routes: [graphiql, downloads],
          identify: (req) => identify(incomingLookup(req), addressOf(req.socket.remoteAddress, req.headers['x-forwarded-for'])),
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
  let listening = false;
  let ws: ReturnType<typeof mountWebSocket> | undefined;
  let metricsListener: Awaited<ReturnType<typeof listenForMetrics>> | undefined;

  // In the order they are made: each may use those before it; stopped in reverse (lifecycle/resources.ts).
  const subsystems = resources([
    tracing && { name: 'tracing', close: () => tracing.shutdown() },
    {
      name: 'rest',
      // The REST calls of cut requests may still be held: the pool then closes on its own timer
      // (IM_CALL_TIMEOUT_MS) rather than hold the stop.
      close: async (outcome) => {
        const closing = rest.close();
        if (outcome.cut.length === 0) await closing;
        else closing.catch(() => {});
      },
    },
    { name: 'persisted-documents', start: () => persisted.start(), close: () => persisted.close() },
    limiter && { name: 'rate-limit', start: () => limiter.start(), close: () => limiter.close() },
    signInLimiter && { name: 'sign-in-limit', start: () => signInLimiter.start(), close: () => signInLimiter.close() },
    // Drained after the sockets and the hub below: their subscriptions give their slots back first.
    config.resumeWindowMs > 0 &&
      config.redisUrl !== undefined && {
        name: 'resume-ledger',
        start: async () => {
          ledger = await redisLedger(config.redisUrl!, options.redisPrefix ?? 'im-gateway:', ledgerOptions);
        },
        close: () => ledger?.close(),
      },
    { name: 'subscription-slots', start: () => slots.start(), drain: () => slots.close() },
    {
      name: 'websocket',
      start: () => {
        ws = mountWebSocket(server, yoga, {
          verify: subscriptions.verify,
          maxPayloadBytes: config.maxWsPayloadBytes,
          maxInitBytes: config.maxWsInitBytes,
          shared,
          slots: wsSlots,
          identify,
          addressOf: (req) => addressOf(req.socket.remoteAddress, req.headers['x-forwarded-for']),
          originAllowed: wsOriginAllowed(config.corsOrigins),
          ...(limiter ? { admit: (identity: Identity) => limiter.admit(identity, 1, 'ws') } : {}),
          resolveParams: persisted.resolve,
          resume: async (identity, params, payload) => (ledger ? resumeSlot(ledger, identity, params, payload) : undefined),
        });
      },
      // Once the hub ended every subscription: their clients are told `complete` before the sockets close.
      drain: () => ws?.close(),
    },
    // Every subscription completes (its clients are told, and resume elsewhere) and every poller stops, releasing its lease.
    { name: 'subscriptions', start: () => subscriptions.start(), drain: () => subscriptions.close() },
    {
      name: 'http',
      start: () =>
        new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(config.port, config.host, () => resolve());
          listening = true;
        }),
      // First of the drain: /ready answers 503 and no connection is accepted any more.
      drain: () => {
        if (listening) drain.begin(server);
      },
    },
    // Once listening (/health answers, /ready says it is warming up); start() resolves when warm.
    { name: 'warm-up', start: () => warming.run() },
    metrics &&
      config.metricsPort !== undefined && {
        name: 'metrics-listener',
        start: async () => {
          metricsListener = await listenForMetrics(metrics.scrape, config.metricsPort!, config.metricsHost);
        },
        close: () => metricsListener?.close(),
      },
  ]);

  return {
    rest,
    get metricsUrl() {
      return metricsListener?.url;
    },
    get admission() {
      return admission.load;
    },
    prepared(text) {
      const document = documents.validated(text);
      if (!document) return false;
      // Subscriptions run on graphql-js.
      const compilable = document.definitions.filter(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && d.operation !== 'subscription',
      );
      return !compiled || compilable.every((d) => compiled.isCompiled(document, d.name?.value));
    },
    async start() {
      await subsystems.start();
      const { port } = server.address() as AddressInfo;
      return `http://${config.host}:${port}`;
    },
    async stop(timeoutMs = 0) {
      const deadline = Date.now() + timeoutMs;
      // What the drain left in flight gets the time that is left, then is cut.
      const outcome = await subsystems.stop(() => (listening ? drain.settle(server, deadline) : Promise.resolve({ cut: [] })));
      listening = false;
      ws = undefined;
      metricsListener = undefined;
      return outcome;
    },
  };
}
