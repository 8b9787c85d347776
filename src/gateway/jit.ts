// Compiled execution: queries and mutations run as graphql-jit compiles them (through envelop's
// plugin), which measured 30-50% less CPU per query here (bench/RESULTS.md). An operation
// graphql-jit cannot compile runs on graphql-js as before (the plugin alone would answer its
// compile errors instead), and subscriptions always do. So does an operation whose variables
// graphql-js refuses: graphql-jit words those refusals its own way (dropping, for one, what our
// scalars say), and clients get graphql-js's words whichever way an operation runs.
import { useGraphQlJit } from '@envelop/graphql-jit';
import { type DocumentNode, getOperationAST, getVariableValues } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

export function useCompiledExecution(): Plugin {
  // Per parsed document (yoga's parse cache hands out the same one for the same text) and operation.
  const compilable = new WeakMap<DocumentNode, Map<string, boolean>>();
  return useGraphQlJit(
    {},
    {
      enableIf(args) {
        const operation = getOperationAST(args.document, args.operationName);
        if (!operation || operation.operation === 'subscription') return false;
        const definitions = operation.variableDefinitions;
        if (definitions?.length && getVariableValues(args.schema, definitions, args.variableValues ?? {}).errors) return false;
        let byName = compilable.get(args.document);
        if (!byName) compilable.set(args.document, (byName = new Map()));
        const name = args.operationName ?? '';
        let ok = byName.get(name);
        if (ok === undefined) {
          ok = isCompiledQuery(compileQuery(args.schema, args.document, args.operationName ?? undefined));
          byName.set(name, ok);
        }
        return ok;
      },
    },
  ) as Plugin;
}
