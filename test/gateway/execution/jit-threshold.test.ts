// Compiled execution pays only for operations that run again: an operation is compiled on its nth
// run (GRAPHQL_JIT_AFTER, default 2), per document and operation name; subscriptions never are.
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config';
import { useCompiledExecution } from '../../../src/gateway/execution/jit';
import { schema } from '../../../src/schema';

type OnExecute = (payload: { args: Record<string, unknown>; setExecuteFn: (fn: unknown) => void }) => unknown;

/** Which of `runs` executions of the operation were handed the compiled executor. */
function compiledRuns(
  afterRuns: number,
  runs: { document: ReturnType<typeof parse>; operationName?: string }[],
  precompiled?: ReturnType<typeof parse>,
): boolean[] {
  const plugin = useCompiledExecution({ afterRuns });
  if (precompiled) plugin.precompile(schema, precompiled);
  const onExecute = (plugin as unknown as { onExecute: OnExecute }).onExecute;
  return runs.map(({ document, operationName }) => {
    let compiled = false;
    onExecute({ args: { schema, document, operationName, variableValues: {} }, setExecuteFn: () => (compiled = true) });
    return compiled;
  });
}

describe('compiled execution', () => {
  it('compiles an operation on its nth run, and runs it compiled from then on', () => {
    const document = parse('{ me { id } }');
    expect(
      compiledRuns(
        3,
        Array.from({ length: 5 }, () => ({ document })),
      ),
    ).toEqual([false, false, true, true, true]);
  });

  it('counts the runs of each operation of a document apart', () => {
    const document = parse('query A { me { id } } query B { me { username } }');
    const a = { document, operationName: 'A' };
    const b = { document, operationName: 'B' };
    expect(compiledRuns(2, [a, b, a, b, b])).toEqual([false, false, true, true, true]);
  });

  it('never compiles a subscription', () => {
    const document = parse('subscription { unreadCounts { unreadCount } }');
    expect(compiledRuns(1, [{ document }, { document }])).toEqual([false, false]);
  });

  it('runs a precompiled document (warm start) compiled from its first run, named or not', () => {
    const document = parse('query Me { me { id } }');
    expect(compiledRuns(2, [{ document }, { document, operationName: 'Me' }], document)).toEqual([true, true]);
  });

  it('compiles on the second run by default', () => {
    expect(loadConfig({ PORT: '1' }).jitAfterRuns).toBe(2);
  });
});
