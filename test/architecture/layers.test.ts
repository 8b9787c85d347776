// The layering rule (identity ← rest ← emulator, redis ← subscriptions ← context ← schema ← gateway ← main;
// the logger beside them, below all but config): every
// relative import of src/ stays in its own area or reaches an area below it, never one above; and
// nothing below src/schema knows GraphQL (its failures are plain values, worded at the edge).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/** What each area of src/ may import besides itself. */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  config: [],
  log: ['config'],
  // Who a request is (src/identity.ts): below everything that keys on it, REST coalescing included.
  identity: [],
  rest: ['identity'],
  generated: [],
  files: ['rest'],
  peers: ['rest'],
  emulator: ['rest', 'config', 'log'],
  redis: ['log'],
  subscriptions: ['identity', 'rest', 'log', 'redis'],
  context: ['identity', 'rest', 'subscriptions', 'peers'],
  schema: ['rest', 'files', 'peers', 'subscriptions', 'context'],
  // The gateway serves the trusted documents' manifest that codegen writes (data, no code).
  gateway: ['identity', 'rest', 'files', 'peers', 'subscriptions', 'context', 'schema', 'config', 'generated', 'log', 'redis'],
  main: [
    'identity',
    'rest',
    'files',
    'peers',
    'subscriptions',
    'context',
    'schema',
    'gateway',
    'config',
    'emulator',
    'generated',
    'log',
    'redis',
  ],
};

/** The areas below src/schema: no GraphQL package, not even for a type. */
const BELOW_SCHEMA = ['identity', 'rest', 'files', 'peers', 'subscriptions', 'context', 'config', 'emulator', 'generated', 'log', 'redis'];

/** graphql, graphql-yoga, graphql-jit, @graphql-*, @pothos/*, ...: any package that speaks GraphQL. */
const isGraphqlPackage = (specifier: string) =>
  !specifier.startsWith('.') && (/graphql/i.test(specifier) || specifier.startsWith('@pothos/'));

// codegen's client preset types the client documents with this (type-only) package; they are
// clients' operations, not server code, and the file is generated as is.
const ALLOWED: Readonly<Record<string, readonly string[]>> = { generated: ['@graphql-typed-document-node/core'] };

/** Every module specifier a file names: static imports and re-exports (type-only too), side-effect and dynamic imports. */
const specifiersOf = (text: string) =>
  [...text.matchAll(/\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => (m[1] ?? m[2])!);

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

  it('no module below src/schema imports a GraphQL package, even for types', () => {
    const files = sourceFiles(SRC);
    const graphqlImports = (area: string) =>
      files
        .filter((file) => areaOf(file) === area)
        .flatMap((file) =>
          specifiersOf(readFileSync(file, 'utf8'))
            .filter((spec) => isGraphqlPackage(spec) && !(ALLOWED[area] ?? []).includes(spec))
            .map((spec) => `${path.relative(SRC, file)} imports ${spec}`),
        );
    // The scan sees the schema's own imports (`import { GraphQLError } from 'graphql'`, `import type ... from '@pothos/core'`).
    expect(graphqlImports('schema').length).toBeGreaterThan(10);
    expect(BELOW_SCHEMA.flatMap(graphqlImports)).toEqual([]);
  });

  // What watches REST calls (spans, the trace context sent on, logs, metrics) hangs on the client's
  // attempt hook from src/gateway/observability/: the REST layer knows no tracing library.
  it('no module of src/rest imports OpenTelemetry, even for types', () => {
    const rest = sourceFiles(SRC).filter((file) => areaOf(file) === 'rest');
    const otel = rest.flatMap((file) =>
      specifiersOf(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('@opentelemetry/'))
        .map((spec) => `${path.relative(SRC, file)} imports ${spec}`),
    );
    expect(rest.length).toBeGreaterThan(10);
    expect(otel).toEqual([]);
  });

  // The schema's domains (user/, group/, message/, roster/, push/, file/) share through core/ and
  // are joined above them (node.ts, index.ts); an import from one domain into another ties them, a
  // few are honest (a message's group), many mean a helper lives in the wrong room (issue 43).
  it('the schema domains import one another fewer than 15 times', () => {
    const SCHEMA = path.join(SRC, 'schema');
    const domainOf = (file: string) => {
      const parts = path.relative(SCHEMA, file).split(path.sep);
      return parts.length > 1 && parts[0] !== 'core' && parts[0] !== '..' ? parts[0] : undefined;
    };
    const crossings = sourceFiles(SCHEMA).flatMap((file) => {
      const from = domainOf(file);
      if (!from) return [];
      return [...readFileSync(file, 'utf8').matchAll(/\bfrom '(\.{1,2}\/[^']+)'/g)]
        .map((m) => domainOf(path.resolve(path.dirname(file), m[1]!)))
        .filter((to) => to !== undefined && to !== from)
        .map((to) => `${path.relative(SCHEMA, file)} imports ${to}`);
    });
    expect(crossings.length, crossings.join('\n')).toBeGreaterThan(0);
    expect(crossings.length, crossings.join('\n')).toBeLessThan(15);
  });
});
