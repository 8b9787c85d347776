// CPU per REST call spent in the client itself (src/rest/client.ts): a tiny HTTP server in a child
// process answers every call at once with a small envelope, and this process, which holds only the
// client, measures its own CPU (process.cpuUsage) over a window of calls kept BENCH_CALL_CONCURRENCY
// at a time. All on 127.0.0.1. Prints µs of CPU per call, calls per second and the load average
// (the machine may be shared: a figure taken under load is not final).
//
//   npm run bench:call       (BENCH_CALL_SECONDS measured, default 8; BENCH_CALL_WARMUP_S, default 2;
//                             BENCH_CALL_CONCURRENCY, default 16; BENCH_CALL_TIMEOUT_MS: the client's
//                             callTimeoutMs, default its own)
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createRestClient } from '../src/rest/client';
import { printTable } from './print-table';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = env('BENCH_CALL_SECONDS', 8);
const WARMUP_S = env('BENCH_CALL_WARMUP_S', 2);
const CONCURRENCY = env('BENCH_CALL_CONCURRENCY', 16);
const ANSWER = JSON.stringify({ code: 200, data: { user_id: 1, username: 'bench', nick_name: 'Bench' }, message: null });

/** The child: answers every request with the same envelope, and tells its port to the parent. */
function serve() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': ANSWER.length }).end(ANSWER));
  });
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
  // The bench stopped or died: do not outlive it.
  process.on('disconnect', () => process.exit(0));
}

async function measure() {
  const child = fork(fileURLToPath(import.meta.url), { env: { ...process.env, BENCH_CALL_SERVER: '1' } });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  const timeout = process.env.BENCH_CALL_TIMEOUT_MS;
  const rest = createRestClient({
    baseUrl: `http://127.0.0.1:${port}`,
    appId: 'bench',
    retries: 0,
    ...(timeout ? { callTimeoutMs: Number(timeout) } : {}),
  });
  const caller = { token: 'bench-token', userId: '1' };

  /** Calls kept CONCURRENCY at a time for `seconds`; answers the calls made. */
  async function drive(seconds: number): Promise<number> {
    const until = performance.now() + seconds * 1000;
    let calls = 0;
    const loop = async () => {
      while (performance.now() < until) {
        await rest.call('GET /user/profile', {}, caller);
        calls++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, loop));
    return calls;
  }

  await drive(WARMUP_S);
  const load = loadavg();
  const cpuBefore = process.cpuUsage();
  const began = performance.now();
  const calls = await drive(SECONDS);
  const wall = (performance.now() - began) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  await rest.close();
  child.disconnect();

  console.log(
    `\nREST client call overhead (Node ${process.version}, ${CONCURRENCY} calls at a time, ${SECONDS} s after ${WARMUP_S} s warm-up)\n`,
  );
  printTable([
    ['figure', 'value'],
    ['calls', String(calls)],
    ['calls/s', (calls / wall).toFixed(0)],
    ['client CPU µs/call (user+system)', ((cpu.user + cpu.system) / calls).toFixed(1)],
    ['  of which user', (cpu.user / calls).toFixed(1)],
    ['load average before (1/5/15 min)', load.map((l) => l.toFixed(2)).join(' / ')],
    [
      'load average after',
      loadavg()
        .map((l) => l.toFixed(2))
        .join(' / '),
    ],
  ]);
}

if (process.env.BENCH_CALL_SERVER) serve();
else
  await measure().catch((err: unknown) => {
    console.error('bench failed:', err);
    process.exit(1);
  });
