// `npm run test:stress`: the whole suite as `npm test` runs it (twice, as it does) while two
// busy Node processes take two cores, as on a shared CI machine. Prints how long the run took and
// exits with the suite's code. The hogs are plain Node (no system package), end on their own after
// HOG_MAX_MS or when this script is gone, and are killed by PID when the suite ends.
import { type ChildProcess, spawn } from 'node:child_process';

const HOGS = 2;
/** A hog's longest life: well past any suite run, so it never stops early, yet never runs for ever. */
const HOG_MAX_MS = 90 * 60_000;

// Spins until its time is up or its parent is gone (checked about once a second).
const HOG = `
const end = Date.now() + ${HOG_MAX_MS};
const parent = process.ppid;
let checked = Date.now();
while (Date.now() < end) {
  for (let i = 0; i < 1e6; i++);
  if (Date.now() - checked > 1000) {
    checked = Date.now();
    try { process.kill(parent, 0); } catch { process.exit(0); }
  }
}`;

const hogs: ChildProcess[] = Array.from({ length: HOGS }, () => spawn(process.execPath, ['-e', HOG], { stdio: 'ignore' }));
console.log(`test:stress: ${HOGS} CPU hogs running (PIDs ${hogs.map((h) => h.pid).join(', ')}); running npm test`);

function stopHogs(): void {
  for (const hog of hogs) if (hog.exitCode === null && hog.signalCode === null) hog.kill('SIGKILL');
}

const started = performance.now();
const suite = spawn('npm', ['test'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopHogs();
    suite.kill(signal);
  });
}

const code = await new Promise<number>((resolve) => {
  suite.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  suite.once('error', (err) => {
    console.error(`test:stress: could not run npm test: ${err.message}`);
    resolve(1);
  });
});
stopHogs();
const seconds = Math.round((performance.now() - started) / 1000);
const took = `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
console.log(`test:stress: npm test ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${took}, with ${HOGS} CPU hogs`);
process.exit(code);
