// What a field's selection asks for, read through inline fragments and fragment spreads by one
// walker: for a write that must read something before it changes it (a recalled message is gone
// afterwards), and for the reads a parent starts ahead of its fields (speculative.ts).
import { type FieldNode, type GraphQLResolveInfo, isObjectType, Kind, type SelectionSetNode } from 'graphql';

/** Fragments nest at most this deep here (the document depth limit is far below). */
const MAX_DEPTH = 16;

/**
 * Visits the fields of a selection set, through fragments, until `visit` answers true (then
 * answers true itself). With `typeName`, a fragment on another object type is passed over (a
 * `node` selection's `... on Group` is not the Member's); one on an interface or union is entered.
 */
export function someField(
  info: GraphQLResolveInfo,
  set: SelectionSetNode | undefined,
  visit: (field: FieldNode) => boolean,
  typeName?: string,
  depth = 0,
): boolean {
  if (!set || depth > MAX_DEPTH) return false;
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) {
      if (visit(s)) return true;
      continue;
    }
    const fragment = s.kind === Kind.INLINE_FRAGMENT ? s : info.fragments[s.name.value];
    const on = fragment?.typeCondition?.name.value;
    if (typeName !== undefined && on !== undefined && on !== typeName && isObjectType(info.schema.getType(on))) continue;
    if (someField(info, fragment?.selectionSet, visit, typeName, depth + 1)) return true;
  }
  return false;
}

/**
 * The fields of the resolving field's selection (all its nodes), or of `nodes` (a field below it),
 * through fragments (see `someField`).
 */
export function selectedFields(info: GraphQLResolveInfo, typeName?: string, nodes: readonly FieldNode[] = info.fieldNodes): FieldNode[] {
  const fields: FieldNode[] = [];
  const collect = (field: FieldNode) => {
    fields.push(field);
    return false;
  };
  for (const node of nodes) someField(info, node.selectionSet, collect, typeName);
  return fields;
}

const anyField = (info: GraphQLResolveInfo, test: (name: string) => boolean) =>
  info.fieldNodes.some((node) => someField(info, node.selectionSet, (f) => test(f.name.value)));

/** Whether the resolving field selects `name` directly below it (in any of its nodes). */
export const selects = (info: GraphQLResolveInfo, name: string): boolean => anyField(info, (n) => n === name);

/** Whether the resolving field selects anything below it besides these fields. */
export const selectsBeyond = (info: GraphQLResolveInfo, names: readonly string[]): boolean => anyField(info, (n) => !names.includes(n));

/** Whether a field's selection names `name` at any depth below it (the `role` of a member page's nodes). */
export function selectsDeep(info: GraphQLResolveInfo, node: FieldNode, name: string, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  return someField(info, node.selectionSet, (f) => f.name.value === name || selectsDeep(info, f, name, depth + 1));
}
