// A redis-server of the test's own, on its own port, that the test can kill and start again
// (empty: no persistence), to play a Redis outage without touching anyone else's Redis.
import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './free-port';
import { until } from './wait';

export interface TestRedis {
  readonly port: number;
  readonly url: string;
  /** Kills the server (SIGKILL, by its PID) and waits for it to be gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty; resolves once it accepts connections. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedisServer(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function launch(): Promise<void> {
    const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    child = proc;
    await until(`redis-server listening on ${port}`, async () => {
      if (proc.exitCode !== null) throw new Error(`redis-server exited with ${proc.exitCode}`);
      return accepts(port);
    });
  }

  async function kill(): Promise<void> {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    const gone = new Promise((resolve) => proc.once('exit', resolve));
    process.kill(proc.pid!, 'SIGKILL');
    await gone;
  }

  await launch();
  return { port, url: `redis://127.0.0.1:${port}`, kill, restart: launch, stop: kill };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
