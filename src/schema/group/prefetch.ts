// Reads of a group's selected fields started by `group(id:)` beside the call that says whether the
// group exists (existence.ts), so the fields find them in flight (the request's memo of identical
// GETs) instead of starting them one round trip later. Each field module registers what its field
// reads, with the very call its resolver makes; a field without an entry starts when it resolves.
// Speculative only for a missing group: then the reads fail unseen (the answer is null, as before).
import {
  type FieldNode,
  getArgumentValues,
  getNamedType,
  type GraphQLResolveInfo,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import type { GatewayContext } from '../../context';
import type { Int64 } from '../../rest/json';

/** What a field's start is given: the group's ID, its field node and the arguments written there. */
export interface SelectedField {
  node: FieldNode;
  args: Record<string, unknown>;
  info: GraphQLResolveInfo;
}

type Start = (id: Int64, ctx: GatewayContext, field: SelectedField) => Promise<unknown> | undefined;

const starts = new Map<string, Start>();

/** Registers the reads a Group field makes, for `group(id:)` to start early. */
export function startsWith(field: string, start: Start): void {
  starts.set(field, start);
}

/** Fragments nest at most this deep here (the document depth limit is far below). */
const MAX_DEPTH = 16;

/** The fields of a selection set, through inline fragments and fragment spreads. */
export function fieldsOf(info: GraphQLResolveInfo, set: SelectionSetNode | undefined, depth = 0): FieldNode[] {
  if (!set || depth > MAX_DEPTH) return [];
  return set.selections.flatMap((s) => {
    if (s.kind === Kind.FIELD) return [s];
    const inner = s.kind === Kind.INLINE_FRAGMENT ? s.selectionSet : info.fragments[s.name.value]?.selectionSet;
    return fieldsOf(info, inner, depth + 1);
  });
}

/** Whether a field's selection names `name` at any depth below it (the `role` of a member page's nodes). */
export function selectsDeep(info: GraphQLResolveInfo, node: FieldNode, name: string, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  return fieldsOf(info, node.selectionSet).some((f) => f.name.value === name || selectsDeep(info, f, name, depth + 1));
}

/** Starts the registered reads of every field the `group` field being resolved selects. */
export function startSelectedReads(id: Int64, ctx: GatewayContext, info: GraphQLResolveInfo): void {
  const type = getNamedType(info.returnType);
  if (!isObjectType(type)) return;
  for (const node of info.fieldNodes.flatMap((n) => fieldsOf(info, n.selectionSet))) {
    const start = starts.get(node.name.value);
    const def = type.getFields()[node.name.value];
    // A directive (@include, @skip) may leave the field out: it starts when it resolves.
    if (!start || !def || node.directives?.length) continue;
    try {
      // Failures are the field's to report when it resolves (a failed read is asked again then).
      start(id, ctx, { node, args: getArgumentValues(def, node, info.variableValues), info })?.catch(() => undefined);
    } catch {
      // Bad arguments: the field reports them when it resolves.
    }
  }
}

/** Reads started early that fields share failures included, beside the request's loaders (forgotten with them). */
const SHARED = Symbol('group reads started early');

/**
 * A read shared by the request under `key`, its failure too: for a read that often fails as an
 * answer (a group without announcements), so the field does not ask again after an early start.
 */
export function sharedRead<T>(ctx: GatewayContext, key: string, read: () => Promise<T>): Promise<T> {
  let reads = ctx.loaders.get(SHARED) as Map<string, Promise<unknown>> | undefined;
  if (!reads) ctx.loaders.set(SHARED, (reads = new Map()));
  let answer = reads.get(key) as Promise<T> | undefined;
  if (!answer) reads.set(key, (answer = read()));
  return answer;
}
