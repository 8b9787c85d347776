// Probe 1 of the hardening issue: GraphiQL's page (~9 MB, assets inlined) was built anew for
// every GET with Accept: text/html, so clients that never read the answer exhausted the heap.
// Now it is rendered once, shared, revalidated with an ETag and off unless asked for.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { startStack, type Stack } from '../helpers/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

const page = (headers: Record<string, string> = {}) => fetch(`${stack.url}/graphql`, { headers: { accept: 'text/html', ...headers } });

describe('GraphiQL page', () => {
  it('answers with an ETag and asks the browser to revalidate', async () => {
    const res = await page();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(await res.text()).toContain('IM GraphQL gateway');
  });

  it('answers 304 without a body when If-None-Match names the ETag', async () => {
    const etag = (await page()).headers.get('etag')!;
    const res = await page({ 'if-none-match': etag });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe('');
  });

  it('sends the same page gzipped to clients that accept it, at under a third of its size', async () => {
    const plain = Number((await page({ 'accept-encoding': 'identity' })).headers.get('content-length'));
    const res = await page({ 'accept-encoding': 'gzip' });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(Number(res.headers.get('content-length'))).toBeLessThan(plain / 3);
    // fetch decompresses: the same document arrives.
    expect(await res.text()).toContain('IM GraphQL gateway');
  });

  it('keeps memory bounded when 100 clients ask for the page and never read it', async () => {
    await (await page()).arrayBuffer(); // rendered once, before the baseline
    const used = () => {
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const before = used();
    const sockets: Socket[] = [];
    try {
      const { port } = new URL(stack.url);
      // Each client reads the first chunk (so the answer has surely begun), then stops reading.
      const started = Array.from({ length: 100 }, () => {
        const socket = connect(Number(port), '127.0.0.1');
        sockets.push(socket);
        socket.write(`GET /graphql HTTP/1.1\r\nhost: x\r\naccept: text/html\r\n\r\n`);
        return new Promise<void>((resolve, reject) => {
          socket.once('error', reject);
          socket.once('data', () => {
            socket.pause();
            resolve();
          });
        });
      });
      await Promise.all(started);
      const grown = used() - before;
      console.log(`GraphiQL: 100 clients not reading the page grew heap + array buffers by ${(grown / 1024 / 1024).toFixed(1)} MB`);
      // A copy per request would be 100 × 9 MB; the shared page costs a few kilobytes each.
      expect(grown).toBeLessThan(100 * 1024 * 1024);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});

describe('GraphiQL switch', () => {
  it('is on with the in-process emulator, off against a real service and in production unless GRAPHIQL=true', () => {
    expect(loadConfig({}).graphiql).toBe(true);
    expect(loadConfig({ IM_BASE_URL: 'http://im.example' }).graphiql).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).graphiql).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', IM_BASE_URL: 'http://im.example', GRAPHIQL: 'true' }).graphiql).toBe(true);
    expect(loadConfig({ GRAPHIQL: 'false' }).graphiql).toBe(false);
  });

  it('serves no GraphiQL when off: a short page saying the IDE is off, nothing of the IDE', async () => {
    const off = await startStack({ GRAPHIQL: 'false' });
    try {
      const res = await fetch(`${off.url}/graphql`, { headers: { accept: 'text/html' } });
      const body = await res.text();
      expect(body.length).toBeLessThan(2_000);
      expect(body).toContain('is <strong>off</strong>');
      expect(body).not.toContain('renderYogaGraphiQL');
    } finally {
      await off.stop();
    }
  });
});
