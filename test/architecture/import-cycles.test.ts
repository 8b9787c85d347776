// No import circle among src/ files through edges that exist at run time. A circle makes module
// evaluation order decide whether a binding is still undefined when it is used. Type-only imports
// and exports are erased, so they may form circles; with verbatimModuleSyntax,
// `import { type A } from` still loads its module and counts.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

type Graph = ReadonlyMap<string, readonly string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

/** The relative specifiers a file loads when it runs (static imports and re-exports). */
function runtimeSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  return source.statements.flatMap((s) => {
    const erased = (ts.isImportDeclaration(s) && s.importClause?.isTypeOnly === true) || (ts.isExportDeclaration(s) && s.isTypeOnly);
    const spec = (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && !erased ? s.moduleSpecifier : undefined;
    // A JSON module (the generated persisted-documents manifest) imports nothing: no circle passes it.
    return spec && ts.isStringLiteral(spec) && spec.text.startsWith('.') && !spec.text.endsWith('.json') ? [spec.text] : [];
  });
}

const files = new Set(sourceFiles(SRC));

function resolveSpecifier(from: string, spec: string): string {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, `${base}.ts`, path.join(base, 'index.ts')];
  const found = candidates.find((c) => c.endsWith('.ts') && files.has(c));
  if (!found) throw new Error(`${path.relative(SRC, from)}: cannot resolve ${spec}`);
  return found;
}

function runtimeGraph(): Graph {
  return new Map([...files].map((f) => [f, runtimeSpecifiers(f).map((spec) => resolveSpecifier(f, spec))]));
}

/** Every circle the depth-first walk closes, each as the files along it (first file repeated last). */
function findCircles(graph: Graph): string[][] {
  const done = new Set<string>();
  const circles: string[][] = [];
  for (const root of graph.keys()) {
    if (done.has(root)) continue;
    // An explicit stack of [file, next edge index] keeps deep graphs off the call stack.
    const stack: [string, number][] = [[root, 0]];
    const onPath = new Map<string, number>([[root, 0]]);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const next = (graph.get(top[0]) ?? [])[top[1]++];
      if (next === undefined) {
        stack.pop();
        onPath.delete(top[0]);
        done.add(top[0]);
      } else if (onPath.has(next)) {
        circles.push([...stack.slice(onPath.get(next)).map(([f]) => f), next]);
      } else if (!done.has(next)) {
        onPath.set(next, stack.length);
        stack.push([next, 0]);
      }
    }
  }
  return circles;
}

describe('import circles', () => {
  it('the walk finds a circle, and only a circle', () => {
    const circle: Graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    const diamond: Graph = new Map([
      ['a', ['b', 'c']],
      ['b', ['d']],
      ['c', ['d']],
      ['d', []],
    ]);
    expect(findCircles(circle)).toEqual([['a', 'b', 'c', 'a']]);
    expect(findCircles(diamond)).toEqual([]);
  });

  it('no src/ file reaches itself through imports that load at run time', () => {
    const graph = runtimeGraph();
    const edges = [...graph.values()].reduce((n, to) => n + to.length, 0);
    const circles = findCircles(graph).map((c) => c.map((f) => path.relative(SRC, f)).join(' → '));
    expect(edges).toBeGreaterThan(200);
    expect(circles).toEqual([]);
  });
});
