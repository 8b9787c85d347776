// createGateway(config) → { start, stop }: graphql-yoga at /graphql (GraphiQL included),
// graphql-ws on the same port and path, /health, /ready and /metrics (or metrics on a listener of
// their own); the subscriptions' pollers. Made of families (families/), each built from the config
// and what the families before it made: observability, redis, upstream, persisted, limits, live;
// then the plugins in phases (plugins.ts), yoga and the HTTP server. Their resources are one list
// (lifecycle/resources.ts), started in order: stop() drains, then closes, in reverse.
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config';
import { identityOf } from '../identity';
import { log } from '../log/logger';
import { liveFamily } from './families/live';
import { limitsFamily } from './families/limits';
import { observabilityFamily } from './families/observability';
import { persistedFamily } from './families/persisted';
import { redisFamily } from './families/redis';
import { upstreamFamily } from './families/upstream';
import { clientAddress } from './http/client-address';
import { wsOriginAllowed } from './http/cors';
import { createDownloadRoute } from './http/downloads';
import { graphiqlOptions } from './http/graphiql';
import { createGraphiQLPage } from './http/graphiql-page';
import { browserPages } from './http/graphiql-off';
import { gatewayServer } from './http/server';
import { createDrain } from './lifecycle/drain';
import { resources } from './lifecycle/resources';
import { warmUp } from './lifecycle/warm-up';
import { traceOf } from './observability/requests';
import { gatewayPlugins } from './plugins';
import { gatewayYoga } from './yoga';
import type { Gateway, GatewayOptions } from './gateway';

export type { Gateway, GatewayOptions } from './gateway';

export function createGateway(config: Config, options: GatewayOptions = {}): Gateway {
  const imBaseUrl = options.imBaseUrl ?? config.imBaseUrl;
  if (!imBaseUrl) throw new Error('createGateway: no IM service (IM_BASE_URL, or options.imBaseUrl)');
  const drain = createDrain();
  const observability = observabilityFamily(config);
  const { tracing, metrics } = observability;
  const { redis, resources: redisResources } = redisFamily(config, options.redisPrefix);
  const upstream = upstreamFamily(config, imBaseUrl, observability.restObserver);
  const { rest, tokens } = upstream;
  const documents = persistedFamily(config, redis);
  const limits = limitsFamily(config, {
    redis,
    tokens,
    rest,
    pollGate: upstream.pollGate,
    metrics,
    subscriptionLeaseMs: options.subscriptionLeaseMs,
  });
  // The client's address: the peer's, or what a trusted proxy says it is (TRUSTED_PROXIES).
  const addressOf = clientAddress(config.trustedProxies);
  const requestAddress = (req: IncomingMessage) => addressOf(req.socket.remoteAddress, req.headers['x-forwarded-for']);
  const live = liveFamily(config, {
    rest,
    pollRest: upstream.pollRest,
    redis,
    tokens,
    traceRound: tracing?.traceRound,
    metrics,
    addressOf: requestAddress,
    callbackSink: options.callbackSink,
  });
  metrics?.watch({ subscriptions: live.stats, limits: limits.stats });

  // Warm start: the persisted documents compiled and the pool's connections (IM_CONNECTIONS) opened
  // before /ready answers 200: a cold home list reads 30-odd calls at once, each new connection 1-2 RTT.
  const { compiled } = documents;
  const warming = warmUp({
    documents: documents.persisted.documents,
    compile: compiled && ((schema, document) => compiled.precompile(schema, document)),
    preconnect: () => upstream.client.preconnect(config.connections),
    imBaseUrl,
    warn: (message) => log().warn(message),
    info: (message) => log().info(message),
  });
  const plugins = gatewayPlugins({
    config,
    documents: documents.documents,
    persisted: documents.persisted,
    compiled,
    limiter: limits.limiter,
    admission: limits.admission,
    ...(limits.admissionKey ? { admissionKey: limits.admissionKey } : {}),
    signInLimiter: limits.signInLimiter,
    fanOutLimiter: limits.fanOutLimiter,
    slots: limits.slots,
    metrics,
    tracing,
    notReady: () => (drain.draining ? 'the gateway is shutting down' : (warming.pending() ?? observability.readiness.problem())),
    writes: upstream.writes,
  });
  const settings = {
    imBaseUrl,
    uploadHosts: config.uploadHosts,
    maxUploadBytes: config.maxUploadBytes,
    maxRestCalls: config.maxRestCalls,
    idFormat: config.idFormat,
  };
  const yoga = gatewayYoga(config, { plugins, rest, settings, subscriptions: live.hub, service: upstream.service, tracing });

  // Who a request is: read once per HTTP request (the front) or WebSocket connection (src/identity.ts).
  const identityDefaults = { defaultAppId: config.imAppId, idFormat: config.idFormat };
  const identify = (lookup: (name: string) => string | undefined, address: string | undefined) =>
    identityOf(lookup, address, identityDefaults);
  const http = gatewayServer(config, {
    drain,
    tracing,
    routes: [
      config.graphiql ? createGraphiQLPage(graphiqlOptions(options.graphiql)) : () => false,
      // With GraphiQL off, a browser gets a page saying so; `GET /` points to /graphql (http/graphiql-off.ts).
      ...browserPages(config.graphiql),
      createDownloadRoute(rest, traceOf),
      ...(live.callback ? [live.callback.route] : []),
    ],
    paths: live.callback ? [live.callback.path] : [],
    identify: (lookup, req) => identify(lookup, requestAddress(req)),
    yoga,
  });
  const { limiter } = limits;

  // In the order they are made: each may use those before it; stopped in reverse (lifecycle/resources.ts).
  const subsystems = resources([
    observability.tracingResource,
    ...upstream.resources,
    ...redisResources,
    ...documents.resources,
    ...limits.resources,
    ...live.resources(http.server, yoga, {
      slots: limits.wsSlots,
      identify,
      addressOf: requestAddress,
      originAllowed: wsOriginAllowed(config.corsOrigins),
      ...(limiter ? { admit: (identity) => limiter.admit(identity, 1, 'ws') } : {}),
      resolveParams: documents.persisted.resolve,
    }),
    http.resource,
    // Once listening (/health answers, /ready says it is warming up); start() resolves when warm.
    { name: 'warm-up', start: () => warming.run(() => yoga.getEnveloped({})), drain: () => warming.stop() },
    observability.listenerResource,
  ]);

  return {
    rest,
    get metricsUrl() {
      return observability.metricsUrl;
    },
    get admission() {
      return limits.admission.load;
    },
    prepared: documents.prepared,
    callbacks: live.hub,
    async start() {
      await subsystems.start();
      return http.origin();
    },
    // What the drain left in flight gets the time that is left, then is cut.
    stop: (timeoutMs = 0) => subsystems.stop(() => http.settle(Date.now() + timeoutMs)),
  };
}
