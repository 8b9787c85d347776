// Every Redis key and channel of the gateway is namespaced here, so that several deployments (or
// test runs) may share one Redis: `<prefix><part>:<part>…`. The default prefix is written once.

/** The namespace of a deployment that names none. */
export const DEFAULT_PREFIX = 'im-gateway:';

/** `key('apq', hash)` → `im-gateway:apq:<hash>`: parts joined by ':' after the prefix. */
export type KeyOf = (...parts: readonly string[]) => string;

export function keyspace(prefix: string = DEFAULT_PREFIX): KeyOf {
  return (...parts) => `${prefix}${parts.join(':')}`;
}
