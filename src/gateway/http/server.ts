// The gateway's HTTP server: one response class (tracked while in flight, coded when yoga armed
// it), every request observed, entering through the front (its checks, GraphiQL and the download
// routes) before yoga; listening is a resource whose drain begins the drain of connections.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../../config';
import type { Identity } from '../../identity';
import { DOWNLOAD_ROUTES } from '../../files/download-paths';
import type { Drain, DrainOutcome } from '../lifecycle/drain';
import type { Resource } from '../lifecycle/resources';
import { observeRequests } from '../observability/requests';
import type { Tracing } from '../observability/tracing/tracing';
import { COMPRESSION, CompressibleResponse, compressing } from './compression';
import { incomingLookup } from './event-source';
import { createFront } from './front';

/** A route served ahead of yoga: true when it answered. */
type Route = (req: IncomingMessage, res: ServerResponse) => boolean;

interface ServerParts {
  readonly drain: Drain;
  readonly tracing: Tracing | undefined;
  /** Served before yoga, in order (GraphiQL, the downloads). */
  readonly routes: readonly Route[];
  /** Paths of routes besides the gateway's own, named in request metrics and logs. */
  readonly paths?: readonly string[];
  /** Who a request is, from its headers and address. */
  readonly identify: (lookup: (name: string) => string | undefined, req: IncomingMessage) => Identity;
  /** yoga's Node listener: it answers or logs its own failures. */
  readonly yoga: (req: IncomingMessage, res: ServerResponse) => unknown;
}

export function gatewayServer(config: Config, { drain, tracing, routes, paths = [], identify, yoga }: ServerParts) {
  const serveYoga = (req: IncomingMessage, res: ServerResponse) => void yoga(req, res);
  const server: Server = createServer(
    { ServerResponse: CompressibleResponse },
    drain.track(
      observeRequests(
        createFront({
          maxBodyBytes: config.maxBodyBytes,
          routes,
          identify: (req) => identify(incomingLookup(req), req),
          serve: config.compression ? compressing(serveYoga, COMPRESSION) : serveYoga,
        }),
        {
          tracing,
          logRequests: config.logRequests,
          routes: ['/graphql', '/health', '/ready', '/metrics', ...Object.keys(DOWNLOAD_ROUTES), ...paths],
        },
      ),
    ),
  );
  let listening = false;
  const resource: Resource = {
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
  };
  return {
    server,
    resource,
    /** The origin it listens on (after start). */
    origin: () => `http://${config.host}:${(server.address() as AddressInfo).port}`,
    /** What the drain left in flight gets until `deadline`, then is cut. */
    settle: async (deadline: number): Promise<DrainOutcome> => {
      const outcome = listening ? await drain.settle(server, deadline) : { cut: [] };
      listening = false;
      return outcome;
    },
  };
}
