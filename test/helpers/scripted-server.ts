// A real HTTP server on 127.0.0.1 (free port) that answers with a script and records every request
// raw, and counts the connections open at once, for tests of the REST client over real sockets.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

interface RecordedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** The body exactly as received (UTF-8). */
  rawBody: string;
}

/** Answers one request. May write to `res` itself (and return nothing), or return an Answer. */
export type Script = (req: RecordedRequest, res: ServerResponse, index: number) => Answer | void | Promise<Answer | void>;

interface Answer {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON.stringify (no int64 here: give raw text instead). */
  body?: unknown;
}

export interface ScriptedServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Connections open right now, and the most open at once so far. */
  openConnections(): number;
  peakConnections(): number;
  totalConnections(): number;
  setScript(script: Script): void;
  close(): Promise<void>;
}

export const envelope = (data: unknown, extra: Record<string, unknown> = {}): Answer => ({
  body: { code: 200, data, message: null, ...extra },
});

export const failure = (code: number, message: string, status = 200): Answer => ({
  status,
  body: { code, data: null, message },
});

export async function startScriptedServer(script: Script): Promise<ScriptedServer> {
  let current = script;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let peak = 0;
  let total = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      void Promise.resolve(current(recorded, res, requests.length - 1)).then((reply) => {
        if (!reply || res.headersSent || res.destroyed) return;
        const text = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body);
        const type = typeof reply.body === 'string' ? 'text/plain' : 'application/json';
        res.writeHead(reply.status ?? 200, { 'content-type': type, ...reply.headers });
        res.end(text);
      });
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    total += 1;
    peak = Math.max(peak, sockets.size);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    openConnections: () => sockets.size,
    peakConnections: () => peak,
    totalConnections: () => total,
    setScript: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
