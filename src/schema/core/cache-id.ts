// Identity for objects the service names by several IDs (a member: its group and its user), so
// that normalized client caches (Apollo's, Relay's) keep one entry per object and `node(id:)`
// fetches it again: a global ID when the request asks for global IDs, else the parts joined by
// ":" as before global IDs (global-id.ts).
import type { ObjectFieldBuilder } from '@pothos/core';
import type { GatewayContext } from '../../context';
import type { Int64 } from '../../rest/json';
import type { SchemaTypes } from './builder';
import { type GlobalKind, nodeId } from './global-id';

/** The `id` field of such an object: `ids` are its parts, which `parts` names ("group ID and user ID"). */
export const cacheIdField = <P>(t: ObjectFieldBuilder<SchemaTypes, P>, kind: GlobalKind, parts: string, ids: (parent: P) => Int64[]) =>
  t.field({
    type: 'ID',
    nullable: false,
    description:
      `Its ID for node(id:) and client caches: a global ID with X-ID-Format: global; otherwise ${parts}, joined by ":" ` +
      '(read the parts from their own fields).',
    resolve: (parent, _args, ctx) => cacheIdOf(ctx, kind, ids(parent)),
  });

/** The `id` such an object answers in the request's ID format (a payload naming removed members answers these). */
export const cacheIdOf = (ctx: GatewayContext, kind: GlobalKind, parts: readonly Int64[]): string =>
  String(nodeId(ctx, kind, parts, joinedId(parts)));

/** The cache identity of parts (a Member's: group ID and user ID), as cacheIdField answers it. */
export const joinedId = (ids: readonly Int64[]): string => ids.map(String).join(':');
