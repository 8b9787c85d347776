// HTTP servers of a test's own on 127.0.0.1, and a proxy in front of the IM service, so that a
// gateway reaches the service through it (and the service's upload targets are on another host).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  url: string;
  server: Server;
}

/** An HTTP server on a free port of 127.0.0.1. */
export async function listen(handler: Parameters<typeof createServer>[1]): Promise<Listening> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Sends one received request on to `target` as it came (its method, path, headers and body); answers the target's response. */
export async function sendOn(target: string, req: IncomingMessage): Promise<Response> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = Object.fromEntries(
    Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection' && k !== 'content-length') as [string, string][],
  );
  return fetch(`${target}${req.url}`, { method: req.method, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
}

/** Forwards one request to `target`; with `rewriteTo`, upload targets point at that origin instead. */
export async function forward(target: string, req: IncomingMessage, res: ServerResponse, rewriteTo?: string): Promise<void> {
  const upstream = await sendOn(target, req);
  let text = await upstream.text();
  if (rewriteTo && req.url?.startsWith('/file/upload/')) text = text.split(target).join(rewriteTo);
  res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
  res.end(text);
}

/** Forwards every request to `target`; with `rewriteTo`, upload targets point at that origin instead. */
export function startProxy(target: string, rewriteTo?: string): Promise<Listening> {
  return listen((req, res) => forward(target, req, res, rewriteTo));
}

export const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
