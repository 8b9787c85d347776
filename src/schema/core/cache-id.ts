// Identity for objects the service names by several IDs (a member: its group and its user), so
// that normalized client caches (Apollo's, Relay's) keep one entry per object. Such an `id` is a
// String, not an ID: the ID scalar is the service's own int64, which these are not.
import type { Int64 } from '../../rest/json';

export const cacheId = (...ids: Int64[]): string => ids.map(String).join(':');

/** The description of such an `id` field, naming its parts. */
export const cacheIdDescription = (parts: string): string =>
  `Identity for client caches: ${parts}, joined by ":". Not an ID of the service: read the parts from their own fields.`;
