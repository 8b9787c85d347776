// Test helpers of the file tests: GraphQL multipart requests written by hand (the file parts are
// streamed from any byte source), whole-body reads with a hash, and a gateway that reaches the IM
// service through a proxy (so that the service's upload targets are on another host).
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway';
import { type GqlReply, suiteEnv } from './stack';

export interface FileToSend {
  /** Where the file goes in `variables` (e.g. 'variables.file'). */
  path: string;
  name: string;
  type: string;
  data: Buffer | AsyncIterable<Buffer>;
}

/** The multipart body: operations, map, then each file part, in that order (as the spec requires). */
async function* multipart(
  boundary: string,
  query: string,
  variables: Record<string, unknown>,
  files: FileToSend[],
): AsyncGenerator<Buffer> {
  const map = Object.fromEntries(files.map((f, i) => [String(i), [f.path]]));
  const field = (name: string, value: string) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  yield field('operations', JSON.stringify({ query, variables }));
  yield field('map', JSON.stringify(map));
  for (const [i, file] of files.entries()) {
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${i}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    );
    if (Buffer.isBuffer(file.data)) yield file.data;
    else yield* file.data;
    yield Buffer.from('\r\n');
  }
  yield Buffer.from(`--${boundary}--\r\n`);
}

/** Sends a GraphQL multipart request to the gateway over HTTP; the file variables are set to null. */
export async function gqlUpload<T = Record<string, unknown>>(
  gatewayUrl: string,
  query: string,
  variables: Record<string, unknown>,
  files: FileToSend[],
  headers: Record<string, string>,
): Promise<GqlReply<T> & { status: number }> {
  const boundary = `test-${randomBytes(8).toString('hex')}`;
  const res = await fetch(`${gatewayUrl}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'x-graphql-yoga-csrf': 'upload',
      accept: 'application/graphql-response+json',
      ...headers,
    },
    body: multipart(boundary, query, variables, files) as unknown as BodyInit,
    duplex: 'half',
  } as RequestInit & { duplex: 'half' });
  return { ...((await res.json()) as GqlReply<T>), status: res.status };
}

/** Reads a response body to its end, hashing it, without keeping it. */
export async function hashOf(res: Response): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    hash.update(chunk);
  }
  return { size, sha256: hash.digest('hex') };
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

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

/** Forwards every request to `target`; with `rewriteTo`, upload targets point at that origin instead. */
export function startProxy(target: string, rewriteTo?: string): Promise<Listening> {
  return listen(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection') as [string, string][],
    );
    const upstream = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    let text = await upstream.text();
    if (rewriteTo && req.url?.startsWith('/file/upload/')) text = text.split(target).join(rewriteTo);
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    res.end(text);
  });
}

export const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** A gateway of its own in front of `imBaseUrl` (the shared stack's gateway talks to the emulator directly). */
export async function gatewayVia(imBaseUrl: string, env: Record<string, string> = {}): Promise<{ gateway: Gateway; url: string }> {
  const gateway = createGateway({ config: { ...loadConfig({ PORT: '1', ...suiteEnv(), ...env }), port: 0 }, imBaseUrl });
  return { gateway, url: await gateway.start() };
}
