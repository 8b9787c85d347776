// The sign-in limits on every transport (HTTP on either path, batches, SSE, graphql-ws: the same
// envelop hook runs), for persisted documents as for sent ones: before a mutation runs, its root
// fields that declare sign-in names (schema/core/sign-in.ts) are counted, every alias and
// fragment, and taken from the sign-in buckets (sign-in-limiter.ts). Over a limit the operation
// is refused whole with RATE_LIMITED (HTTP 429 and Retry-After on a request of its own) and runs
// nothing. An operation whose variables do not coerce is left to execution, which refuses it.
import {
  type ExecutionArgs,
  type FieldNode,
  type FragmentDefinitionNode,
  getArgumentValues,
  getOperationAST,
  getVariableValues,
  type GraphQLField,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../../context';
import { signInNamesOf } from '../../schema/core/sign-in';
import type { SignInLimiter, SignInTry } from './sign-in-limiter';

type Context = GatewayContext & { connectionParams?: unknown };

/** The root fields of a selection set, through fragments (directives aside: a skipped field still counts). */
function rootFields(
  selections: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): FieldNode[] {
  const fields: FieldNode[] = [];
  for (const selection of selections.selections) {
    if (selection.kind === Kind.FIELD) fields.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) fields.push(...rootFields(selection.selectionSet, fragments, seen));
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) fields.push(...rootFields(fragment.selectionSet, fragments, seen));
    }
  }
  return fields;
}

/** What the operation tries, or undefined when it is no sign-in (or its variables do not coerce). */
function triesOf(args: ExecutionArgs): Omit<SignInTry, 'address' | 'appId'> | undefined {
  const operation = getOperationAST(args.document, args.operationName);
  if (operation?.operation !== 'mutation') return undefined;
  const root = args.schema.getMutationType()!.getFields();
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of args.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const guarded = rootFields(operation.selectionSet, fragments).flatMap((node) => {
    const field = root[node.name.value] as GraphQLField<unknown, unknown> | undefined;
    const names = field && signInNamesOf(field);
    return field && names ? [{ node, field, names }] : [];
  });
  if (guarded.length === 0) return undefined;
  const coerced = getVariableValues(args.schema, operation.variableDefinitions ?? [], args.variableValues ?? {});
  if (coerced.errors) return undefined;
  const caller = (args.contextValue as Context).caller;
  let fields = 0;
  const names: string[] = [];
  for (const { node, field, names: namesOf } of guarded) {
    let values: Record<string, unknown>;
    try {
      values = getArgumentValues(field, node, coerced.coerced);
    } catch {
      // Execution refuses the field with the same error, before any call.
      continue;
    }
    const tried = namesOf((values.input ?? {}) as Record<string, unknown>, caller);
    if (!tried) continue;
    fields++;
    names.push(...tried);
  }
  return fields === 0 ? undefined : { fields, names };
}

export function useSignInLimit(limiter: SignInLimiter): Plugin {
  return {
    // Not async: an operation that is no sign-in (nearly all) returns at once, and envelop then
    // runs execution without a promise and a microtask turn for this hook.
    onExecute({ args, setResultAndStopExecution }) {
      const tries = triesOf(args);
      if (!tries) return;
      const ctx = args.contextValue as unknown as Context;
      const transport = ctx.connectionParams === undefined ? 'http' : 'ws';
      return limiter.admit({ ...tries, address: ctx.identity.address, appId: ctx.identity.appId }, transport).then((refused) => {
        if (refused) setResultAndStopExecution({ errors: [refused] });
      });
    },
  };
}
