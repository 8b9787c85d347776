// Probe 2 of the hardening issue: the download route relayed the uploader's content type, so an
// uploaded HTML file opened from its link ran script on the gateway's origin (where GraphiQL keeps
// the token in localStorage). Now only safe images show inline; every answer is nosniff and
// sandboxed. Checked over HTTP and in Debian's Chromium.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { startStack, type Stack } from '../helpers/stack';
import { storedFile } from '../helpers/stored-file';
import { EVENT_DEADLINE_MS } from '../helpers/wait';

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  stack = await startStack();
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** The route's URL for a chat file, with the identity in the query string as an image tag sends it. */
async function linkTo(bytes: string, type: string): Promise<string> {
  const u = await stack.emu.user();
  const key = await storedFile(stack.emu, u, 'chat', Buffer.from(bytes), type);
  const search = new URLSearchParams({ fileSign: key, app_id: stack.emu.appId, 'access-token': u.token });
  return `${stack.url}/files/chat?${search}`;
}

const HTML = `<!doctype html><script>localStorage.setItem('ran', 'html'); document.title = 'ran';</script>`;
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" onload="localStorage.setItem('ran', 'svg')"><script>localStorage.setItem('ran', 'svg')</script></svg>`;

describe('download headers', () => {
  it.each([
    ['text/html', HTML],
    ['image/svg+xml', SVG],
    ['application/octet-stream', 'bytes'],
  ])('sends %s as an attachment, nosniff and sandboxed', async (type, body) => {
    const res = await fetch(await linkTo(body, type));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment\b/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe('sandbox');
    expect(await res.text()).toBe(body);
  });

  it.each(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])(
    'shows %s inline (no attachment), still nosniff and sandboxed',
    async (type) => {
      const res = await fetch(await linkTo('not really an image', type));
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('content-disposition') ?? 'inline').not.toMatch(/attachment/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe('sandbox');
      await res.arrayBuffer();
    },
  );

  it('marks error answers nosniff too', async () => {
    const res = await fetch(`${stack.url}/files/chat`);
    expect(res.status).toBe(400);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    await res.arrayBuffer();
  });
});

describe('an uploaded file opened in Chromium', () => {
  it.each([
    ['text/html', HTML],
    ['image/svg+xml', SVG],
    // Labelled as an image but holding HTML: nosniff keeps the browser from running it as a page.
    ['image/png', HTML],
  ])('as %s runs no script on the gateway origin', async (type, body) => {
    const link = await linkTo(body, type);
    const context = await browser.newContext({ acceptDownloads: true });
    try {
      const page = await context.newPage();
      // A page of the gateway's origin, where GraphiQL would keep its token.
      await page.goto(`${stack.url}/health`);
      await page.evaluate(() => localStorage.setItem('token', 'secret'));
      if (type === 'image/png') {
        // Shown inline, as an image the browser cannot decode; never as a page.
        expect((await page.goto(link))?.headers()['content-type']).toBe('image/png');
      } else {
        const download = page.waitForEvent('download', { timeout: EVENT_DEADLINE_MS });
        await page.goto(link).catch(() => undefined); // a download aborts the navigation
        // It arrived as a file, byte for byte.
        expect(readFileSync((await (await download).path())!, 'utf8')).toBe(body);
      }
      const check = await context.newPage();
      await check.goto(`${stack.url}/health`);
      expect(await check.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('ran')])).toEqual(['secret', null]);
    } finally {
      await context.close();
    }
  });
});
