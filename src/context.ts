// Per request: who is calling (from the HTTP headers or the WebSocket connectionParams) and a
// REST client bound to that caller. Nothing here is shared between requests.
import type { Caller } from './rest/caller';
import type { RestClient } from './rest/client';
import { UpstreamError } from './rest/errors';
import { bindClient, type RequestClient } from './rest/request-client';
import { upstreamGraphQLError } from './schema/errors';

export interface GatewayContext {
  readonly caller: Caller;
  /** REST calls for this request: identical GETs are made once. */
  readonly rest: RequestClient;
}

type Lookup = (name: string) => string | undefined;

// Some proxies drop header names with underscores, so the dashed spellings are accepted too.
function first(lookup: Lookup, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = lookup(name)?.trim();
    if (value) return value;
  }
  return undefined;
}

/** Reads the caller from HTTP headers or connectionParams (same names as the upstream headers). */
export function callerFrom(lookup: Lookup): Caller {
  const bearer = lookup('authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const token = first(lookup, 'access-token', 'access_token') ?? bearer;
  const appId = first(lookup, 'app_id', 'app-id');
  const userId = first(lookup, 'user_id', 'user-id');
  const groupId = first(lookup, 'group_id', 'group-id');
  return {
    ...(appId === undefined ? {} : { appId }),
    ...(token === undefined ? {} : { token }),
    ...(userId === undefined ? {} : { userId }),
    ...(groupId === undefined ? {} : { groupId }),
  };
}

export function headersLookup(headers: Headers): Lookup {
  return (name) => headers.get(name) ?? undefined;
}

export function paramsLookup(params: Readonly<Record<string, unknown>> | undefined): Lookup {
  const lower = new Map<string, unknown>();
  for (const [k, v] of Object.entries(params ?? {})) lower.set(k.toLowerCase(), v);
  return (name) => {
    const value = lower.get(name);
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  };
}

// Upstream failures become GraphQL errors here, at the boundary: they are expected outcomes
// (a missing group, a bad token), reported on the field, not logged as crashes.
function asGraphQLError(err: unknown): never {
  throw err instanceof UpstreamError ? upstreamGraphQLError(err) : err;
}

export function createContext(client: RestClient, caller: Caller): GatewayContext {
  const bound = bindClient(client, caller);
  const rest: RequestClient = {
    caller,
    call: (name, params, opts) => bound.call(name, params, opts).catch(asGraphQLError),
    download: (name, params, opts) => bound.download(name, params, opts).catch(asGraphQLError),
  };
  return { caller, rest };
}
