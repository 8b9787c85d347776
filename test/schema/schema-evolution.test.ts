// Evolution without breaking: schema.graphql may differ from schema.released.graphql (the last
// released schema) only compatibly, or by a breaking change CHANGELOG.md announces under
// "## Unreleased …" / "### Breaking" as `Type.field` (or `Type`).
import { readFileSync } from 'node:fs';
import { buildSchema, isInterfaceType, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { announcedBreaking, subjectOf, unannouncedBreakingChanges } from '../../scripts/schema-evolution';

const read = (name: string) => readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8');

const RELEASED = `type Query { a: ID, b(x: Int): Int }
type Thing { id: ID!, name: String }
enum Color { RED GREEN }
input In { key: ID }`;
const CURRENT = `type Query { a: ID, b(x: String): Int }
type Thing { id: String! }
enum Color { RED }
input In { key: String, must: Int! }`;

describe('the breaking-change check', () => {
  it('finds no breaking change in schema.graphql that CHANGELOG.md does not announce (see README "Deprecation policy")', () => {
    const missing = unannouncedBreakingChanges(read('schema.released.graphql'), read('schema.graphql'), read('CHANGELOG.md'));
    expect(missing.map((c) => c.description)).toEqual([]);
  });

  it('names each breaking change by the Type.field an announcement must carry', () => {
    expect(unannouncedBreakingChanges(RELEASED, CURRENT, '').map(subjectOf).sort()).toEqual([
      'Color.GREEN',
      'In.key',
      'In.must',
      'Query.b',
      'Thing.id',
      'Thing.name',
    ]);
  });

  it('accepts what an Unreleased "### Breaking" list names, a type covering its fields, and nothing from elsewhere', () => {
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
    expect(unannouncedBreakingChanges(RELEASED, CURRENT, changelog).map(subjectOf)).toEqual(['Query.b']);
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
