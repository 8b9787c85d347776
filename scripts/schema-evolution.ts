// The breaking-change check (`npm run schema:breaking`, and a test in `npm test`): every breaking
// change graphql's findBreakingChanges finds between schema.released.graphql (the last released
// schema) and schema.graphql must be announced in CHANGELOG.md, as a line under a "### Breaking"
// heading inside a "## Unreleased" section naming its subject in backticks: `Type.field` (a field,
// an argument of it, an input field, an enum value) or `Type` (the type itself, or all of it).
import { readFileSync } from 'node:fs';
import { type BreakingChange, buildSchema, findBreakingChanges } from 'graphql';

/** What a change is about, as the announcement names it: "Type.field", or "Type". */
export function subjectOf(change: BreakingChange): string {
  const d = change.description;
  // "A required field f on input type T was added", "A required arg a on T.f was added"
  const added = /^A (?:required|non-null) (?:field|arg) (\w+) on (?:input type )?([\w.]+)/.exec(d);
  if (added) return added[2]!.includes('.') ? added[2]! : `${added[2]}.${added[1]}`;
  // "T.f changed type ...", "T.f arg a was removed", "T.f was removed", "ENUM_VALUE was removed from enum type E"
  const dotted = /^(\w+\.\w+)\b/.exec(d);
  if (dotted) return dotted[1]!;
  const fromType = /^(\w+) was removed from (?:enum|union) type (\w+)/.exec(d);
  if (fromType) return `${fromType[2]}.${fromType[1]}`;
  // "T was removed.", "T changed from an Object type to ...", "T no longer implements interface I."
  return /^(\w+)/.exec(d)?.[1] ?? d;
}

/** The subjects announced as breaking in CHANGELOG text: backticked names on the lines of "### Breaking" under "## Unreleased". */
export function announcedBreaking(changelog: string): Set<string> {
  const announced = new Set<string>();
  let unreleased = false;
  let breaking = false;
  for (const line of changelog.split('\n')) {
    if (line.startsWith('## ')) {
      unreleased = /^## Unreleased\b/.test(line);
      breaking = false;
    } else if (line.startsWith('### ')) {
      breaking = unreleased && /^### Breaking\b/.test(line);
    } else if (breaking) {
      for (const m of line.matchAll(/`([A-Za-z_]\w*(?:\.\w+)?)/g)) announced.add(m[1]!);
    }
  }
  return announced;
}

/** Breaking changes from `released` to `current` that `changelog` does not announce. */
export function unannouncedBreakingChanges(released: string, current: string, changelog: string): BreakingChange[] {
  const announced = announcedBreaking(changelog);
  return findBreakingChanges(buildSchema(released), buildSchema(current)).filter((change) => {
    const subject = subjectOf(change);
    return !announced.has(subject) && !announced.has(subject.split('.')[0]!);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const read = (name: string) => readFileSync(new URL(`../${name}`, import.meta.url), 'utf8');
  const missing = unannouncedBreakingChanges(read('schema.released.graphql'), read('schema.graphql'), read('CHANGELOG.md'));
  for (const change of missing) console.log(`${subjectOf(change)}: ${change.description}`);
  if (missing.length > 0) {
    console.log('Announce each under "## Unreleased ..." / "### Breaking" in CHANGELOG.md, or undo it.');
    process.exitCode = 1;
  } else console.log('No unannounced breaking change.');
}
