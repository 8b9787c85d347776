// A persisted document runs from the same compiled operation as its text: yoga's parse cache hands
// out one parsed document per text, and compiled execution keys its cache by that document.
import type * as GraphqlJit from 'graphql-jit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import manifest from '../../../src/generated/persisted-documents.json' with { type: 'json' };
import type { TestUser } from '../../helpers/emulator';
import { startStack, type Stack } from '../../helpers/stack';
import { post } from './send';

const compiled = vi.hoisted(() => ({ names: [] as (string | undefined)[] }));
vi.mock('graphql-jit', async (original) => {
  const jit = await original<typeof GraphqlJit>();
  return {
    ...jit,
    compileQuery: (...args: Parameters<typeof jit.compileQuery>) => {
      compiled.names.push(args[2]);
      return jit.compileQuery(...args);
    },
  };
});

const [id, document] = Object.entries(manifest).find(([, d]) => d.startsWith('query Me '))!;

describe.skipIf(process.env.GRAPHQL_JIT === 'false')('persisted documents and compiled execution', () => {
  let stack: Stack;
  let user: TestUser;
  beforeAll(async () => {
    stack = await startStack();
    user = await stack.emu.user();
  });
  afterAll(() => stack.stop());

  it('compiles Me once, before /ready, for its text and its documentId together', async () => {
    // Warm start compiled every persisted document once (lifecycle/warm-up.ts); requests compile nothing more.
    expect(compiled.names.filter((name) => name === 'Me')).toEqual(['Me']);
    const before = compiled.names.length;
    const headers = { 'access-token': user.token, app_id: stack.emu.appId };
    const answers = [
      await post(stack.url, { query: document }, headers),
      await post(stack.url, { documentId: id }, headers),
      await post(stack.url, { documentId: id.slice('sha256:'.length) }, headers),
    ];
    for (const answer of answers) expect(answer.body?.data?.me).toMatchObject({ id: String(user.id) });
    expect(compiled.names.slice(before)).toEqual([]);
  });
});
