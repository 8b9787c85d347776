// The trusted documents' manifest that ships (src/generated/persisted-documents.json) is the one
// examples/ make: every operation there, nothing else, each under the SHA-256 of its text.
// (codegen-fresh.test.ts compares the whole file with what `npm run codegen` writes now.)
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import manifest from '../../src/generated/persisted-documents.json' with { type: 'json' };

const exampleOperations = readdirSync('examples')
  .filter((file) => file.endsWith('.graphql'))
  .flatMap((file) => parse(readFileSync(join('examples', file), 'utf8')).definitions)
  .flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? [d.name!.value] : []));

describe('the committed persisted-documents manifest', () => {
  it('names every document by the SHA-256 of its text, as sha256:<hex>', () => {
    for (const [id, document] of Object.entries(manifest)) {
      expect(id).toBe(`sha256:${createHash('sha256').update(document).digest('hex')}`);
    }
  });

  it('holds exactly the operations of examples/', () => {
    const names = Object.values(manifest).flatMap((document) =>
      parse(document).definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? [d.name!.value] : [])),
    );
    expect(names.sort()).toEqual([...exampleOperations].sort());
  });
});
