// bench:latency's stand-in for the distance to the IM service: an HTTP proxy on 127.0.0.1 that
// holds every request RTT/2 before forwarding it and every answer RTT/2 before sending it back,
// and holds the first request of a new connection until `connectMs` after the connection opened
// (TCP and TLS set-up; a connection opened ahead of its first request has paid it by then). It
// sees each REST call whole, so it also logs when each one arrived and was answered: the depth of
// a screen (its longest chain of calls one after another) is read off that log.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';

/** One REST call as the gateway saw it from across the distance (performance.now() ms). */
export interface ProxiedCall {
  method: string;
  path: string;
  /** When the request reached the proxy (the gateway sent it). */
  start: number;
  /** When its answer left the proxy after the delay (the gateway has it). */
  end: number;
  /** It was the first request of a new connection (it paid the set-up). */
  newConnection: boolean;
}

export interface LatencyProxy {
  readonly url: string;
  /** Round-trip time added to every call, ms. */
  rtt: number;
  /** Extra time the first request of a new connection waits, ms. */
  connectMs: number;
  /** Calls answered so far, oldest first (clear it with `calls.length = 0`). */
  readonly calls: ProxiedCall[];
  /** Connections the gateway opened so far. */
  connections(): number;
  close(): Promise<void>;
}

// Hop-by-hop headers stay on their own hop; the body is sent whole with its own length.
const HOP = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

const headersOf = (from: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(Object.entries(from).filter(([name, value]) => !HOP.has(name) && value !== undefined)) as Record<
    string,
    string | string[]
  >;

async function bodyOf(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? Buffer.concat(chunks) : undefined;
}

export async function startLatencyProxy(target: string, settings: { rtt: number; connectMs: number }): Promise<LatencyProxy> {
  const upstream = new Pool(target, { connections: 256 });
  /** When each connection not yet used was opened: its set-up ends `connectMs` after that. */
  const fresh = new WeakMap<Socket, number>();
  let opened = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const start = performance.now();
    const openedAt = fresh.get(req.socket);
    const newConnection = fresh.delete(req.socket);
    const body = await bodyOf(req);
    const half = proxy.rtt / 2;
    // A connection opened ahead (warm start) has finished its set-up by the time it is used.
    const setUp = openedAt === undefined ? 0 : Math.max(0, openedAt + proxy.connectMs - start);
    await sleep(half + setUp);
    const answer = await upstream.request({
      method: req.method as 'GET',
      path: req.url ?? '/',
      headers: headersOf(req.headers),
      body: body ?? null,
    });
    const bytes = Buffer.from(await answer.body.arrayBuffer());
    await sleep(half);
    res.writeHead(answer.statusCode, { ...headersOf(answer.headers), 'content-length': bytes.length });
    res.end(bytes);
    proxy.calls.push({ method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0]!, start, end: performance.now(), newConnection });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`latency proxy: ${String(err)}`);
    });
  });
  // As the emulator's server: idle connections are kept 30 s (the gateway's pool reads the hint).
  server.keepAliveTimeout = 30_000;
  server.on('connection', (socket: Socket) => {
    opened++;
    fresh.set(socket, performance.now());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: LatencyProxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    rtt: settings.rtt,
    connectMs: settings.connectMs,
    calls: [],
    connections: () => opened,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await upstream.close();
    },
  };
  return proxy;
}

/**
 * The depth of a set of calls: the longest chain in which each call started after the one before
 * it was answered (calls made in parallel overlap, so they never chain).
 */
export function depthOf(calls: readonly ProxiedCall[]): number {
  const sorted = [...calls].sort((a, b) => a.end - b.end);
  const chain: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let longest = 0;
    for (let j = 0; j < i; j++) if (sorted[j]!.end <= sorted[i]!.start) longest = Math.max(longest, chain[j]!);
    chain.push(longest + 1);
  }
  return Math.max(0, ...chain);
}
