// Per request: who is calling (from the HTTP headers or the WebSocket connectionParams), REST
// clients bound to that caller, and the request's loaders. Nothing here is shared between requests.
import type { Context } from '@opentelemetry/api';
import { type PeerAccess, peerAccessFor, type ServiceCredential } from './peers/service-credential';
import { callBudget, type CallBudget } from './rest/budget';
import type { Caller } from './rest/caller';
import type { RestClient } from './rest/client';
import type { Int64 } from './rest/json';
import { bindClient, type RequestClient } from './rest/request-client';
import type { SubscriptionHub } from './subscriptions/hub';

/** What resolvers need of the configuration. */
interface GatewaySettings {
  /** The IM service's origin: upload targets on its host are allowed. */
  readonly imBaseUrl: string;
  /** Other hosts (host[:port]) upload targets may point at. */
  readonly uploadHosts: readonly string[];
  readonly maxUploadBytes: number;
  /** REST calls one request (or subscription event) may make; unlimited when absent. */
  readonly maxRestCalls?: number;
}

/** What the request's observers share: the trace its REST calls belong to (its HTTP span's, then its operation's), and the operation's name. */
export interface RequestTrace {
  current: Context | undefined;
  operation?: string;
}

export interface GatewayContext {
  readonly caller: Caller;
  readonly settings: GatewaySettings;
  /** REST calls for this request: identical reads are made once; failures are UpstreamErrors (the schema words them). */
  readonly rest: RequestClient;
  /** The REST calls this request made, counted against MAX_REST_CALLS by all its clients. */
  readonly restCalls: CallBudget;
  /** REST calls acting as another user: the caller's token with that user_id header (admin). */
  restAs(userId: Int64): RequestClient;
  /**
   * REST calls with a token this request was issued (a login's), as that token's user: the
   * caller's app_id, no user_id or group_id header. Shares the request's budget and memo rules.
   */
  restWithToken(userId: Int64, token: string): RequestClient;
  /** The request's DataLoaders, by definition (schema/core/loader.ts); emptied by `invalidate`. */
  readonly loaders: Map<unknown, unknown>;
  /**
   * Forgets every read this request remembered (the GETs of `rest` and of every `restAs` client,
   * and the loaders), and starts a new budget of REST calls. Called before each subscription event
   * is resolved (writes forget the reads by themselves).
   */
  invalidate(): void;
  /** The gateway's shared pollers, for subscription fields. */
  readonly subscriptions: SubscriptionHub;
  /**
   * Where a WebSocket connection asks its conversationEvents subscriptions to resume, by `with`:
   * `connectionParams.resumeAfter`, as the client sent it (read and checked by the field). A
   * client re-sends it on each reconnect, so that graphql-ws's own retry loses no message.
   */
  readonly resumeAfter?: unknown;
  /** Where the tracing plugin puts the operation's span; empty when tracing is off. */
  readonly trace: RequestTrace;
  /** Reads of other users' public profile with the service credential; undefined when it does not serve this caller. */
  readonly peers?: PeerAccess & {
    /** REST calls as that user with the service token (reads of public fields only). */
    as(userId: Int64): RequestClient;
    /** REST calls with the service token and no user (the user list, for users' ban status only). */
    service(): RequestClient;
  };
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

export function createContext(
  client: RestClient,
  caller: Caller,
  settings: GatewaySettings,
  subscriptions: SubscriptionHub,
  service?: { credential: ServiceCredential | undefined; defaultAppId: string },
  trace: RequestTrace = { current: undefined },
  connection?: { resumeAfter?: unknown },
): GatewayContext {
  const bound = new Map<string, RequestClient>();
  const loaders = new Map<unknown, unknown>();
  const budget = callBudget(settings.maxRestCalls ?? Number.POSITIVE_INFINITY);
  // A write through any of this request's clients may change what any read answers.
  const forget = () => {
    for (const c of bound.values()) c.clear();
    loaders.clear();
  };
  const invalidate = () => {
    forget();
    budget.reset();
  };

  // The caller is made only for a client not made yet (a list of members asks once per member).
  function clientFor(key: string, callerFor: () => Caller): RequestClient {
    let known = bound.get(key);
    if (!known) bound.set(key, (known = bindClient(client, callerFor(), { onWrite: forget, budget, trace: () => trace.current })));
    return known;
  }

  const rest = clientFor('', () => caller);
  const access = peerAccessFor(service?.credential, caller, service?.defaultAppId ?? '');
  const peers = access && {
    ...access,
    service: () => clientFor('service', () => ({ appId: access.credential.appId, token: access.credential.token })),
    as: (userId: Int64) =>
      clientFor(`service:${String(userId)}`, () => ({
        appId: access.credential.appId,
        token: access.credential.token,
        userId: String(userId),
      })),
  };
  return {
    ...(peers ? { peers } : {}),
    caller,
    settings,
    rest,
    restCalls: budget,
    restAs: (userId) => {
      const id = String(userId);
      return caller.userId === id ? rest : clientFor(id, () => ({ ...caller, userId: id }));
    },
    restWithToken: (userId, token) =>
      clientFor(`issued:${String(userId)}`, () => ({ ...(caller.appId === undefined ? {} : { appId: caller.appId }), token })),
    loaders,
    invalidate,
    subscriptions,
    ...(connection?.resumeAfter === undefined ? {} : { resumeAfter: connection.resumeAfter }),
    trace,
  };
}
