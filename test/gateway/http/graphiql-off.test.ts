// A browser opening the endpoint of a gateway whose GraphiQL is off gets a page that says so and
// how to turn it on, not a CSRF refusal; API clients still meet the CSRF check; `GET /` points to
// the endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../../helpers/emulator';
import { gatewayVia } from '../../helpers/stack';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

let emu: TestEmulator;
const gateways: { stop(): Promise<unknown> }[] = [];
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(async () => {
  for (const g of gateways) await g.stop();
  await emu.stop();
});

async function gateway(env: Record<string, string>): Promise<string> {
  const { gateway, url } = await gatewayVia(emu.url, env);
  gateways.push(gateway);
  return url;
}

describe('GraphiQL off', () => {
  it('answers a browser asking for the endpoint with a page: the endpoint, the IDE off, GRAPHIQL=true, the docs', async () => {
    const url = await gateway({ GRAPHIQL: 'false' });
    const res = await fetch(`${url}/graphql`, { headers: HTML });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await res.text();
    expect(page).toContain('<code>POST /graphql</code>');
    expect(page).toMatch(/GraphiQL, the in-browser IDE, is <strong>off<\/strong>/);
    expect(page).toContain('<code>GRAPHIQL=true</code>');
    expect(page).toContain('docs/troubleshooting.md');
    expect(page).not.toContain('CSRF');
  });

  it('keeps the CSRF refusal for a GET query that does not ask for HTML', async () => {
    const url = await gateway({ GRAPHIQL: 'false' });
    const res = await fetch(`${url}/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(403);
    const reply = (await res.json()) as { errors: { extensions: { code: string } }[] };
    expect(reply.errors[0]!.extensions.code).toBe('CSRF_HEADER_REQUIRED');
    // With the header, the same GET runs.
    const sent = await fetch(`${url}/graphql?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' },
    });
    expect(await sent.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('points GET / to /graphql, as a page for a browser and a line of text otherwise, with GraphiQL on or off', async () => {
    for (const graphiql of ['false', 'true']) {
      const url = await gateway({ GRAPHIQL: graphiql });
      const page = await fetch(`${url}/`, { headers: HTML });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<a href="/graphql">/graphql</a>');
      const text = await fetch(`${url}/`);
      expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await text.text()).toBe('The GraphQL endpoint is /graphql\n');
    }
  });

  it('leaves the endpoint to GraphiQL when it is on', async () => {
    const url = await gateway({ GRAPHIQL: 'true' });
    const page = await (await fetch(`${url}/graphql`, { headers: HTML })).text();
    expect(page).toContain('graphiql');
    expect(page).not.toContain('is <strong>off</strong>');
  });
});
