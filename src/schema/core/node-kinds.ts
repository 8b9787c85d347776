// What `node(id:)` can fetch by a global ID: each domain file registers how to fetch its kind
// (the Message by its conversation and ID, the Member by its group and user, ...), beside its type.
import type { GatewayContext } from '../../context';
import type { Int64 } from '../../rest/json';
import type { GlobalId, GlobalKind } from './global-id';

/** The object a global ID's parts name, as its type's fields read it; null when there is none. */
export type NodeFetcher = (parts: readonly Int64[], ctx: GatewayContext) => Promise<object | null>;

const fetchers = new Map<GlobalKind, NodeFetcher>();
// The type of each object node(id:) answered, for Node's resolveType: parents are REST records
// (possibly frozen, shared with other fields), so the tag lives beside them, not on them.
const fetchedKinds = new WeakMap<object, GlobalKind>();

export function fetchableNode(kind: GlobalKind, fetch: NodeFetcher): void {
  if (fetchers.has(kind)) throw new Error(`node kind ${kind} registered twice`);
  fetchers.set(kind, fetch);
}

export async function fetchNode(id: GlobalId, ctx: GatewayContext): Promise<object | null> {
  const fetch = fetchers.get(id.kind);
  if (!fetch) return null;
  const parent = await fetch(id.parts, ctx);
  if (parent) fetchedKinds.set(parent, id.kind);
  return parent;
}

/** The type node(id:) fetched `parent` as; undefined for a User or Group (told apart by shape). */
export const fetchedKind = (parent: object): GlobalKind | undefined => fetchedKinds.get(parent);

/** The kinds registered: a test checks that every kind of global ID can be fetched. */
export const fetchableKinds = (): GlobalKind[] => [...fetchers.keys()];
