// schema.graphql is the printed schema: a change to the code that is not printed fails here. It
// declares what the gateway serves, @defer and @stream included, so client tooling that validates
// documents against it (codegen) accepts what the gateway accepts.
import { readFileSync } from 'node:fs';
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { printedSchema } from '../../src/schema/printed';

const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');

describe('schema.graphql', () => {
  it('matches the schema the code builds (run `npm run schema` after changing it)', () => {
    expect(committed).toBe(printedSchema());
  });

  it('declares @defer and @stream: a deferred fragment and a streamed list validate against it', () => {
    const document = parse(`query Home {
      me { id ... @defer(label: "profile") { username } conversations(first: 5) { edges @stream(initialCount: 1) { cursor } } }
    }`);
    expect(validate(buildSchema(committed), document).map((e) => e.message)).toEqual([]);
  });
});
