// A performance guard: the working tree raced against a base commit on the peers' cases
// (bench/peers.ts with the base as its `baseline` peer: both built as production runs them, on the
// same machine, in alternating windows, so that a drift in the machine's load touches both alike).
// Prints, per case, the working tree's req/s and CPU per request as ratios of the base's, and
// names every case slower than 0.95× of it.
//
//   npm run bench:compare    (BENCH_BASE=<commit>, default release.json's commit: the last release;
//                             BENCH_ROUNDS default 5; BENCH_NODE=machine: this Node instead of
//                             Node 24; other bench:peers variables pass through)
//
// Both builds run on Node 24, the production image's (scripts/node24.sh installs it into a cache
// folder on first use), whatever Node runs this script: a build's figures move with the runtime
// (2026-12-07: on Node 20, whose young generation is a quarter of 24's, the tree read 0.90× of
// 0.2.1 on varied traffic; on Node 24, 1.00×), and the guard is for what production runs.
//
// Each round starts both builds afresh (BENCH_FRESH=1: one process's JIT may settle well or badly
// for a whole run; two processes of one build differed by 0.63-1.19× in one) and each ratio is the
// median over the rounds of the two builds' windows of that round, which ran back to back: a
// process or a window that something disturbed moves one round's ratio, not the figure.
//
// The base's files come from `git archive` into a cache folder outside the repository (kept for
// the next run); its node_modules are this checkout's when both lock files are the same, else its
// own `npm ci` there. Needs wrk, as bench:peers does.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const SLOWER_THAN = 0.95;

const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();

function baseCommit(): string {
  const named = process.env.BENCH_BASE ?? (JSON.parse(readFileSync(join(repo, 'release.json'), 'utf8')) as { commit: string }).commit;
  return git('rev-parse', '--verify', `${named}^{commit}`);
}

/** The base's tree, ready to build: extracted once per commit into the cache. */
function baseCheckout(commit: string): string {
  const dir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'im-gateway', 'compare', commit);
  if (!existsSync(join(dir, 'package.json'))) {
    mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${dir}"`], { cwd: repo, stdio: 'inherit' });
  }
  if (!existsSync(join(dir, 'node_modules'))) {
    const sameLock = git('show', `${commit}:package-lock.json`) === readFileSync(join(repo, 'package-lock.json'), 'utf8').trim();
    if (sameLock) symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
    else execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  }
  return dir;
}

/** The folder of Node 24's binary (installed on first use), or undefined for this Node (BENCH_NODE=machine). */
function productionNode(): string | undefined {
  if (process.env.BENCH_NODE === 'machine') return undefined;
  return execFileSync('bash', [join(repo, 'scripts/node24.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

interface Ratio {
  label: string;
  rate: number;
  cpu: number;
}

/**
 * The peers bench's "gateway/baseline" lines: `  <case>: gateway/baseline req/s 1.02×, CPU per
 * request 0.97× (median of 5 paired rounds; …)`: each the median of the rounds' paired ratios.
 */
function ratiosOf(output: string): Ratio[] {
  const line = /^ {2}(.+): gateway\/baseline req\/s ([\d.,]+)×, CPU per request ([\d.,]+)×(?: \(.*\))?$/gm;
  return [...output.matchAll(line)].map((m) => ({
    label: m[1]!,
    rate: Number(m[2]!.replace(/,/g, '')),
    cpu: Number(m[3]!.replace(/,/g, '')),
  }));
}

async function main() {
  const commit = baseCommit();
  const dir = baseCheckout(commit);
  const head = git('rev-parse', '--short', 'HEAD');
  const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
  const nodeBin = productionNode();
  console.log(`bench:compare: working tree (${head}${dirty ? ' + changes' : ''}) against ${commit.slice(0, 7)} (${dir})`);
  // bench:peers starts each gateway with its own Node (process.execPath): the one run here.
  const peers = spawn(nodeBin ? join(nodeBin, 'node') : process.execPath, ['--import', 'tsx', join(repo, 'bench/peers.ts')], {
    cwd: repo,
    env: {
      ...process.env,
      ...(nodeBin ? { PATH: `${nodeBin}:${process.env.PATH ?? ''}` } : {}),
      BENCH_PEERS: 'gateway',
      BENCH_BASELINE: dir,
      BENCH_ROUNDS: process.env.BENCH_ROUNDS ?? '5',
      BENCH_FRESH: process.env.BENCH_FRESH ?? '1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  peers.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  });
  const code = await new Promise<number | null>((resolve) => peers.once('exit', resolve));
  if (code !== 0) throw new Error(`bench:peers exited with ${code}`);
  const ratios = ratiosOf(output);
  if (ratios.length === 0) throw new Error('bench:peers printed no gateway/baseline ratio');
  console.log(`\nWorking tree against ${commit.slice(0, 7)} (req/s: higher is better; CPU per request: lower is better):`);
  for (const r of ratios) console.log(`  ${r.rate.toFixed(2)}× req/s, ${r.cpu.toFixed(2)}× CPU/request  ${r.label}`);
  const slower = ratios.filter((r) => r.rate < SLOWER_THAN);
  console.log(
    slower.length === 0
      ? `\nNo case slower than ${SLOWER_THAN}× of the base.`
      : `\nSlower than ${SLOWER_THAN}× of the base: ${slower.map((r) => `${r.label} (${r.rate.toFixed(2)}×)`).join('; ')}`,
  );
}

main().catch((err: unknown) => {
  console.error('bench:compare failed:', (err as Error).message);
  process.exit(1);
});
