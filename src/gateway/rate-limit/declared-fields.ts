// The root mutation fields of an operation that declare something on their schema field (sign-in
// names, fan-out), through aliases and fragments, with each one's coerced `input`: what the
// sign-in and fan-out limits count before the operation runs. Directives aside: a skipped field
// still counts. An operation whose variables do not coerce is left to execution, which refuses it;
// so is a field whose arguments do not.
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

/** The root fields of a selection set, through fragments. */
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

export interface DeclaredField<D> {
  /** Where the field answers in `data` (its alias, else its name). */
  readonly responseKey: string;
  readonly declared: D;
  /** The field's coerced `input` argument ({} when it takes none). */
  readonly input: Readonly<Record<string, unknown>>;
}

/** The root mutation fields declaring `declarationOf`, in document order; [] for any other operation. */
export function declaredMutationFields<D>(
  args: ExecutionArgs,
  declarationOf: (field: GraphQLField<unknown, unknown>) => D | undefined,
): DeclaredField<D>[] {
  const operation = getOperationAST(args.document, args.operationName);
  if (operation?.operation !== 'mutation') return [];
  const root = args.schema.getMutationType()!.getFields();
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of args.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const guarded = rootFields(operation.selectionSet, fragments).flatMap((node) => {
    const field = root[node.name.value] as GraphQLField<unknown, unknown> | undefined;
    const declared = field && declarationOf(field);
    return field && declared !== undefined ? [{ node, field, declared }] : [];
  });
  if (guarded.length === 0) return [];
  const coerced = getVariableValues(args.schema, operation.variableDefinitions ?? [], args.variableValues ?? {});
  if (coerced.errors) return [];
  return guarded.flatMap(({ node, field, declared }) => {
    try {
      const values = getArgumentValues(field, node, coerced.coerced);
      const input = (values.input ?? {}) as Record<string, unknown>;
      return [{ responseKey: node.alias?.value ?? node.name.value, declared, input }];
    } catch {
      // Execution refuses the field with the same error, before any call.
      return [];
    }
  });
}
