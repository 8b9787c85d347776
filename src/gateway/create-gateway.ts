// createGateway(config) → { start, stop }: graphql-yoga at /graphql (GraphiQL included),
// graphql-ws on the same port and path, /health, /ready and /metrics; the subscriptions' pollers.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLError } from 'graphql';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { createYoga, maskError, useReadinessCheck } from 'graphql-yoga';
import { callerFrom, createContext, type GatewayContext, headersLookup, paramsLookup } from '../context';
import type { Config } from '../config';
import { createRestClient, type RestClient } from '../rest/client';
import { coalescing } from '../rest/coalesce';
import { pingUpstream } from '../rest/ping';
import { upstreamCause, upstreamGraphQLError } from '../schema/errors';
import { ScalarInputError } from '../schema/scalars';
import { schema } from '../schema';
import { createSubscriptionHub } from '../subscriptions/hub';
import { graphiqlOptions, renderGraphiQL } from './graphiql';
import { createDownloadRoute } from './downloads';
import { createFastPath } from './fast-path';
import { useCompiledExecution } from './jit';
import { createGatewayMetrics } from './metrics';
import { useStreamingMultipart } from './multipart';
import { upstreamLog } from './upstream-log';
import { mountWebSocket } from './websocket';

export interface GatewayOptions {
  config: Pick<
    Config,
    'port' | 'host' | 'imAppId' | 'connectTimeoutMs' | 'callTimeoutMs' | 'retries' | 'connections' | 'uploadHosts' | 'maxUploadBytes' | 'maxDepth' | 'maxAliases' | 'pollIntervalMs' | 'redisUrl'
  > &
    // Optional for callers that build the config by hand: metrics and the fast path are on unless turned off.
    Partial<Pick<Config, 'metrics' | 'fastPath' | 'coalesce' | 'jit'>>;
  /** The IM service's origin. */
  imBaseUrl: string;
  /** Headers GraphiQL starts with (the demo identity when the emulator runs). */
  graphiqlHeaders?: Record<string, string>;
  /** Prefix of the Redis keys and channels when `redisUrl` is set (tests use one per run). */
  redisPrefix?: string;
}

export interface Gateway {
  /** Listens; resolves to the gateway's origin (http://host:port). */
  start(): Promise<string>;
  stop(): Promise<void>;
  /** In-process requests without a socket (tests). */
  fetch: (path: string, init?: RequestInit) => Promise<Response>;
  readonly rest: RestClient;
  /** Requests the fast path answered (0 when it is off). */
  fastPathAnswers(): number;
}

/** graphql-js wraps a scalar's refusal once or twice (type, then variable) before reporting it. */
function causedByScalarInput(error: unknown): boolean {
  for (let at = error; at instanceof Error; at = at instanceof GraphQLError ? at.originalError : undefined) {
    if (at instanceof ScalarInputError) return true;
  }
  return false;
}

export function createGateway(options: GatewayOptions): Gateway {
  const { config, imBaseUrl } = options;
  // The hub is read only at scrape time, after it exists.
  const metrics = config.metrics === false ? undefined : createGatewayMetrics({ subscriptions: () => subscriptions.stats() });
  const logTrouble = upstreamLog();
  const client = createRestClient({
    baseUrl: imBaseUrl,
    appId: config.imAppId,
    connectTimeoutMs: config.connectTimeoutMs,
    callTimeoutMs: config.callTimeoutMs,
    retries: config.retries,
    connections: config.connections,
    onCall: (info) => {
      logTrouble(info);
      metrics?.restCall(info);
    },
  });
  // Identical reads in flight for one identity share one upstream call (src/rest/coalesce.ts).
  const rest = config.coalesce === false ? client : coalescing(client);

  const subscriptions = createSubscriptionHub({
    rest,
    intervalMs: config.pollIntervalMs,
    defaultAppId: config.imAppId,
    ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
    ...(options.redisPrefix ? { redisPrefix: options.redisPrefix } : {}),
  });

  // Plain JSON queries skip yoga's fetch-API layer (the same hooks and plugins run): see fast-path.ts.
  const fastPath = config.fastPath === false ? undefined : createFastPath({ endpoint: '/graphql', fallback: (req, res) => void yoga(req, res) });
  const settings = { imBaseUrl, uploadHosts: config.uploadHosts, maxUploadBytes: config.maxUploadBytes };
  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema,
    graphqlEndpoint: '/graphql',
    healthCheckEndpoint: '/health',
    landingPage: false,
    context: ({ request, connectionParams }: { request?: Request; connectionParams?: Record<string, unknown> }) => {
      const lookup = connectionParams ? paramsLookup(connectionParams) : headersLookup(request?.headers ?? new Headers());
      return createContext(rest, callerFrom(lookup), settings, subscriptions);
    },
    graphiql: graphiqlOptions(options.graphiqlHeaders),
    renderGraphiQL,
    maskedErrors: {
      maskError(error, message, isDev) {
        // A variable refused by our scalars is the client's mistake, not an internal error.
        if (causedByScalarInput(error)) return error as GraphQLError;
        const upstream = upstreamCause(error instanceof GraphQLError ? error.originalError ?? error : error);
        if (upstream) return upstreamGraphQLError(upstream, error instanceof GraphQLError ? error : undefined);
        return maskError(error, message, isDev);
      },
    },
    plugins: [
      // File uploads reach resolvers as streams of the request body (yoga's own parser buffers them).
      useStreamingMultipart({ maxFileBytes: config.maxUploadBytes, maxFiles: 10, maxFieldBytes: 1024 * 1024 }),
      maxDepthPlugin({ n: config.maxDepth, ignoreIntrospection: true, flattenFragments: true }),
      maxAliasesPlugin({ n: config.maxAliases }),
      useReadinessCheck({
        endpoint: '/ready',
        check: async () => {
          await pingUpstream(imBaseUrl, Math.min(config.connectTimeoutMs, 3_000));
          return true;
        },
      }),
      ...(metrics ? [metrics.plugin] : []),
      ...(fastPath ? [fastPath.plugin] : []),
      ...(config.jit === false ? [] : [useCompiledExecution()]),
    ],
  });

  let server: Server | undefined;
  let ws: ReturnType<typeof mountWebSocket> | undefined;

  return {
    rest,
    fastPathAnswers: () => fastPath?.answered() ?? 0,
    fetch: async (path, init = {}) => yoga.fetch(new URL(path, 'http://gateway.local'), init),
    async start() {
      await subscriptions.start();
      const downloads = createDownloadRoute(rest);
      server = createServer((req, res) => {
        if (!downloads(req, res) && !fastPath?.handle(req, res)) void yoga(req, res);
      });
      ws = mountWebSocket(server, yoga, { verify: subscriptions.verify });
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(config.port, config.host, () => resolve());
      });
      const { port } = server.address() as AddressInfo;
      return `http://${config.host}:${port}`;
    },
    async stop() {
      // Every subscription completes (its clients are told) and every poller stops, before the sockets close.
      await subscriptions.close();
      await ws?.close();
      if (server) {
        const closing = new Promise<void>((resolve) => server!.close(() => resolve()));
        server.closeAllConnections();
        await closing;
      }
      await rest.close();
      server = undefined;
      ws = undefined;
    },
  };
}
