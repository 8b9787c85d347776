// Evolution without breaking: schema.graphql may differ from schema.released.graphql (the last
// released schema) only as the deprecation policy allows: no type of a field, argument or input
// field changes; a removal needs a released deprecation whose date has come, and its announcement.
import { readFileSync } from 'node:fs';
import { buildSchema, isInterfaceType, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { announcedBreaking, policyViolations, todayUtc } from '../../scripts/schema-evolution';

const read = (name: string) => readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8');

const RELEASED = `type Query { a: ID, b(x: Int): Int, c: String, old: Int @deprecated(reason: "Use c. Removed on or after 2027-06-01.") }
type Thing { id: ID!, name: String }
enum Color { RED GREEN @deprecated(reason: "Use RED. Removed on or after 2026-01-01.") }
input In { key: ID, opt: Int! }`;
const CURRENT = `type Query { a: String, b(x: String): Int, c: String! }
type Thing { id: ID! }
enum Color { RED }
input In { key: String, opt: Int, must: Int! }`;

const ANNOUNCING = (...names: string[]) => ['## Unreleased — x', '### Breaking', ...names.map((n) => `- \`${n}\``)].join('\n');
const subjects = (changelog: string, today = '2026-11-28') =>
  policyViolations(RELEASED, CURRENT, changelog, today)
    .map((v) => v.subject)
    .sort();

describe('the schema-evolution check', () => {
  it('finds nothing in schema.graphql that the deprecation policy refuses (docs/api.md, "Deprecation policy")', () => {
    const found = policyViolations(read('schema.released.graphql'), read('schema.graphql'), read('CHANGELOG.md'), todayUtc());
    expect(found.map((v) => `${v.subject}: ${v.problem}`)).toEqual([]);
  });

  it('refuses every change of a type, even one graphql calls safe, and announcing it does not help', () => {
    const all = ['Query.a', 'Query.b', 'Query.c', 'In.key', 'In.opt', 'In.must', 'Thing.name', 'Color.GREEN', 'Query.old'];
    // Type changes (a, b's x, c made non-null, key, opt made nullable) and the new required input field stay refused.
    expect(subjects(ANNOUNCING(...all))).toEqual([
      'In.key',
      'In.must',
      'In.opt',
      'Query.a',
      'Query.b',
      'Query.c',
      'Query.old',
      'Thing.name',
    ]);
  });

  it('allows a removal only once its released deprecation date has come, and only when announced', () => {
    // Thing.name was never deprecated; Query.old's date is 2027-06-01; Color.GREEN's date has come.
    expect(subjects('')).toContain('Color.GREEN');
    expect(subjects(ANNOUNCING('Color.GREEN'))).not.toContain('Color.GREEN');
    expect(subjects(ANNOUNCING('Query.old'))).toContain('Query.old');
    expect(subjects(ANNOUNCING('Query.old'), '2027-06-01')).not.toContain('Query.old');
    expect(subjects(ANNOUNCING('Thing.name'), '2030-01-01')).toContain('Thing.name');
  });

  it('reads announcements from the Unreleased "### Breaking" lists only', () => {
    const changelog = [
      '## Unreleased — something',
      '### Added',
      '- `Query.b` takes a String now (not under Breaking: does not count)',
      '### Breaking',
      '- `Thing` lost `name`; `Color.GREEN` is gone',
      '- `In.key` and `In.must`',
      '## 1.0.0',
      '### Breaking',
      '- `Query.b` (released already: does not count)',
    ].join('\n');
    expect([...announcedBreaking(changelog)].sort()).toEqual(['Color.GREEN', 'In.key', 'In.must', 'Thing', 'name']);
  });
});

describe('deprecations', () => {
  it('give every field the gateway deprecates a replacement and a removal date', () => {
    const schema = buildSchema(read('schema.graphql'));
    const reasons = Object.values(schema.getTypeMap())
      .flatMap((t) =>
        isObjectType(t) || isInterfaceType(t) ? Object.values(t.getFields()).map((f) => [`${t.name}.${f.name}`, f.deprecationReason]) : [],
      )
      .filter(([, reason]) => reason != null && !reason.startsWith('Deprecated by the IM service'));
    expect(reasons.map(([field]) => field)).toEqual(
      expect.arrayContaining(['Subscription.conversationMessages', 'User.unreadConversations']),
    );
    for (const [field, reason] of reasons) expect(`${field}: ${reason}`).toMatch(/: Use .+\. Removed on or after \d{4}-\d{2}-\d{2}\.$/);
  });
});
