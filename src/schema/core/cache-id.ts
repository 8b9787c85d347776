// Identity for objects the service names by several IDs (a member: its group and its user), so
// that normalized client caches (Apollo's, Relay's) keep one entry per object. Such an `id` is a
// String, not an ID: the ID scalar is the service's own int64, which these are not.
import type { ObjectFieldBuilder } from '@pothos/core';
import type { Int64 } from '../../rest/json';
import type { SchemaTypes } from './builder';

/** The `id` field of such an object: `ids` are its parts, which `parts` names ("group ID and user ID"). */
export const cacheIdField = <P>(t: ObjectFieldBuilder<SchemaTypes, P>, parts: string, ids: (parent: P) => Int64[]) =>
  t.string({
    nullable: false,
    description: `Identity for client caches: ${parts}, joined by ":". Not an ID of the service: read the parts from their own fields.`,
    resolve: (parent) => joinedId(ids(parent)),
  });

/** The cache identity of parts (a Member's: group ID and user ID), as cacheIdField answers it. */
export const joinedId = (ids: readonly Int64[]): string => ids.map(String).join(':');
