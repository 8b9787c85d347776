// The processes a benchmark runs and measures from outside (bench/peers.ts, bench/soak.ts): the
// seeded emulator (bench/query-emulator.ts) and the gateway as production runs it, each in a
// child process of its own, and a process's CPU and memory as Linux reports them.
import { type ChildProcess, execFile, fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '../test/helpers/free-port';
import { channel } from './ipc';
import type { EmulatorSetup, FromEmulator, ToEmulator } from './query-emulator';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const repo = here('..');
const run = promisify(execFile);

export /** CPU time of a process and all its threads so far, ms (Linux: USER_HZ is 100, a tick is 10 ms). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at the state, field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resident set size of a process now, bytes (VmRSS in /proc/<pid>/status). */
export function rssBytes(pid: number): number {
  const kib = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) * 1024;
}

export /** Starts a child and resolves when its output holds `ready`; rejects when it exits first. */
function started(child: ChildProcess, name: string, ready: RegExp): Promise<void> {
  let output = '';
  return new Promise((resolve, reject) => {
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve();
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it was ready:\n${output.slice(-2000)}`)));
  });
}

/** The child processes a bench starts and its scratch folder: `cleanup` (also run at exit) ends and removes them. */
export function benchWorkspace(name: string): { children: ChildProcess[]; scratch: string; cleanup(): void } {
  const children: ChildProcess[] = [];
  const scratch = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const cleanup = () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill();
    rmSync(scratch, { recursive: true, force: true });
  };
  process.on('exit', cleanup);
  return { children, scratch, cleanup };
}

interface BenchEmulator {
  process: ChildProcess;
  ask: ReturnType<typeof channel<ToEmulator, FromEmulator>>;
  setup: EmulatorSetup;
}

/** The emulator in a child process, seeded (the owner in 50 groups: BENCH_SMALL_GROUPS 48). */
export async function startBenchEmulator(children: ChildProcess[]): Promise<BenchEmulator> {
  const child = fork(here('./query-emulator.ts'), { env: { ...process.env, BENCH_SMALL_GROUPS: '48' } });
  children.push(child);
  const ask = channel<ToEmulator, FromEmulator>(child, 'emulator');
  const { setup } = await ask(undefined, 'ready');
  return { process: child, ask, setup };
}

/**
 * The gateway as production runs it (`npm run build`: the bundle, without tsx's per-function
 * helpers; built here first), metrics on, over the emulator. BENCH_GATEWAY_SOURCE=1 runs src/
 * through tsx instead; BENCH_GATEWAY_NODE_ARGS adds node flags (e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof`), after `nodeArgs`.
 */
/** The checkouts bundled by this bench run. */
const bundled = new Set<string>();

export async function startGatewayProcess(
  children: ChildProcess[],
  setup: EmulatorSetup,
  nodeArgs: readonly string[] = [],
  /** Settings of this gateway over the environment's (bench/tracing.ts runs one per setting). */
  extraEnv: Record<string, string> = {},
  /** The checkout whose gateway runs (bench/peers.ts's BENCH_BASELINE: another commit's). */
  checkout: string = repo,
): Promise<{ process: ChildProcess; origin: string; metricsOrigin: string }> {
  const port = await freePort();
  const metricsPort = await freePort();
  const fromSource = process.env.BENCH_GATEWAY_SOURCE === '1';
  // Bundled once per checkout and bench run: a bench that starts a build again (BENCH_FRESH) runs the same bundle.
  if (!fromSource && !bundled.has(checkout)) {
    await run('npm', ['run', '--silent', 'bundle'], { cwd: checkout });
    bundled.add(checkout);
  }
  const extra = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const entry = fromSource ? ['--import', 'tsx', join(checkout, 'src/main.ts')] : [join(checkout, 'dist/main.js')];
  const gateway = spawn(process.execPath, [...nodeArgs, ...extra, ...entry], {
    cwd: checkout,
    // Production serves metrics on a port of their own, 9464 by default: one per machine, so a free one here.
    env: {
      ...process.env,
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      IM_BASE_URL: setup.url,
      IM_APP_ID: setup.appId,
      // The service credential: users' tokens read their peers through it (bench/peers.ts's varied cases).
      IM_ADMIN_TOKEN: setup.adminToken,
      NODE_ENV: 'production',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(gateway);
  await started(gateway, 'gateway', /GraphQL\s+http/);
  return { process: gateway, origin: `http://127.0.0.1:${port}`, metricsOrigin: `http://127.0.0.1:${metricsPort}` };
}

/** A floor of bench/floors.ts (`node`: node:http alone; `jit`: graphql-jit behind it; `yoga`: graphql-yoga with one resolver). */
export async function startFloor(
  children: ChildProcess[],
  floor: 'node' | 'jit' | 'yoga',
): Promise<{ process: ChildProcess; origin: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', here('./floors.ts')], {
    cwd: repo,
    env: { ...process.env, FLOOR: floor, PORT: String(port), NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  await started(child, `floor ${floor}`, /listening/);
  return { process: child, origin: `http://127.0.0.1:${port}` };
}
