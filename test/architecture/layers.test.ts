// The layering rule (rest ← emulator, subscriptions ← context ← schema ← gateway ← main): every
// relative import of src/ stays in its own area or reaches an area below it, never one above.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/** What each area of src/ may import besides itself. */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  config: [],
  rest: [],
  generated: [],
  files: ['rest'],
  peers: ['rest'],
  emulator: ['rest', 'config'],
  subscriptions: ['rest'],
  context: ['rest', 'subscriptions', 'peers'],
  schema: ['rest', 'files', 'peers', 'subscriptions', 'context'],
  gateway: ['rest', 'files', 'peers', 'subscriptions', 'context', 'schema', 'config'],
  main: ['rest', 'files', 'peers', 'subscriptions', 'context', 'schema', 'gateway', 'config', 'emulator'],
};

const areaOf = (file: string) => path.relative(SRC, file).split(path.sep)[0]!.replace(/\.ts$/, '');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

describe('layers', () => {
  it('no module of src/ imports from a layer above its own', () => {
    const files = sourceFiles(SRC);
    const upward = files.flatMap((file) => {
      const from = areaOf(file);
      const specifiers = [...readFileSync(file, 'utf8').matchAll(/\bfrom '(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
      return specifiers
        .map((spec) => areaOf(path.resolve(path.dirname(file), spec)))
        .filter((to) => to !== from && !(MAY_IMPORT[from] ?? []).includes(to))
        .map((to) => `${path.relative(SRC, file)} imports ${to}`);
    });
    expect(files.length).toBeGreaterThan(100);
    expect(upward).toEqual([]);
  });
});
