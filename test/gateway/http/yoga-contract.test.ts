// What the request pipeline relies on in graphql-yoga (pinned to an exact version in package.json):
// an upgrade that changes one of these fails here, before it changes an answer.
// - yoga's Node handler takes a body already read (`req.body`) instead of reading the socket: the
//   front (src/gateway/http/front.ts) reads and checks every body before yoga sees it;
// - yoga chooses its result writer by Accept as src/gateway/http/accept.ts reads it, which refuses
//   an unwritable Accept before the operation runs;
// - yoga writes no subscription as multipart: Apollo's multipart subscriptions are written by
//   src/gateway/http/multipart-subscriptions.ts (and accept.ts lets them through).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSchema, createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canWrite } from '../../../src/gateway/http/accept';

const yoga = createYoga({
  schema: createSchema({
    typeDefs: 'type Query { echo(text: String): String } type Subscription { tick: Int }',
    resolvers: {
      Query: { echo: (_: unknown, { text }: { text?: string }) => text ?? null },
      Subscription: {
        tick: {
          async *subscribe() {
            yield { tick: 1 };
          },
        },
      },
    },
  }),
  logging: false,
});

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req: IncomingMessage & { body?: Buffer }, res) => {
    if (req.headers['x-substitute-body'] === undefined) return void yoga(req, res);
    // The socket's body is read and dropped; yoga must answer the body handed to it.
    req.resume();
    req.once('end', () => {
      req.body = Buffer.from(JSON.stringify({ query: '{ echo(text: "handed over") }' }));
      void yoga(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (query: string, headers: Record<string, string> = {}) =>
  fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });

describe('the graphql-yoga contract the pipeline relies on', () => {
  it("yoga's Node handler answers the body set on req.body, not the socket's", async () => {
    const res = await post('{ echo(text: "from the socket") }', { 'x-substitute-body': '1' });
    expect(await res.json()).toEqual({ data: { echo: 'handed over' } });
  });

  const accepts = [
    '',
    '*/*',
    'application/json',
    'application/graphql-response+json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'text/*',
    '*/mixed',
    'text/event-stream',
    'multipart/mixed',
    'image/png',
    'text/html',
    'application/*',
    'TEXT/EVENT-STREAM',
    'text/ event-stream',
    'multipart /mixed',
    'image/png, application/json',
    'application/xml;q=0.9, */*;q=0.1',
  ];

  it.each(accepts)('the pre-execution Accept check agrees with yoga on a query (Accept %j)', async (accept) => {
    const res = await post('{ echo(text: "x") }', accept ? { accept } : {});
    await res.body?.cancel();
    expect(canWrite(accept || null, 'single')).toBe(res.status !== 406);
  });

  it.each(accepts)('the pre-execution Accept check agrees with yoga on a subscription (Accept %j)', async (accept) => {
    const res = await post('subscription { tick }', accept ? { accept } : {});
    await res.body?.cancel();
    expect(canWrite(accept || null, 'stream')).toBe(res.status !== 406);
  });

  it("yoga alone refuses Apollo's multipart subscription Accept (the gateway's own writer serves it)", async () => {
    const accept = 'multipart/mixed;boundary="graphql";subscriptionSpec=1.0';
    const res = await post('subscription { tick }', { accept });
    await res.body?.cancel();
    expect(res.status).toBe(406);
    expect(canWrite(accept, 'stream')).toBe(true);
  });
});
