// Every ```sh and ```graphql snippet of README.md and docs/ runs here, as written, against a
// gateway over a seeded emulator (npm start's demo data): the shell snippets with localhost:4000
// and localhost:4001 replaced by the test's gateway and emulator and TOKEN set to alice's, the GraphQL ones sent as alice, each
// header comment (`# X-ID-Format: global`) sent as a header. A snippet that cannot run here is
// marked `<!-- not run: why -->` in the Markdown right before it, and listed below so those stay
// few; a streaming one is marked `<!-- run: until its first event -->`.
import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/emulator/seed';
import { type Stack, startStack } from '../helpers/stack';

const ROOT = new URL('../../', import.meta.url);
const FILES = [
  'README.md',
  ...readdirSync(new URL('docs/', ROOT))
    .sort()
    .map((name) => `docs/${name}`),
].filter((f) => f.endsWith('.md'));

interface Snippet {
  file: string;
  line: number;
  lang: 'sh' | 'graphql';
  code: string;
  /** The `<!-- ... -->` marker right before it, if any. */
  marker?: { run: boolean; why: string };
}

function snippetsOf(file: string): Snippet[] {
  const lines = readFileSync(new URL(file, ROOT), 'utf8').split('\n');
  const found: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(sh|graphql)\s*$/.exec(lines[i]!);
    if (!open) {
      if (lines[i]!.startsWith('```')) i = lines.indexOf('```', i + 1); // another language: skip its body
      continue;
    }
    const end = lines.indexOf('```', i + 1);
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const mark = /^<!-- (not run|run): (.+) -->$/.exec(lines[before] ?? '');
    found.push({
      file,
      line: i + 1,
      lang: open[1] as Snippet['lang'],
      code: lines.slice(i + 1, end).join('\n'),
      ...(mark ? { marker: { run: mark[1] === 'run', why: mark[2]! } } : {}),
    });
    i = end;
  }
  return found;
}

const SNIPPETS = FILES.flatMap(snippetsOf);
const runnable = SNIPPETS.filter((s) => s.marker?.run !== false);
const name = (s: Snippet) => `${s.file}:${s.line}`;

// npm start's arrangement: the emulator's admin token is the gateway's service credential.
let stack: Stack | undefined;
let token = '';
beforeAll(async () => {
  stack = await startStack({}, { serviceCredential: true });
  token = (await seedDemo(stack.emu.url, stack.emu.appId, stack.emu.adminToken)).token;
});
afterAll(() => stack?.stop());

/** The snippet's shell text, pointed at the test's gateway. */
const localized = (code: string) =>
  code.replaceAll('localhost:4000', new URL(stack!.url).host).replaceAll('localhost:4001', new URL(stack!.emu.url).host);

/** Runs a streaming snippet until its first SSE event, then stops it (its whole process group). */
function firstEvent(code: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', code], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const stop = () => process.kill(-child.pid!, 'SIGTERM');
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/^data: .*\n/m.test(out)) {
        stop();
        resolve(out);
      }
    });
    child.on('exit', (code) => reject(new Error(`ended (${code}) before its first event: ${out}`)));
  });
}

describe('the snippets of README.md and docs/', () => {
  it('finds the snippets, and few are marked as not run', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(7);
    expect(SNIPPETS.filter((s) => s.marker?.run === false).map((s) => `${s.file}: ${s.marker!.why}`)).toEqual([
      'README.md: installs the packages and runs the whole suite',
      'docs/deployment.md: needs a real IM service',
      'docs/deployment.md: needs a real IM service and Redis',
      'docs/deployment.md: builds the bundle and needs a real IM service',
      'docs/deployment.md: needs docker',
      'docs/deployment.md: needs a Kubernetes cluster',
      "docs/identity.md: takes a message's id from the answer above",
    ]);
  });

  it.each(runnable.filter((s) => s.lang === 'sh').map((s) => [name(s), s] as const))(
    'runs %s with no error in its answers',
    async (_name, snippet) => {
      const env = { ...process.env, TOKEN: token };
      const code = `set -e -o pipefail\n${localized(snippet.code)}`;
      const out = snippet.marker?.run ? await firstEvent(code, env) : (await promisify(execFile)('bash', ['-c', code], { env })).stdout;
      expect(out).toContain('"data"');
      expect(out).not.toContain('"errors"');
      expect(out).not.toMatch(/"code":\s*(?!200\b)\d/); // a REST envelope's failure (200 is its success)
    },
  );

  // The README's tour as a newcomer runs it, in one shell (its steps pass $TOKEN on), twice in a
  // row against one gateway: the second run must be as green as the first (sign-in limits).
  it("runs the README's tour twice in a row, every step green, saying nothing on stderr", async () => {
    const tour = SNIPPETS.filter((s) => s.file === 'README.md' && s.lang === 'sh' && !s.marker).map((s) => localized(s.code));
    expect(tour.length).toBeGreaterThanOrEqual(2);
    const { TOKEN: _none, ...env } = process.env;
    for (const run of [1, 2]) {
      const { stdout, stderr } = await promisify(execFile)('bash', ['-c', `set -e -o pipefail\n${tour.join('\n')}`], { env });
      expect({ run, stderr }).toEqual({ run, stderr: '' });
      expect(stdout).toContain('"loginByName"');
      expect(stdout).toContain('"username":"alice"');
      expect(stdout).toContain('"ok":true');
      expect(stdout).not.toContain('"errors"');
    }
  });

  it("fails the tour's sign-in loudly: a wrong password prints the error, not a token", async () => {
    const login = SNIPPETS.find((s) => s.file === 'README.md' && s.code.includes('loginByName'))!;
    const wrong = localized(login.code).replace('demo-password', 'not-the-password');
    const { TOKEN: _none, ...env } = process.env;
    const { stdout, stderr } = await promisify(execFile)('bash', ['-c', wrong], { env });
    expect(stderr).toMatch(/^sign-in failed, no token: .*"userErrors":\[\{"code":"UNAUTHENTICATED"/m);
    expect(stdout).not.toContain('"token"');
  });

  it.each(runnable.filter((s) => s.lang === 'graphql').map((s) => [name(s), s] as const))(
    'runs %s through the gateway with no error',
    async (_name, snippet) => {
      const headers = Object.fromEntries([...snippet.code.matchAll(/^# ([\w-]+): (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
      const reply = await stack!.gql(snippet.code, undefined, { 'access-token': token, ...headers });
      expect(reply.errors).toBeUndefined();
      expect(reply.data).toBeTruthy();
    },
  );
});
