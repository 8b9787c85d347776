// GraphQL requests over node:http from an address the test picks (Linux routes all of 127/8 to
// the loopback), for what keys on the client's address: rate and sign-in limits, TRUSTED_PROXIES.
import { request } from 'node:http';

export interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };
}

/** A GraphQL request to `url`'s gateway (POST with a JSON body, or GET with `query`). */
export function sendFrom(
  url: string,
  init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: unknown; query?: string; localAddress?: string },
): Promise<Answer> {
  const method = init.method ?? 'POST';
  const target = new URL('/graphql', url);
  if (init.query) target.searchParams.set('query', init.query);
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method,
        headers: {
          accept: 'application/graphql-response+json',
          ...(body === undefined ? { 'x-graphql-yoga-csrf': '1' } : { 'content-type': 'application/json' }),
          ...init.headers,
        },
        ...(init.localAddress ? { localAddress: init.localAddress } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const header = res.headers['retry-after'];
          resolve({
            status: res.statusCode!,
            retryAfter: Array.isArray(header) ? header[0] : header,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer['body'],
          });
        });
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

let used = 0;
/** A loopback address no other request of this test file came from. */
export function freshLoopback(): string {
  used++;
  return `127.1.${(used >> 8) & 255}.${used & 255}`;
}

/**
 * Has the gateway at `url` prove the token in `headers` (the rate limit gives a token its own
 * bucket only then): one read with it, from an address of its own, so no bucket a test counts
 * pays for it.
 */
export async function proveToken(url: string, headers: Record<string, string>): Promise<void> {
  const answer = await sendFrom(url, { headers, body: { query: '{ me { id } }' }, localAddress: freshLoopback() });
  if (answer.status !== 200 || answer.body.errors) throw new Error(`the token was not proven: ${JSON.stringify(answer.body)}`);
}
