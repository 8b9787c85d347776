// The gateway's HTTP server winding down without dropping a request. Once the drain begins:
// - no new connection is accepted (a load balancer retries a refused connect elsewhere, safely);
// - connections already open stay open, so a keep-alive client's next request is still answered,
//   with `Connection: close`, as is every answer not yet started: each connection then ends after
//   its answer, and clients reconnect to another replica;
// - the requests in flight run to completion; when none is left, idle connections are closed
//   (after the keep-alive timeout, unless their clients closed them first);
// - at the deadline, what remains is cut and named, for the log.
// (Subscriptions are the caller's to end first: they would otherwise keep their requests open.)
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { InFlight, TrackedResponse } from './tracked-response';

/** How long the cut connections may take to close (they are destroyed: a moment). */
const CUT_WAIT_MS = 1_000;

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export interface DrainOutcome {
  /** The requests unanswered at the deadline, which were cut: `POST /graphql` (method and path). */
  cut: string[];
}

export interface Drain {
  /**
   * Wraps the server's request listener: counts the requests in flight; once draining, each answer
   * closes its connection. The server must make its responses as TrackedResponse.
   */
  track(listener: Listener): Listener;
  readonly draining: boolean;
  /** Stops accepting connections; those open stay so, for one more answer each. */
  begin(server: Server): void;
  /** Waits for the requests in flight until `deadline` (ms since the epoch), cuts what remains, and resolves once every connection is closed. */
  settle(server: Server, deadline: number): Promise<DrainOutcome>;
}

/** Resolves true when `promise` settles within `ms`, false otherwise. */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([promise.then(() => true), late]).finally(() => clearTimeout(timer));
}

const closeAfterAnswer = (res: ServerResponse) => {
  if (!res.headersSent) res.setHeader('connection', 'close');
};

export function createDrain(): Drain {
  let wakeWhenIdle: (() => void) | undefined;
  const inFlight = new InFlight(() => wakeWhenIdle?.());
  let draining = false;
  let closed: Promise<void> | undefined;

  return {
    track: (listener) => (req, res) => {
      if (!(res instanceof TrackedResponse))
        throw new TypeError('drain.track needs a server made with { ServerResponse: TrackedResponse }');
      inFlight.add(res);
      if (draining) closeAfterAnswer(res);
      listener(req, res);
    },
    get draining() {
      return draining;
    },
    begin(server) {
      if (draining) return;
      draining = true;
      for (const res of inFlight.all()) closeAfterAnswer(res);
      // http.Server#close would also drop the idle keep-alive connections at once, racing their
      // clients' next requests; net.Server#close only stops listening. 'close' comes once every
      // connection has ended.
      closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    },
    async settle(server, deadline) {
      if (!closed) this.begin(server);
      const left = () => Math.max(0, deadline - Date.now());
      const idle = new Promise<void>((resolve) => (wakeWhenIdle = resolve));
      // Idle keep-alive connections are left to their clients for the server's keep-alive timeout
      // first: a client (nginx) tuned to close before it never sends on a connection being closed.
      // Closing them at once raced such a request, which then met a reset (npm run test:deploy).
      if (inFlight.size === 0 || (await within(idle, left()))) {
        if (!(await within(closed!, Math.min(server.keepAliveTimeout, left())))) server.closeIdleConnections();
      }
      if (await within(closed!, left())) return { cut: [] };
      const cut = inFlight.all().map(({ req }) => `${req.method} ${(req.url ?? '/').split('?')[0]}`);
      server.closeAllConnections();
      // Upgraded sockets are the WebSocket server's to close, which the caller has asked for already.
      await within(closed!, CUT_WAIT_MS);
      return { cut };
    },
  };
}
