// Compiled execution: queries and mutations run as graphql-jit compiles them, which measured
// about half the CPU per query here (bench/RESULTS.md). Compiled once per parsed document and
// operation name (envelop's graphql-jit plugin keyed its cache by the document alone, so a
// document of several operations ran the first one compiled, whatever the request named). An
// operation graphql-jit cannot compile runs on graphql-js, and subscriptions and documents with
// @defer or @stream always do (graphql-jit has no incremental delivery). So does
// an operation whose variables graphql-js refuses: graphql-jit words those refusals its own way
// (dropping, for one, what our scalars say). Its field errors keep their locations
// (`asGraphqlJsError` below) and its results list `errors` before
// `data`, as graphql-js does: the JSON is the same either way (test/gateway/execution/jit.test.ts).
import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type SourceLocation,
  visit,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { makeExecute, type Plugin } from 'graphql-yoga';
import { usesIncrementalDelivery } from './incremental';
import { jitVariables } from './jit-variables';

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

/**
 * Variable errors reported before coercion stops, as graphql-js's own execute does: without a cap,
 * a list of 100,000 invalid IDs built 100,000 errors on the event loop (seconds, no token needed).
 */
const MAX_VARIABLE_ERRORS = 50;

interface Compiled {
  readonly operation: OperationDefinitionNode | null | undefined;
  /** Runs so far, up to the one that compiles it. */
  runs: number;
  /** Undefined: not compiled (yet), graphql-jit cannot compile it, or a subscription: graphql-js runs it. */
  query: CompiledQuery | undefined;
}

interface CompiledExecutionOptions {
  /**
   * Compile an operation on its nth run. Compiling costs about 1-5 ms here, tens of runs of a
   * small query: a document sent once (a one-off, or a flood of distinct ones) is not worth it.
   */
  afterRuns: number;
}

/** The compiled-execution plugin, which can also compile documents ahead of their first run. */
export interface CompiledExecution extends Plugin {
  /**
   * Compiles every operation of a parsed document now, as its `afterRuns`th run would (warm start:
   * the persisted documents, before /ready answers 200); answers how many it compiled.
   */
  precompile(schema: GraphQLSchema, document: DocumentNode): number;
  /** Whether the named operation of the document runs compiled. */
  isCompiled(document: DocumentNode, operationName?: string): boolean;
}

export function useCompiledExecution({ afterRuns }: CompiledExecutionOptions): CompiledExecution {
  // Per parsed document (yoga's parse cache hands out the same one for the same text) and
  // operation name: a document of several operations runs the one each request names.
  const known = new WeakMap<DocumentNode, Map<string, Compiled>>();
  const entryOf = (document: DocumentNode, operationName: string | null | undefined): Compiled => {
    let byName = known.get(document);
    if (!byName) known.set(document, (byName = new Map()));
    const name = operationName ?? '';
    let entry = byName.get(name);
    if (!entry) byName.set(name, (entry = { operation: getOperationAST(document, operationName), runs: 0, query: undefined }));
    return entry;
  };
  const compile = (entry: Compiled, schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined) => {
    entry.runs = afterRuns;
    // Subscriptions and deferred or streamed answers (several payloads) run on graphql-js.
    const compilable = entry.operation && entry.operation.operation !== 'subscription' && !usesIncrementalDelivery(document);
    if (!compilable) return;
    const compiled = compileQuery(schema, document, operationName ?? undefined);
    if (isCompiledQuery(compiled)) entry.query = compiled;
  };
  const compiledFor = (args: ExecutionArgs): Compiled => {
    const entry = entryOf(args.document, args.operationName);
    if (entry.runs < afterRuns && entry.runs + 1 === afterRuns) compile(entry, args.schema, args.document, args.operationName);
    else if (entry.runs < afterRuns) entry.runs++;
    return entry;
  };
  const execute = makeExecute((args) => {
    const query = known.get(args.document)!.get(args.operationName ?? '')!.query!;
    // graphql-jit's serializer for this operation's shape: yoga writes the result with it.
    const withStringify = (result: ExecutionResult) => Object.assign(result, { stringify: query.stringify });
    const result = query.query(args.rootValue, args.contextValue, args.variableValues);
    return result instanceof Promise ? result.then(withStringify) : withStringify(result);
  });
  // One object for every compiled run: it puts graphql-jit's errors in graphql-js's form.
  const compiledDone = {
    onExecuteDone({
      args,
      result,
      setResult,
    }: {
      args: ExecutionArgs;
      result: ExecutionResult | AsyncIterable<ExecutionResult>;
      setResult: (r: ExecutionResult) => void;
    }) {
      if (Symbol.asyncIterator in result || !result.errors) return;
      setResult(inGraphqlJsOrder(args.document, result));
    },
  };
  return {
    precompile(schema, document) {
      const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
      let count = 0;
      for (const operation of operations) {
        const name = operation.name?.value;
        const entry = entryOf(document, name);
        if (entry.runs < afterRuns) compile(entry, schema, document, name);
        if (!entry.query) continue;
        count++;
        // A document's only operation also runs when the request names none: the same compiled query.
        const unnamed = operations.length === 1 && name !== undefined ? entryOf(document, undefined) : undefined;
        if (unnamed && unnamed.runs < afterRuns) Object.assign(unnamed, { runs: afterRuns, query: entry.query });
      }
      return count;
    },
    isCompiled: (document, operationName) => known.get(document)?.get(operationName ?? '')?.query !== undefined,
    onExecute({ args, setExecuteFn }) {
      const entry = compiledFor(args);
      if (!entry.query) return undefined;
      const definitions = entry.operation?.variableDefinitions;
      if (!definitions?.length) {
        setExecuteFn(execute);
        return compiledDone;
      }
      const raw = args.variableValues ?? {};
      const { coerced } = getVariableValues(args.schema, definitions, raw, { maxErrors: MAX_VARIABLE_ERRORS });
      if (!coerced) return undefined;
      const variableValues = jitVariables(args.schema, definitions, raw, coerced);
      setExecuteFn((execution: ExecutionArgs) => execute({ ...execution, variableValues }));
      return compiledDone;
    },
  };
}
