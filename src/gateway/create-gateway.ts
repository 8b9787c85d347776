// createGateway(config) → { start, stop }: graphql-yoga at /graphql (GraphiQL included),
// graphql-ws on the same port and path, /health and /ready.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLError } from 'graphql';
import { createYoga, maskError, useReadinessCheck } from 'graphql-yoga';
import { callerFrom, createContext, type GatewayContext, headersLookup, paramsLookup } from '../context';
import type { Config } from '../config';
import { createRestClient, type RestClient } from '../rest/client';
import { pingUpstream } from '../rest/ping';
import { upstreamCause, upstreamGraphQLError } from '../schema/errors';
import { schema } from '../schema';
import { mountWebSocket } from './websocket';

export interface GatewayOptions {
  config: Pick<
    Config,
    'port' | 'host' | 'imAppId' | 'connectTimeoutMs' | 'callTimeoutMs' | 'retries' | 'connections' | 'uploadHosts' | 'maxUploadBytes'
  >;
  /** The IM service's origin. */
  imBaseUrl: string;
  /** Headers GraphiQL starts with (the demo identity when the emulator runs). */
  graphiqlHeaders?: Record<string, string>;
}

export interface Gateway {
  /** Listens; resolves to the gateway's origin (http://host:port). */
  start(): Promise<string>;
  stop(): Promise<void>;
  /** In-process requests without a socket (tests). */
  fetch: (path: string, init?: RequestInit) => Promise<Response>;
  readonly rest: RestClient;
}

export function createGateway(options: GatewayOptions): Gateway {
  const { config, imBaseUrl } = options;
  const rest = createRestClient({
    baseUrl: imBaseUrl,
    appId: config.imAppId,
    connectTimeoutMs: config.connectTimeoutMs,
    callTimeoutMs: config.callTimeoutMs,
    retries: config.retries,
    connections: config.connections,
  });

  const settings = { imBaseUrl, uploadHosts: config.uploadHosts, maxUploadBytes: config.maxUploadBytes };
  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema,
    graphqlEndpoint: '/graphql',
    healthCheckEndpoint: '/health',
    landingPage: false,
    context: ({ request, connectionParams }: { request?: Request; connectionParams?: Record<string, unknown> }) => {
      const lookup = connectionParams ? paramsLookup(connectionParams) : headersLookup(request?.headers ?? new Headers());
      return createContext(rest, callerFrom(lookup), settings);
    },
    graphiql: {
      title: 'IM GraphQL gateway',
      subscriptionsProtocol: 'WS',
      ...(options.graphiqlHeaders ? { headers: JSON.stringify(options.graphiqlHeaders, null, 2) } : {}),
    },
    maskedErrors: {
      maskError(error, message, isDev) {
        const upstream = upstreamCause(error instanceof GraphQLError ? error.originalError ?? error : error);
        if (upstream) return upstreamGraphQLError(upstream, error instanceof GraphQLError ? error : undefined);
        return maskError(error, message, isDev);
      },
    },
    plugins: [
      useReadinessCheck({
        endpoint: '/ready',
        check: async () => {
          await pingUpstream(imBaseUrl, Math.min(config.connectTimeoutMs, 3_000));
          return true;
        },
      }),
    ],
  });

  let server: Server | undefined;
  let ws: ReturnType<typeof mountWebSocket> | undefined;

  return {
    rest,
    fetch: async (path, init = {}) => yoga.fetch(new URL(path, 'http://gateway.local'), init),
    async start() {
      server = createServer(yoga);
      ws = mountWebSocket(server, yoga);
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(config.port, config.host, () => resolve());
      });
      const { port } = server.address() as AddressInfo;
      return `http://${config.host}:${port}`;
    },
    async stop() {
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
