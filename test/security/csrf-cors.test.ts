// Probe 12 of the hardening issue: CORS reflected any Origin with credentials, and a form-encoded
// POST (which any web page can send cross-site without asking) ran mutations. Now simple requests
// need a custom header, and only the origins in CORS_ORIGINS may read answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import WebSocket from 'ws';
import { startStack, type Stack } from '../helpers/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

const MUTATION = 'mutation { registerUser(input: { username: "forged", password: "secret123" }) { id } }';

async function post(body: string, headers: Record<string, string>, url = stack.url) {
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { app_id: stack.emu.appId, ...headers }, body });
  return {
    status: res.status,
    headers: res.headers,
    json: (await res.json()) as { errors?: { message: string; extensions?: Record<string, unknown> }[] },
  };
}

describe('CSRF prevention', () => {
  it('refuses a form-encoded mutation with 403 and a code, before any REST call', async () => {
    stack.emu.server.resetCalls();
    const reply = await post(new URLSearchParams({ query: MUTATION }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(reply.status).toBe(403);
    expect(reply.json.errors?.[0]?.extensions?.code).toBe('CSRF_HEADER_REQUIRED');
    expect(reply.json.errors?.[0]?.message).toContain('x-graphql-yoga-csrf');
    expect(stack.emu.server.calls).toHaveLength(0);
  });

  it('refuses a text/plain post of a JSON body (what a cross-site fetch without preflight sends)', async () => {
    stack.emu.server.resetCalls();
    const reply = await post(JSON.stringify({ query: MUTATION }), { 'content-type': 'text/plain' });
    expect(reply.status).toBe(403);
    expect(stack.emu.server.calls).toHaveLength(0);
  });

  it('refuses multipart without a custom header, accepts it with x-graphql-yoga-csrf or apollo-require-preflight', async () => {
    const form = () => {
      const f = new FormData();
      f.append('operations', JSON.stringify({ query: '{ __typename }' }));
      f.append('map', '{}');
      return f;
    };
    const send = (headers: Record<string, string>) => fetch(`${stack.url}/graphql`, { method: 'POST', headers, body: form() });
    expect((await send({})).status).toBe(403);
    for (const header of ['x-graphql-yoga-csrf', 'apollo-require-preflight']) {
      const res = await send({ [header]: '1' });
      expect(await res.json()).toEqual({ data: { __typename: 'Query' } });
    }
  });

  it('refuses a GET query without a custom header and answers it with one', async () => {
    const url = `${stack.url}/graphql?query=${encodeURIComponent('{ __typename }')}`;
    expect((await fetch(url)).status).toBe(403);
    expect(await (await fetch(url, { headers: { 'x-graphql-yoga-csrf': '1' } })).json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('still answers JSON posts (curl, GraphiQL) with no extra header', async () => {
    const reply = await post(JSON.stringify({ query: '{ __typename }' }), { 'content-type': 'application/json' });
    expect(reply.json).toEqual({ data: { __typename: 'Query' } });
  });

  it('still opens an SSE subscription over GET, as EventSource sends it (no custom header)', async () => {
    const user = await stack.emu.user();
    const search = new URLSearchParams({ query: 'subscription { unreadCounts { conversationId unreadCount } }' });
    const abort = new AbortController();
    const res = await fetch(`${stack.url}/graphql?${search}`, {
      headers: { accept: 'text/event-stream', app_id: stack.emu.appId, 'access-token': user.token },
      signal: abort.signal,
    });
    try {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/event-stream');
    } finally {
      abort.abort();
    }
  });

  it('never runs a mutation over GET, even with a custom header', async () => {
    stack.emu.server.resetCalls();
    const res = await fetch(`${stack.url}/graphql?query=${encodeURIComponent(MUTATION)}`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    await res.arrayBuffer();
    // (The SSE subscription above may still poll its counts: look for a write.)
    expect(stack.emu.server.calls.filter((c) => !c.endpoint.startsWith('GET '))).toEqual([]);
  });
});

describe('CORS', () => {
  const preflight = (url: string, origin: string) =>
    fetch(`${url}/graphql`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, access-token' },
    });
  const cors = (res: Response) => [res.headers.get('access-control-allow-origin'), res.headers.get('access-control-allow-credentials')];

  it('by default lets no other origin read, with or without credentials', async () => {
    expect(cors(await preflight(stack.url, 'https://evil.example'))).toEqual([null, null]);
    const reply = await post(JSON.stringify({ query: '{ __typename }' }), {
      'content-type': 'application/json',
      origin: 'https://evil.example',
    });
    expect(cors(new Response(null, { headers: reply.headers }))).toEqual([null, null]);
  });

  it('answers listed origins with credentials and nobody else', async () => {
    const listed = await startStack({ CORS_ORIGINS: 'https://app.example, http://localhost:5173' });
    try {
      expect(cors(await preflight(listed.url, 'http://localhost:5173'))).toEqual(['http://localhost:5173', 'true']);
      expect(cors(await preflight(listed.url, 'https://app.example'))).toEqual(['https://app.example', 'true']);
      expect(cors(await preflight(listed.url, 'https://evil.example'))).toEqual([null, null]);
    } finally {
      await listed.stop();
    }
  });

  it('lets any origin read without credentials when CORS_ORIGINS holds *', async () => {
    const open = await startStack({ CORS_ORIGINS: '*' });
    try {
      expect(cors(await preflight(open.url, 'https://any.example'))).toEqual(['https://any.example', null]);
    } finally {
      await open.stop();
    }
  });

  it('stops the start on a CORS_ORIGINS entry that is not an origin', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'https://app.example/path' })).toThrow(ConfigError);
    expect(() => loadConfig({ CORS_ORIGINS: 'app.example' })).toThrow(/CORS_ORIGINS/);
  });
});

describe('WebSocket origins', () => {
  /** The upgrade's answer: 101 when the socket opened, else the HTTP status it was refused with. */
  const upgrade = (url: string, origin?: string) =>
    new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', origin ? { origin } : {});
      socket.once('open', () => {
        socket.close();
        resolve(101);
      });
      socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.once('error', reject);
    });

  it('opens sockets for clients without an Origin and for pages of its own host, and refuses other pages with 403', async () => {
    expect(await upgrade(stack.url)).toBe(101);
    expect(await upgrade(stack.url, stack.url)).toBe(101);
    expect(await upgrade(stack.url, 'https://evil.example')).toBe(403);
  });

  it('opens sockets for the pages CORS_ORIGINS lists, and for any page with *', async () => {
    const listed = await startStack({ CORS_ORIGINS: 'https://app.example' });
    const open = await startStack({ CORS_ORIGINS: '*' });
    try {
      expect(await upgrade(listed.url, 'https://app.example')).toBe(101);
      expect(await upgrade(listed.url, 'https://evil.example')).toBe(403);
      expect(await upgrade(open.url, 'https://any.example')).toBe(101);
    } finally {
      await Promise.all([listed.stop(), open.stop()]);
    }
  });
});
