// Whether a field's selection names a sub-field, through fragments too: for a write that must
// read something before it changes it (a recalled message is gone afterwards), only when asked.
import { type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';

/** Fragments nest at most this deep here (the document depth limit is far below). */
const MAX_DEPTH = 16;

function some(info: GraphQLResolveInfo, set: SelectionSetNode | undefined, test: (name: string) => boolean, depth: number): boolean {
  if (!set || depth > MAX_DEPTH) return false;
  return set.selections.some((s) => {
    if (s.kind === Kind.FIELD) return test(s.name.value);
    if (s.kind === Kind.INLINE_FRAGMENT) return some(info, s.selectionSet, test, depth + 1);
    return some(info, info.fragments[s.name.value]?.selectionSet, test, depth + 1);
  });
}

const anyField = (info: GraphQLResolveInfo, test: (name: string) => boolean) =>
  info.fieldNodes.some((node) => some(info, node.selectionSet, test, 0));

/** Whether the resolving field selects `name` directly below it (in any of its nodes). */
export const selects = (info: GraphQLResolveInfo, name: string): boolean => anyField(info, (n) => n === name);

/** Whether the resolving field selects anything below it besides these fields. */
export const selectsBeyond = (info: GraphQLResolveInfo, names: readonly string[]): boolean => anyField(info, (n) => !names.includes(n));
