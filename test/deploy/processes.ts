// What compose.yaml starts, as processes on this machine: Redis, the emulator, two gateway replicas
// (the production bundle, NODE_ENV=production) and Debian's nginx with deploy/nginx.conf.template
// filled in, every port free-chosen. Each process is the caller's to stop (`stopAll`), by its PID.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../helpers/free-port';
import { until } from '../helpers/wait';
import { waitForLine } from '../helpers/wait-for-line';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const deployFile = (name: string) => join(repo, 'deploy', name);

/** KEY=VALUE lines (comments and blank lines skipped), as compose reads an env_file. */
export function readEnvFile(path: string): Record<string, string> {
  const entries = readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
  return Object.fromEntries(entries);
}

/**
 * The template with every `${NAME}` of lb.env filled in from `values`; a `${NAME}` that lb.env does
 * not define is an error (compose would leave it to nginx, which would refuse the file).
 */
export function renderNginxConf(values: Record<string, string>): string {
  const names = Object.keys(readEnvFile(deployFile('lb.env')));
  return readFileSync(deployFile('nginx.conf.template'), 'utf8').replace(/\$\{(\w+)\}/g, (_, name: string) => {
    if (!names.includes(name)) throw new Error(`deploy/nginx.conf.template uses \${${name}}, which deploy/lb.env does not set`);
    const value = values[name];
    if (value === undefined) throw new Error(`no value for \${${name}}`);
    return value;
  });
}

/** Debian's nginx, installed when missing and possible; otherwise why not. */
export function findNginx(): { path: string } | { reason: string } {
  const path = '/usr/sbin/nginx';
  if (existsSync(path)) return { path };
  if (process.getuid?.() !== 0) return { reason: 'nginx is not installed and installing it needs root: apt-get install -y nginx' };
  try {
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], { stdio: 'ignore', timeout: 300_000 });
  } catch (err) {
    return { reason: `nginx is not installed and apt-get install -y nginx failed (${(err as Error).message.split('\n')[0]})` };
  }
  return existsSync(path) ? { path } : { reason: 'apt-get installed no /usr/sbin/nginx' };
}

export interface Replica {
  process: ChildProcess;
  origin: string;
  metricsOrigin: string;
}

export interface Deployment {
  /** nginx: the only way in, as in compose (port 8080 there). */
  lb: string;
  replicas: Replica[];
  emulator: { url: string; appId: string; adminToken: string };
  /** Logs of every process, for a failure's message. */
  logs(): string;
  stopAll(): Promise<void>;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export async function startDeployment(nginxPath: string): Promise<Deployment> {
  const children: ChildProcess[] = [];
  const output: string[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'test-deploy-'));
  const track = (name: string, child: ChildProcess) => {
    children.push(child);
    child.stdout?.on('data', (chunk: Buffer) => output.push(`[${name}] ${chunk.toString()}`));
    child.stderr?.on('data', (chunk: Buffer) => output.push(`[${name}] ${chunk.toString()}`));
    return child;
  };
  const deployment: Deployment = {
    lb: '',
    replicas: [],
    emulator: { url: '', appId: 'im-demo', adminToken: `deploy-${process.pid}-${Date.now()}` },
    logs: () => {
      const errors = join(scratch, 'error.log');
      return `${output.join('')}\n[nginx error.log] ${existsSync(errors) ? readFileSync(errors, 'utf8') : ''}`.slice(-20_000);
    },
    async stopAll() {
      // nginx first (no new traffic), then the replicas, the emulator, Redis.
      for (const child of [...children].reverse()) await stop(child);
      rmSync(scratch, { recursive: true, force: true });
    },
  };
  try {
    // The production bundle, as the image builds it (esbuild; tsc's check is npm run build's other half).
    execFileSync('npm', ['run', '--silent', 'bundle'], { cwd: repo, stdio: 'ignore' });

    const redisPort = await freePort();
    const redis = track(
      'redis',
      spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { cwd: scratch }),
    );
    await waitForLine(redis, /Ready to accept connections/);

    const emulatorPort = await freePort();
    const { appId, adminToken } = deployment.emulator;
    const emulator = track(
      'im',
      spawn(process.execPath, [join(repo, 'dist/emulator/main.js'), '--seed'], {
        cwd: repo,
        env: { ...process.env, HOST: '127.0.0.1', EMULATOR_PORT: String(emulatorPort), IM_APP_ID: appId, IM_ADMIN_TOKEN: adminToken },
      }),
    );
    await waitForLine(emulator, /demo group/);
    deployment.emulator.url = `http://127.0.0.1:${emulatorPort}`;

    // Each replica: deploy/gateway.env as compose gives it, with this machine's ports and hosts.
    const shared = readEnvFile(deployFile('gateway.env'));
    for (const name of ['gateway-1', 'gateway-2']) {
      const [port, metricsPort] = [await freePort(), await freePort()];
      const child = track(
        name,
        spawn(process.execPath, [join(repo, 'dist/main.js')], {
          cwd: repo,
          env: {
            ...process.env,
            ...shared,
            HOST: '127.0.0.1',
            PORT: String(port),
            METRICS_PORT: String(metricsPort),
            METRICS_HOST: '127.0.0.1',
            IM_BASE_URL: deployment.emulator.url,
            IM_APP_ID: appId,
            REDIS_URL: `redis://127.0.0.1:${redisPort}`,
            // nginx's address here, as deploy/gateway.env names nginx's on the compose network.
            TRUSTED_PROXIES: '127.0.0.1',
          },
        }),
      );
      await waitForLine(child, /GraphQL\s+http/);
      deployment.replicas.push({ process: child, origin: `http://127.0.0.1:${port}`, metricsOrigin: `http://127.0.0.1:${metricsPort}` });
    }

    const lbPort = await freePort();
    const conf = join(scratch, 'nginx.conf');
    const [one, two] = deployment.replicas.map((r) => new URL(r.origin).host);
    writeFileSync(conf, renderNginxConf({ LB_PORT: `127.0.0.1:${lbPort}`, GATEWAY_1: one!, GATEWAY_2: two! }));
    const directives = `daemon off; pid ${join(scratch, 'nginx.pid')}; error_log ${join(scratch, 'error.log')} warn;`;
    track('nginx', spawn(nginxPath, ['-p', scratch, '-c', conf, '-g', directives], { cwd: scratch }));
    deployment.lb = `http://127.0.0.1:${lbPort}`;
    await until('nginx answers /health', () =>
      fetch(`${deployment.lb}/health`).then(
        (res) => res.ok,
        () => false,
      ),
    );
    return deployment;
  } catch (err) {
    const logs = deployment.logs();
    await deployment.stopAll();
    throw new Error(`${(err as Error).message}\n${logs}`);
  }
}
