// Production mode: the bundle `npm run build` makes (dist/main.js) runs under plain Node, with no
// npm or tsx between the signal and the server: it starts, answers, and stops on SIGTERM.
// (The build's type check is `npm run typecheck`'s job; this runs only its bundling step.)
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port';
import { waitForLine } from '../helpers/wait-for-line';

let child: ChildProcess;
let origin: string;
let metricsPort: number;
let output = '';

beforeAll(async () => {
  execFileSync('npm', ['run', '--silent', 'bundle', '--', '--log-level=warning'], { stdio: 'inherit', timeout: 60_000 });
  const [port, emulatorPort] = [await freePort(), await freePort()];
  metricsPort = await freePort();
  origin = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['dist/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      EMULATOR_PORT: String(emulatorPort),
      IM_BASE_URL: '',
      IM_ADMIN_TOKEN: '',
      NODE_ENV: 'production',
      // Production's default (9464) may be taken on a shared machine.
      METRICS_PORT: String(metricsPort),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.pipe(process.stderr);
  await waitForLine(child, /GraphQL\s+http/);
});

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

describe('node dist/main.js', () => {
  it('answers /health and GraphQL, with GraphiQL and introspection off in production', async () => {
    expect((await fetch(`${origin}/health`)).status).toBe(200);
    const res = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":"{ __typename }"}',
    });
    expect(await res.json()).toEqual({ data: { __typename: 'Query' } });
    const schema = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":"{ __schema { queryType { name } } }"}',
    });
    expect(await schema.json()).toMatchObject({ errors: [{ extensions: { code: 'INTROSPECTION_DISABLED' } }] });
    // A browser gets the short page saying GraphiQL is off, not the IDE.
    const page = await (await fetch(`${origin}/graphql`, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('is <strong>off</strong>');
    expect(page).not.toContain('renderYogaGraphiQL');
  });

  it('serves metrics on their own port, not on the public one', async () => {
    const publicPort = await fetch(`${origin}/metrics`);
    expect(publicPort.status).toBe(404);
    await publicPort.arrayBuffer();
    const own = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('im_gateway_subscribers');
    expect(output).toContain(`Metrics       http://127.0.0.1:${metricsPort}/metrics`);
  });

  it('stops within a few seconds of SIGTERM, exit code 0', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const sent = performance.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // On its own, promptly: nothing open keeps it waiting (a busy machine slows the exit, not to 15 s).
    expect(performance.now() - sent).toBeLessThan(15_000);
    expect(output).toContain('SIGTERM: stopping');
  });
});
