// schema.graphql is the printed schema: a change to the code that is not printed fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printedSchema } from '../../src/schema/printed';

describe('schema.graphql', () => {
  it('matches the schema the code builds (run `npm run schema` after changing it)', () => {
    const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(printedSchema());
  });
});
