// A person's first run: GraphiQL on a freshly started gateway (emulator seeded), the default
// `Me` query run with the pre-filled headers, data in the result pane; a reload reopens the
// examples (not an empty tab); a gateway with GraphiQL off shows a page that says so. Debian's
// Chromium, driven by playwright-core; the screenshot goes to test-output/.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import type { Gateway } from '../../src/gateway/create-gateway';
import { freePort } from '../helpers/free-port';
import { gatewayVia } from '../helpers/stack';
import { waitForLine } from '../helpers/wait-for-line';
import { EVENT_DEADLINE_MS } from '../helpers/wait';

const CHROMIUM = '/usr/bin/chromium';
let gateway: ChildProcess;
let url: string;
let browser: Browser;
let emulatorUrl: string;
let ideOff: Gateway | undefined;

beforeAll(async () => {
  const [port, emulatorPort] = [await freePort(), await freePort()];
  gateway = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: String(port), EMULATOR_PORT: String(emulatorPort), IM_BASE_URL: '', IM_ADMIN_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await waitForLine(gateway, /GraphQL\s+http/);
  url = `http://127.0.0.1:${port}/graphql`;
  emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await ideOff?.stop();
  gateway?.kill('SIGTERM');
});

describe('GraphiQL first run', () => {
  it('finds Chromium where CI installs it', () => {
    expect(existsSync(CHROMIUM)).toBe(true);
  });

  it('runs the default Me query with the pre-filled headers and shows the demo user', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(url);
    const run = page.locator('.graphiql-execute-button');
    await run.waitFor({ timeout: EVENT_DEADLINE_MS });
    // The tab's variables are filled in from the demo data.
    await expect.poll(() => page.locator('.graphiql-editor-tool').innerText(), { timeout: EVENT_DEADLINE_MS }).toContain('"nickName"');
    // The pre-filled headers carry the demo user's token.
    await page.getByRole('button', { name: 'Headers', exact: true }).click();
    await expect.poll(() => page.locator('.graphiql-editor-tool').innerText(), { timeout: EVENT_DEADLINE_MS }).toContain('access-token');
    await run.click();
    // The default document holds several operations: GraphiQL asks which one to run.
    await page.getByRole('menuitem', { name: 'Me', exact: true }).click();
    // The editor renders spaces as no-break spaces: compare with white space folded.
    const resultText = async () => (await page.locator('.result-window').innerText()).replace(/\s+/g, ' ');
    await expect.poll(resultText, { timeout: EVENT_DEADLINE_MS }).toContain('"username": "alice"');
    const text = await resultText();
    expect(text).not.toContain('"errors"');
    mkdirSync('test-output', { recursive: true });
    await page.screenshot({ path: 'test-output/graphiql-first-run.png' });

    // A reload reopens the examples' tabs on the first one: no empty `<untitled>` tab.
    await page.reload();
    await run.waitFor({ timeout: EVENT_DEADLINE_MS });
    const tabs = page.locator('.graphiql-tab');
    await expect.poll(() => tabs.count(), { timeout: EVENT_DEADLINE_MS }).toBeGreaterThan(1);
    expect(await page.locator('.graphiql-tab').allInnerTexts()).not.toContainEqual(expect.stringContaining('untitled'));
    await expect.poll(() => page.locator('.graphiql-tab-active').innerText(), { timeout: EVENT_DEADLINE_MS }).toContain('Me');
    await run.click();
    await page.getByRole('menuitem', { name: 'Me', exact: true }).click();
    await expect.poll(resultText, { timeout: EVENT_DEADLINE_MS }).toContain('"username": "alice"');
    await page.close();
  });

  it('shows a page saying the IDE is off, and how to turn it on, when GraphiQL is off', async () => {
    const started = await gatewayVia(emulatorUrl, { GRAPHIQL: 'false' });
    ideOff = started.gateway;
    const page = await browser.newPage();
    const res = await page.goto(`${started.url}/graphql`);
    expect(res?.status()).toBe(200);
    const text = await page.locator('body').innerText();
    expect(text).toContain('GraphiQL, the in-browser IDE, is off');
    expect(text).toContain('GRAPHIQL=true');
    expect(text).not.toContain('CSRF');
    await page.close();
  });
});
