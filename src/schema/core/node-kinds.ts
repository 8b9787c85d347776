// What `node(id:)` can fetch by a global ID: each domain file registers how to fetch its kind
// (the Message by its conversation and ID, the Member by its group and user, ...), beside its type.
// The reads its selected fields registered (speculative.ts, `startsAhead` of the kind, from the ID's
// parts) start beside the fetch.
import type { GraphQLResolveInfo } from 'graphql';
import type { GatewayContext } from '../../context';
import { classifyUpstreamError, type ErrorCode, GatewayError } from '../../rest/errors';
import type { Int64 } from '../../rest/json';
import type { GlobalId, GlobalKind } from './global-id';
import { startSelectedReads } from './speculative';
import { upstreamCause } from './upstream-errors';

/**
 * The object a global ID's parts name, as its type's fields read it; null when there is none. A
 * read the service refuses as missing or not the caller's is null too (fetchNode), so a fetch just reads.
 * `info` (node's) tells what the object's fields will read, for a fetch that starts those reads beside its own.
 */
export type NodeFetcher = (parts: readonly Int64[], ctx: GatewayContext, info: GraphQLResolveInfo) => Promise<object | null>;

const fetchers = new Map<GlobalKind, NodeFetcher>();
// The type of each object node(id:) answered, for Node's resolveType: parents are REST records
// (possibly frozen, shared with other fields), so the tag lives beside them, not on them.
const fetchedKinds = new WeakMap<object, GlobalKind>();

export function fetchableNode(kind: GlobalKind, fetch: NodeFetcher): void {
  if (fetchers.has(kind)) throw new Error(`node kind ${kind} registered twice`);
  fetchers.set(kind, fetch);
}

export async function fetchNode(id: GlobalId, ctx: GatewayContext, info: GraphQLResolveInfo): Promise<object | null> {
  const fetch = fetchers.get(id.kind);
  if (!fetch) return null;
  startSelectedReads(id.kind, id.parts, ctx, info);
  const parent = await unlessRefused(fetch(id.parts, ctx, info));
  if (parent) fetchedKinds.set(parent, id.kind);
  return parent;
}

/** The type node(id:) fetched `parent` as; undefined for a User or Group (told apart by shape). */
export const fetchedKind = (parent: object): GlobalKind | undefined => fetchedKinds.get(parent);

/** The kinds registered: a test checks that every kind of global ID can be fetched. */
export const fetchableKinds = (): GlobalKind[] => [...fetchers.keys()];

// How the service refuses a read of something that is not there or not the caller's: an ID it does
// not know (NOT_FOUND, or an invalid parameter naming it), or one the caller may not read (also
// when the gateway refuses it before sending, as the service would).
const UNSEEN: ReadonlySet<ErrorCode> = new Set(['NOT_FOUND', 'FORBIDDEN', 'BAD_USER_INPUT']);

/**
 * A fetch's object, null when the service refused the read as above: node(id:) answers null for
 * what the caller cannot see. The parts came from a global ID the gateway answered, so such a
 * refusal is about the object, not about the request; other failures stay errors.
 */
async function unlessRefused<T>(read: Promise<T | null>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    const upstream = upstreamCause(err);
    if (upstream && UNSEEN.has(classifyUpstreamError(upstream))) return null;
    // The gateway refusing in the service's place (a read it would refuse is never sent: core/profile.ts).
    if (err instanceof GatewayError && err.code === 'FORBIDDEN') return null;
    throw err;
  }
}
