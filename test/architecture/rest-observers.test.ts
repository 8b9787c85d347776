// The REST client knows no tracing library: what watches its calls (spans, trace context, logs,
// metrics) hangs on its attempt hook from src/gateway/observability/.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/rest');

/** Every module specifier a file names: static imports and re-exports (type-only too), side-effect and dynamic imports. */
const specifiersOf = (text: string) =>
  [...text.matchAll(/\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => (m[1] ?? m[2])!);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the REST client and its observers', () => {
  it('no module of src/rest/ imports OpenTelemetry, not even a type', () => {
    const files = sourceFiles(REST);
    expect(files.length).toBeGreaterThan(10);
    const found = files.flatMap((file) =>
      specifiersOf(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('@opentelemetry/'))
        .map((spec) => `${path.relative(REST, file)}: ${spec}`),
    );
    expect(found).toEqual([]);
  });
});
