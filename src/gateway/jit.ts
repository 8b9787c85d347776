// Compiled execution: queries and mutations run as graphql-jit compiles them (through envelop's
// plugin), which measured about half the CPU per query here (bench/RESULTS.md). An operation
// graphql-jit cannot compile runs on graphql-js as before (the plugin alone would answer its
// compile errors instead), and subscriptions always do. So does an operation whose variables
// graphql-js refuses: graphql-jit words those refusals its own way (dropping, for one, what our
// scalars say), and clients get graphql-js's words whichever way an operation runs. Its field
// errors keep their locations (graphql-error.ts `locatedAs`) and its results list `errors` before
// `data`, as graphql-js does: the JSON is the same either way (test/gateway/jit.test.ts).
import { useGraphQlJit } from '@envelop/graphql-jit';
import {
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  type OperationDefinitionNode,
  type SourceLocation,
  visit,
} from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

/** The document's fields by where they start ("line:column"), as graphql-jit's errors locate them. */
const fieldsByLocation = new WeakMap<DocumentNode, Map<string, FieldNode>>();
function fieldAt(document: DocumentNode, { line, column }: SourceLocation): FieldNode | undefined {
  let fields = fieldsByLocation.get(document);
  if (!fields) {
    const found = new Map<string, FieldNode>();
    visit(document, { Field: (node) => void (node.loc && found.set(`${node.loc.startToken.line}:${node.loc.startToken.column}`, node)) });
    fieldsByLocation.set(document, (fields = found));
  }
  return fields.get(`${line}:${column}`);
}

/**
 * graphql-jit's field error as graphql-js makes it: with its field nodes (yoga rebuilds every error
 * from its nodes, source and positions before writing it, and graphql-jit's carry `locations` only).
 */
function asGraphqlJsError(document: DocumentNode, error: GraphQLError): GraphQLError {
  if (error.nodes || !error.locations) return error;
  const nodes = error.locations.map((at) => fieldAt(document, at)).filter((node) => node !== undefined);
  if (nodes.length !== error.locations.length) return error;
  return new GraphQLError(error.message, { nodes, path: error.path, originalError: error.originalError, extensions: error.extensions });
}

/** graphql-js's key order: errors, data, extensions. */
function inGraphqlJsOrder(document: DocumentNode, result: ExecutionResult): ExecutionResult {
  const { errors, data, extensions } = result;
  return { errors: errors?.map((e) => asGraphqlJsError(document, e)), data, ...(extensions === undefined ? {} : { extensions }) };
}

interface Compilable {
  operation: OperationDefinitionNode | null | undefined;
  compiles: boolean;
}

export function useCompiledExecution(): Plugin {
  // Per parsed document (yoga's parse cache hands out the same one for the same text) and operation.
  const known = new WeakMap<DocumentNode, Map<string, Compilable>>();
  const compiled = useGraphQlJit(
    {},
    {
      enableIf(args) {
        let byName = known.get(args.document);
        if (!byName) known.set(args.document, (byName = new Map()));
        const name = args.operationName ?? '';
        let entry = byName.get(name);
        if (!entry) {
          const operation = getOperationAST(args.document, args.operationName);
          const compiles =
            !!operation &&
            operation.operation !== 'subscription' &&
            isCompiledQuery(compileQuery(args.schema, args.document, args.operationName ?? undefined));
          byName.set(name, (entry = { operation, compiles }));
        }
        if (!entry.compiles) return false;
        const definitions = entry.operation!.variableDefinitions;
        return !(definitions?.length && getVariableValues(args.schema, definitions, args.variableValues ?? {}).errors);
      },
    },
  ) as Plugin;
  return {
    onPluginInit({ addPlugin }) {
      addPlugin(compiled);
    },
    onExecute({ args }) {
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result || !result.errors) return;
          setResult(inGraphqlJsOrder(args.document, result));
        },
      };
    },
  };
}
