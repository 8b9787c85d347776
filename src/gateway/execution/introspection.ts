// Introspection off (production, unless INTROSPECTION=true): `__schema` and `__type` are refused in
// validation with the code INTROSPECTION_DISABLED, over HTTP and WebSocket alike (both run these
// plugins); `__typename` still answers, clients' caches need it. The schema would otherwise leak
// through graphql-js's suggestions too ("Cannot query field "mee" on type "Query". Did you mean
// "me"?"), so they are cut from request errors: validation, and variables refused before execution.
import { type ExecutionResult, getNamedType, GraphQLError, isIntrospectionType, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { AfterExecute } from './result-caps';

/** graphql-js's NoSchemaIntrospectionCustomRule, reporting our code, once per refused field (not again for its subfields). */
const refuseIntrospection: ValidationRule = (context) => ({
  Field(node) {
    const type = getNamedType(context.getType());
    if (type && isIntrospectionType(type)) {
      context.reportError(
        new GraphQLError(`Introspection is disabled on this gateway: "${node.name.value}" cannot be queried.`, {
          nodes: node,
          extensions: { code: 'INTROSPECTION_DISABLED' },
        }),
      );
      return false;
    }
    return undefined;
  },
});

// graphql-js's didYouMean() ends a message with ` Did you mean "a", "b", or "c"?` (or "the enum value ...").
const SUGGESTION = /\s*Did you mean .*\?$/s;

function withoutSuggestion<E extends Error>(error: E): E | GraphQLError {
  if (!(error instanceof GraphQLError) || !SUGGESTION.test(error.message)) return error;
  return new GraphQLError(error.message.replace(SUGGESTION, ''), {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}

/** A result refused before execution (no data) with its suggestions cut; anything else as it was. */
function quietRequestErrors(result: ExecutionResult, setResult: (result: ExecutionResult) => void): void {
  if (result.data !== undefined || !result.errors?.some((e) => SUGGESTION.test(e.message))) return;
  setResult({ ...result, errors: result.errors.map(withoutSuggestion) });
}

const isStream = <R extends object>(result: R | AsyncIterable<unknown>): result is AsyncIterable<unknown> => Symbol.asyncIterator in result;

// The same hooks for every operation: they hold nothing of it (an object and a closure less per request).
const afterExecute: AfterExecute = {
  onExecuteDone({ result, setResult }) {
    if (!isStream(result)) quietRequestErrors(result, setResult);
  },
};

export function useIntrospectionRefusal(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(refuseIntrospection);
      return ({ result, setResult }) => {
        if (result.some((e) => SUGGESTION.test(e.message))) setResult(result.map(withoutSuggestion));
      };
    },
    onExecute: () => afterExecute,
    onSubscribe: () => ({
      onSubscribeResult({ result, setResult }) {
        if (!isStream(result)) quietRequestErrors(result, setResult);
      },
    }),
  };
}
