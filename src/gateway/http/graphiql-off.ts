// What a browser finds when GraphiQL is off (production, or IM_BASE_URL set): a short page that
// says where the endpoint is, that the IDE is off and how to turn it on, instead of the CSRF
// refusal yoga would give a navigation (a GET without the custom header), which reads as an
// attack. Only a request that asks for HTML gets it: API clients (JSON, SSE, GET queries) still
// meet the CSRF check. And `GET /` points to the endpoint, whether GraphiQL is on or off.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { wantsPage } from './graphiql-page';

type Route = (req: IncomingMessage, res: ServerResponse) => boolean;

const DOCS = 'README.md, docs/api.md and docs/troubleshooting.md in the gateway’s repository';

const page = (title: string, body: string) =>
  Buffer.from(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
      '<meta name="viewport" content="width=device-width"></head>' +
      `<body style="font-family: sans-serif; max-width: 40em; margin: 2em auto; line-height: 1.5"><h1>${title}</h1>${body}</body></html>`,
  );

const offPage = (endpoint: string) =>
  page(
    'IM GraphQL gateway',
    `<p>This is the GraphQL endpoint: <code>POST ${endpoint}</code> with <code>content-type: application/json</code> ` +
      `(WebSocket and server-sent events on the same path).</p>` +
      `<p>GraphiQL, the in-browser IDE, is <strong>off</strong> on this gateway. To turn it on, start the gateway with ` +
      `<code>GRAPHIQL=true</code> (it is off by default with <code>IM_BASE_URL</code> set or <code>NODE_ENV=production</code>).</p>` +
      `<p>Documentation: ${DOCS}.</p>`,
  );

const rootPage = (endpoint: string, graphiql: boolean) =>
  page(
    'IM GraphQL gateway',
    `<p>The GraphQL endpoint is <a href="${endpoint}">${endpoint}</a>` +
      `${graphiql ? ' (open it in a browser for GraphiQL)' : ''}.</p><p>Documentation: ${DOCS}.</p>`,
  );

/** Answers `body` (HTML, or its plain-text line for a client that did not ask for HTML). */
function send(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  res.writeHead(200, {
    'content-type': body[0] === 0x3c ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8',
    'content-length': body.length,
    'cache-control': 'no-cache',
    vary: 'accept',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The routes of pages for browsers: the IDE-off page (when GraphiQL is off) and `GET /`. */
export function browserPages(graphiql: boolean, endpoint = '/graphql'): Route[] {
  const off = offPage(endpoint);
  const root = rootPage(endpoint, graphiql);
  const rootText = Buffer.from(`The GraphQL endpoint is ${endpoint}\n`);
  const rootRoute: Route = (req, res) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || (req.url ?? '/').split('?', 1)[0] !== '/') return false;
    send(req, res, req.headers.accept?.includes('text/html') ? root : rootText);
    return true;
  };
  const offRoute: Route = (req, res) => {
    if (!wantsPage(req, endpoint)) return false;
    send(req, res, off);
    return true;
  };
  return graphiql ? [rootRoute] : [offRoute, rootRoute];
}
