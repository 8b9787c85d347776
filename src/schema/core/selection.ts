// Whether a field's selection names a sub-field, through fragments too: for a write that must
// read something before it changes it (a recalled message is gone afterwards), only when asked.
import { type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';

/** Fragments nest at most this deep here (the document depth limit is far below). */
const MAX_DEPTH = 16;

function names(info: GraphQLResolveInfo, set: SelectionSetNode | undefined, name: string, depth: number): boolean {
  if (!set || depth > MAX_DEPTH) return false;
  return set.selections.some((s) => {
    if (s.kind === Kind.FIELD) return s.name.value === name;
    if (s.kind === Kind.INLINE_FRAGMENT) return names(info, s.selectionSet, name, depth + 1);
    return names(info, info.fragments[s.name.value]?.selectionSet, name, depth + 1);
  });
}

/** Whether the resolving field selects `name` directly below it (in any of its nodes). */
export const selects = (info: GraphQLResolveInfo, name: string): boolean =>
  info.fieldNodes.some((node) => names(info, node.selectionSet, name, 0));
