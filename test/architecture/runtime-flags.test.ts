import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// src/runtime-flags.ts sets V8 flags that only hold for what is allocated after them: main.ts must
// load it before any other module (an import sorter moving it would cost 1.6× CPU per request).
describe('the gateway process', () => {
  it('sets its V8 flags before it loads anything else', () => {
    const main = readFileSync(new URL('../../src/main.ts', import.meta.url), 'utf8');
    const firstImport = main.split('\n').find((line) => line.startsWith('import '));
    expect(firstImport).toBe("import './runtime-flags';");
  });

  it('turns allocation-site pretenuring off', () => {
    expect(readFileSync(new URL('../../src/runtime-flags.ts', import.meta.url), 'utf8')).toContain(
      "setFlagsFromString('--no-allocation-site-pretenuring')",
    );
  });
});
