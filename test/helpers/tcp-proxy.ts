// A TCP proxy in front of a server, for tests that drop connections as a network does: `drop`
// destroys every connection through it (clients see the socket die, code 1006 for a WebSocket),
// and the proxy keeps accepting new ones.
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** The proxy's origin, with the target's scheme. */
  url: string;
  /** Destroys every connection open through the proxy; answers how many there were. */
  drop(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port, protocol } = new URL(target);
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      open.add(a);
      a.pipe(b);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        open.delete(a);
        b.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `${protocol}//127.0.0.1:${(server.address() as AddressInfo).port}`,
    drop() {
      const sockets = [...open];
      for (const s of sockets) s.destroy();
      return sockets.length / 2;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
