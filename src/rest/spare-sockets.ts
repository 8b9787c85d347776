// Connections to the service opened ahead of the first calls (warm start, issue 34): the first
// request after start must not pay the TCP (and TLS) set-up of every connection it needs. undici
// has no "connect now" for a Pool; its `connect` option, the connector, is the supported place to
// hand it sockets, so the Pool's connector gives out these spares before it opens new ones. A
// spare the server closes while it waits is dropped; no request is sent to open one.
import type { Socket } from 'node:net';
import { buildConnector } from 'undici';

export interface SpareSockets {
  /** The Pool's connector: a spare socket while there is one, else a new connection. */
  readonly connector: buildConnector.connector;
  /**
   * Opens connections until `count` are spare; resolves with how many are and, when one could not
   * be opened, why (never rejects: warm start reports it, and the first call does too).
   */
  open(count: number): Promise<Preconnected>;
  /** Spare sockets now. */
  size(): number;
  /** Closes the spare sockets. */
  close(): void;
}

/** What opening spare connections came to. */
export interface Preconnected {
  /** Spare connections now. */
  open: number;
  /** Why the last connection that failed could not be opened. */
  error?: Error;
}

const noop = () => {};

export function spareSockets(origin: URL, options: buildConnector.BuildOptions): SpareSockets {
  const connect = buildConnector(options);
  /** Each spare with what drops it when it closes. */
  const spares = new Map<Socket, () => void>();
  let closed = false;
  let failure: Error | undefined;

  const take = (socket: Socket) => {
    socket.removeListener('close', spares.get(socket)!);
    socket.removeListener('error', noop);
    spares.delete(socket);
  };

  const connector: buildConnector.connector = (params, callback) => {
    for (const socket of spares.keys()) {
      take(socket);
      // Never synchronously: undici's Client resumes its queue from the callback, which it ignores
      // while still inside the resume that asked for the connection (the request would then wait).
      if (!socket.destroyed && socket.readyState === 'open') return void process.nextTick(callback, null, socket);
    }
    connect(params, callback);
  };

  // What undici's Client passes for its origin (client.js, connect).
  const params: buildConnector.Options = { host: origin.host, hostname: origin.hostname, protocol: origin.protocol, port: origin.port };
  const openOne = () =>
    new Promise<void>((resolve) => {
      connect(params, (err, socket) => {
        if (err || !socket) {
          failure = err ?? new Error('no socket');
          return resolve();
        }
        if (closed) {
          socket.destroy();
          return resolve();
        }
        const drop = () => spares.delete(socket);
        // An idle spare's error is followed by its close, which drops it.
        socket.on('error', noop).once('close', drop);
        spares.set(socket, drop);
        resolve();
      });
    });

  return {
    connector,
    async open(count) {
      failure = undefined;
      await Promise.all(Array.from({ length: Math.max(0, count - spares.size) }, openOne));
      return { open: spares.size, ...(failure ? { error: failure } : {}) };
    },
    size: () => spares.size,
    close() {
      closed = true;
      for (const socket of [...spares.keys()]) {
        take(socket);
        socket.destroy();
      }
    },
  };
}
