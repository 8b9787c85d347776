// docs/development.md lists every folder of src/ with a line of what it holds: the list is held
// to the tree, so a reader who trusts it is never sent to a folder that moved.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Every folder under src/, as 'src/gateway/http'. */
function folders(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const child = `${dir}/${entry.name}`;
      return [child, ...folders(child)];
    });
}

/** The folders the layout block names: a line `  name/  what` two spaces deeper than its parent. */
function documented(): string[] {
  const doc = readFileSync(path.join(ROOT, 'docs/development.md'), 'utf8');
  const block = /## Layout[\s\S]*?```text\n([\s\S]*?)```/.exec(doc)?.[1];
  if (block === undefined) throw new Error('docs/development.md has no ```text block under "## Layout"');
  const stack: string[] = [];
  const named: string[] = [];
  for (const line of block.split('\n').filter((l) => l.trim() !== '')) {
    const match = /^( *)([\w.-]+)\/(\s|$)/.exec(line);
    if (!match) throw new Error(`not a folder line: ${JSON.stringify(line)}`);
    const depth = match[1]!.length / 2;
    stack.length = depth;
    stack.push(match[2]!);
    named.push(stack.join('/'));
  }
  return named.filter((name) => name !== 'src');
}

it("docs/development.md's layout names every folder of src/ and no other", () => {
  expect(documented().sort()).toEqual(folders('src').sort());
});
