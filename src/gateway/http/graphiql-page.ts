// GraphiQL's page, served by the Node handler ahead of yoga. Its assets are inlined (~9 MB), so
// it is rendered and gzipped once (on the first request) and every answer writes the same
// buffers: a client that never reads holds a reference, not a copy. An ETag lets a browser
// revalidate with a 304 instead of downloading it again.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { GraphiQLOptions } from 'graphql-yoga';

interface Page {
  identity: Buffer;
  gzipped: Buffer;
  etag: string;
}

/** Yoga's own test: a browser navigating asks for HTML. */
export function wantsPage(req: IncomingMessage, endpoint: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (!req.headers.accept?.includes('text/html')) return false;
  const path = (req.url ?? '/').split('?', 1)[0];
  return path === endpoint || path === `${endpoint}/`;
}

async function render(options: GraphiQLOptions): Promise<Page> {
  const identity = Buffer.from(renderGraphiQL(options));
  // The thread pool compresses; the event loop stays free (about 0.25 s of CPU, once).
  const gzipped = await promisify(gzip)(identity);
  return { identity, gzipped, etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"` };
}

/** True when `If-None-Match` names this ETag (a list, or `*`). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/**
 * A Node request handler: answers true when the request asked for GraphiQL (and is being
 * answered), false to let the next handler have it.
 */
export function createGraphiQLPage(
  options: GraphiQLOptions,
  endpoint = '/graphql',
): (req: IncomingMessage, res: ServerResponse) => boolean {
  let page: Promise<Page> | undefined;
  return (req, res) => {
    if (!wantsPage(req, endpoint)) return false;
    page ??= render(options);
    void page.then(
      (p) => send(p, req, res),
      () => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('GraphiQL could not be rendered');
      },
    );
    return true;
  };
}

function send(page: Page, req: IncomingMessage, res: ServerResponse): void {
  // `private`: with the emulator, the page carries the demo user's token in its headers.
  const common = { etag: page.etag, 'cache-control': 'private, no-cache', vary: 'accept, accept-encoding' };
  if (matches(req.headers['if-none-match'], page.etag)) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  const gzipped = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
  const body = gzipped ? page.gzipped : page.identity;
  res.writeHead(200, {
    ...common,
    'content-type': 'text/html; charset=utf-8',
    'content-length': body.length,
    ...(gzipped ? { 'content-encoding': 'gzip' } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
