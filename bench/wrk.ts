// wrk (Debian's `wrk`, `apt-get install -y wrk`) as the benchmarks drive it: a Lua script per
// load (bench/peers.ts, bench/soak.ts), and the figures read back from its report.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Request {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** This request's own identity headers, in place of the script's (varied traffic: one identity each). */
  headers?: Record<string, string>;
}

/** A Lua string literal. */
const lua = (text: string) => JSON.stringify(text);

/** Throws a helpful error when wrk is not installed. */
export async function requireWrk(): Promise<void> {
  await run('wrk', ['--version']).catch((err: { stdout?: string }) => {
    // wrk --version exits with 1 after printing its version.
    if (!err.stdout?.includes('wrk')) throw new Error('wrk not found: apt-get install -y wrk');
  });
}

/**
 * A wrk script sending the requests (one, or several in turn) with the identity headers, counting
 * the answers that hold GraphQL errors (a peer answering errors fast must not pass for a fast peer).
 */
export function wrkScript(dir: string, requests: readonly Request[], headers: Record<string, string>, host?: string): string {
  const file = join(dir, `req-${Math.random().toString(36).slice(2)}.lua`);
  const [first] = requests;
  if (!first) throw new Error('wrkScript: no request');
  // Lua long strings hold the bodies verbatim.
  const lines = [`wrk.method = "${first.method}"`];
  if (first.body !== undefined) lines.push(`wrk.body = [==[${first.body}]==]`);
  for (const [name, value] of Object.entries(first.headers ?? headers)) lines.push(`wrk.headers["${name}"] = "${value}"`);
  if (requests.length > 1) {
    // Several: each connection sends them in turn, each with its own headers. They are formatted on
    // the first request() (wrk.host is unset while the script loads), and Host is given here:
    // Node answers a request without one 400.
    const formatted = requests.map((r) => {
      const own = { ...(r.headers ?? headers), ...(host ? { Host: host } : {}) };
      const table = `{ ${Object.entries(own)
        .map(([name, value]) => `[${lua(name)}] = ${lua(value)}`)
        .join(', ')} }`;
      return `wrk.format("${r.method}", "${r.path}", ${table}, ${r.body === undefined ? 'nil' : `[==[${r.body}]==]`})`;
    });
    lines.push(
      'local turn = 0',
      'local mix = nil',
      `function request() if not mix then mix = { ${formatted.join(', ')} } end turn = turn % #mix + 1 return mix[turn] end`,
    );
  }
  lines.push(
    'local threads = {}',
    'function setup(thread) table.insert(threads, thread) end',
    'function response(status, headers, body) if string.find(body, \'"errors"\', 1, true) then errors = (errors or 0) + 1 end end',
    'function done(summary, latency, requests) local n = 0 for _, t in ipairs(threads) do n = n + (t:get("errors") or 0) end io.write("graphql-errors: " .. n .. "\\n") end',
  );
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

interface WrkResult {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  bad: number;
}

function durationMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return NaN;
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as 'us' | 'ms' | 's' | 'm'];
  return Number(m[1]) * scale;
}

export async function wrk(origin: string, path: string, script: string, seconds: number, concurrency: number): Promise<WrkResult> {
  const { stdout } = await run(
    'wrk',
    ['-t1', `-c${concurrency}`, `-d${seconds}s`, '--timeout', '10s', '--latency', '-s', script, origin + path],
    { timeout: (seconds + 30) * 1000 },
  );
  const grab = (re: RegExp) => re.exec(stdout)?.[1];
  const requests = Number(grab(/(\d+) requests in/));
  const seconds_ = durationMs(grab(/requests in ([\d.]+\w+),/) ?? '') / 1000;
  const bad =
    Number(grab(/Non-2xx or 3xx responses: (\d+)/) ?? 0) +
    Number(grab(/Socket errors: .*?timeout (\d+)/) ?? 0) +
    Number(grab(/graphql-errors: (\d+)/) ?? 0);
  return {
    requests,
    seconds: seconds_,
    perSecond: requests / seconds_,
    p50: durationMs(grab(/\s50%\s+(\S+)/) ?? ''),
    p99: durationMs(grab(/\s99%\s+(\S+)/) ?? ''),
    bad,
  };
}
