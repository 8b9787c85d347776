// A person's first run: GraphiQL on a freshly started gateway (emulator seeded), the default
// `Me` query run with the pre-filled headers, data in the result pane. Debian's Chromium,
// driven by playwright-core; the screenshot goes to test-output/.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { freePort } from '../helpers/free-port';
import { waitForLine } from '../helpers/wait-for-line';
import { EVENT_DEADLINE_MS } from '../helpers/wait';

const CHROMIUM = '/usr/bin/chromium';
let gateway: ChildProcess;
let url: string;
let browser: Browser;

beforeAll(async () => {
  const [port, emulatorPort] = [await freePort(), await freePort()];
  gateway = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: String(port), EMULATOR_PORT: String(emulatorPort), IM_BASE_URL: '', IM_ADMIN_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await waitForLine(gateway, /GraphQL\s+http/);
  url = `http://127.0.0.1:${port}/graphql`;
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
    // The pre-filled headers carry the demo user's token.
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
    await page.close();
  });
});
