// The generated typed documents match the schema and the operations: a stale copy fails here.
import { readFileSync } from 'node:fs';
import { generate } from '@graphql-codegen/cli';
import { describe, expect, it } from 'vitest';
import config from '../../codegen';

describe('generated client code', () => {
  it('is what `npm run codegen` writes now', async () => {
    const outputs = await generate({ ...config, silent: true }, false);
    expect(outputs.length).toBeGreaterThan(0);
    for (const output of outputs) {
      expect(readFileSync(output.filename, 'utf8'), `${output.filename} is stale: run npm run codegen`).toBe(output.content);
    }
  });
});
