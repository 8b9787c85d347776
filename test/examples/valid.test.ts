// Every operation under examples/ validates against the schema the code builds, and GraphiQL's
// default document shows each of them: a schema change that breaks an example fails here by name.
import { readdirSync, readFileSync } from 'node:fs';
import { Kind, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT } from '../../src/gateway/http/graphiql';
import { schema } from '../../src/schema';

const dir = new URL('../../examples/', import.meta.url);
const files = readdirSync(dir).filter((name) => name.endsWith('.graphql'));

describe('examples/', () => {
  it('holds the operations', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s is valid against the schema', (name) => {
    const errors = validate(schema, parse(readFileSync(new URL(name, dir), 'utf8'))).map((e) => e.message);
    expect(errors).toEqual([]);
  });

  // GraphiQL runs the operation picked from its document alone, with the document's fragments: a
  // fragment that only other operations use fails validation as unused. Examples hold none.
  it.each(files)('%s declares no fragment, so each operation runs alone from GraphiQL', (name) => {
    const definitions = parse(readFileSync(new URL(name, dir), 'utf8')).definitions;
    expect(definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION)).toEqual([]);
  });

  it.each(files)('%s is in GraphiQL’s default document', (name) => {
    expect(DEFAULT_DOCUMENT).toContain(readFileSync(new URL(name, dir), 'utf8'));
  });
});
