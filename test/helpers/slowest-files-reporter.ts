// A vitest reporter that ends a run with its slowest test files: what each paid to load (its
// imports, collect) and to run (tests and hooks), so CI's log shows where the suite's time goes.
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(8);

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (modules.length < 2) return;
    const timed = modules.map((module) => {
      const { collectDuration, duration } = module.diagnostic();
      return { file: module.relativeModuleId, load: collectDuration, run: duration, total: collectDuration + duration };
    });
    timed.sort((a, b) => b.total - a.total);
    const lines = timed
      .slice(0, SHOWN)
      .map((t) => `${seconds(t.total)}  (load ${seconds(t.load).trim()}, run ${seconds(t.run).trim()})  ${t.file}`);
    console.log(`\nSlowest ${Math.min(SHOWN, timed.length)} of ${timed.length} test files:\n${lines.join('\n')}\n`);
  }
}
