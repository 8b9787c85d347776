// Per request: who is calling (from the HTTP headers or the WebSocket connectionParams), REST
// clients bound to that caller, and the request's loaders. Nothing here is shared between requests.
import type { Context } from '@opentelemetry/api';
import { type PeerAccess, peerAccessFor, type ServiceCredential } from './peers/service-credential';
import { callBudget, type CallBudget } from './rest/budget';
import { type Caller, callerFrom, ID_FORMATS, type Identity, type IdFormat } from './identity';
import type { RestClient } from './rest/client';
import { idText, type Int64 } from './rest/json';
import { type BindOptions, bindClient, type RequestClient } from './rest/request-client';
import type { SubscriptionHub } from './subscriptions/hub';
import type { ResumeSlot } from './subscriptions/resumable';

// Read with the identity (src/identity.ts); exported here too, where the schema and gateway find the request's parts.
export { callerFrom, ID_FORMATS, type IdFormat };

/** What resolvers need of the configuration. */
interface GatewaySettings {
  /** The IM service's origin: upload targets on its host are allowed. */
  readonly imBaseUrl: string;
  /** Other hosts (host[:port]) upload targets may point at. */
  readonly uploadHosts: readonly string[];
  readonly maxUploadBytes: number;
  /** REST calls one request (or subscription event) may make; unlimited when absent. */
  readonly maxRestCalls?: number;
  /** The ID format of requests that do not choose one. */
  readonly idFormat?: IdFormat;
}

/** What the request's observers share: the trace its REST calls belong to (its HTTP span's, then its operation's), and the operation's name. */
export interface RequestTrace {
  current: Context | undefined;
  operation?: string;
}

export interface GatewayContext {
  /** Who the request is, read once per request or WebSocket connection: what every per-identity structure keys on. */
  readonly identity: Identity;
  /** The identity's caller, the request's own copy (a sign-in sets its token). */
  readonly caller: Caller;
  /** What `id` answers on Nodes other than User and Group (X-ID-Format, else the gateway's ID_FORMAT). */
  readonly idFormat: IdFormat;
  readonly settings: GatewaySettings;
  /** REST calls for this request: identical reads are made once; failures are UpstreamErrors (the schema words them). */
  readonly rest: RequestClient;
  /** The REST calls this request made, counted against MAX_REST_CALLS by all its clients. */
  readonly restCalls: CallBudget;
  /** REST calls acting as another user: the caller's token with that user_id header (admin). */
  restAs(this: GatewayContext, userId: Int64): RequestClient;
  /**
   * REST calls with a token this request was issued (a login's), as that token's user: the
   * caller's app_id, no user_id or group_id header. Shares the request's budget and memo rules.
   */
  restWithToken(this: GatewayContext, userId: Int64, token: string): RequestClient;
  /**
   * The client reading as a user this request just signed in (a login's token, one issued for a
   * registration). A request that came without a token acts as that user from then on: the
   * payload's user and every object under it, and the operation's later fields, so one sign-in
   * request can read a whole home screen. A request with a token keeps its identity: only the
   * user's own fields read with the new token (restWithToken).
   */
  signedIn(this: GatewayContext, userId: Int64, token: string): RequestClient;
  /**
   * The caller's client for the reads a subscription event's fields make (`event`: the value the
   * hub delivered), shared by every context of the same identity resolving the same event: one
   * subscriber's selection reads, the others' find it (schema/roster/event-viewer.ts). Its calls
   * count against the budget of the context that made it.
   */
  restForEvent(this: GatewayContext, event: object): RequestClient;
  /** The request's DataLoaders, by definition (schema/core/loader.ts); emptied by `invalidate`. */
  readonly loaders: Map<unknown, unknown>;
  /**
   * Forgets every read this request remembered (the GETs of `rest` and of every `restAs` client,
   * and the loaders), and starts a new budget of REST calls. Called before each subscription event
   * is resolved (writes forget the reads by themselves).
   */
  invalidate(this: GatewayContext): void;
  /** The gateway's shared pollers, for subscription fields. */
  readonly subscriptions: SubscriptionHub;
  /**
   * Where a WebSocket connection asks its conversation subscriptions to resume, by `with`:
   * `connectionParams.resumeAfter`, as the client sent it (read and checked by the field). A
   * client re-sends it on each reconnect, so that graphql-ws's own retry loses no message.
   */
  readonly resumeAfter?: unknown;
  /**
   * A WebSocket subscription's resume slot, when its connection names a `clientKey`: a retried
   * subscription resumes where the same client's was (gateway/ws/resume-on-retry.ts).
   */
  readonly resume?: ResumeSlot | undefined;
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

export function paramsLookup(params: Readonly<Record<string, unknown>> | undefined): Lookup {
  const lower = new Map<string, unknown>();
  for (const [k, v] of Object.entries(params ?? {})) lower.set(k.toLowerCase(), v);
  return (name) => {
    const value = lower.get(name);
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  };
}

/** The request's clients by who they act as, and what they share: one per request, its map made on first use. */
class RequestScope implements BindOptions {
  /** The caller's own client. */
  readonly rest: RequestClient;
  /** Clients acting as someone else, by key. */
  private others: Map<string, RequestClient> | undefined;

  constructor(
    private readonly client: RestClient,
    caller: Caller,
    readonly budget: CallBudget,
    readonly trace: RequestTrace,
    readonly loaders: Map<unknown, unknown>,
    private readonly service: { credential: ServiceCredential | undefined; defaultAppId: string } | undefined,
  ) {
    this.rest = bindClient(client, caller, this);
  }

  /** The client acting as `key`'s caller; the caller is made only for a client not made yet (a list of members asks once per member). */
  clientFor(key: string, callerFor: () => Caller): RequestClient {
    const others = (this.others ??= new Map());
    let known = others.get(key);
    if (!known) others.set(key, (known = bindClient(this.client, callerFor(), this)));
    return known;
  }

  /** The peers' clients of the request's caller, when the service credential serves it. */
  peers(): PeerClients | undefined {
    const access = peerAccessFor(this.service?.credential, this.rest.caller, this.service?.defaultAppId ?? '');
    return access && new PeerClients(access, this);
  }

  /** The request's own client acts with `token` from now on; what it read without one is forgotten. */
  adopt(token: string): void {
    this.rest.caller.token = token;
    this.onWrite();
  }

  /** A client of the caller outside this request's memo and writes (an event's shared reads). */
  detached(): RequestClient {
    return bindClient(this.client, { ...this.rest.caller }, { budget: this.budget, trace: this.trace });
  }

  /** A write through any of this request's clients may change what any read answers. */
  onWrite(): void {
    this.rest.clear();
    if (this.others) for (const c of this.others.values()) c.clear();
    this.loaders.clear();
  }
}

/** The peers' clients of a request the service credential serves. */
class PeerClients {
  readonly callerIsService: boolean;
  readonly credential: ServiceCredential;

  constructor(
    access: PeerAccess,
    private readonly scope: RequestScope,
  ) {
    this.callerIsService = access.callerIsService;
    this.credential = access.credential;
  }

  service(): RequestClient {
    return this.scope.clientFor('service', () => ({ appId: this.credential.appId, token: this.credential.token }));
  }

  as(userId: Int64): RequestClient {
    const id = idText(userId);
    return this.scope.clientFor(`service:${id}`, () => ({ appId: this.credential.appId, token: this.credential.token, userId: id }));
  }
}

// The context's methods are shared functions reading the request's scope through `this`: yoga
// copies the context's own properties onto its own context object (Object.assign), so they travel
// with it, and no closure is made per request. The symbol keeps the scope out of the interface.
const SCOPE = Symbol('request scope');
type Scoped = GatewayContext & { readonly [SCOPE]: RequestScope };

function restAs(this: GatewayContext, userId: Int64): RequestClient {
  const id = idText(userId);
  const { caller } = this;
  return caller.userId === id ? this.rest : (this as Scoped)[SCOPE].clientFor(id, () => ({ ...caller, userId: id }));
}

function restWithToken(this: GatewayContext, userId: Int64, token: string): RequestClient {
  const { appId } = this.caller;
  return (this as Scoped)[SCOPE].clientFor(`issued:${idText(userId)}`, () => (appId === undefined ? { token } : { appId, token }));
}

function signedIn(this: GatewayContext, userId: Int64, token: string): RequestClient {
  if (this.caller.token === token) return this.rest;
  if (this.caller.token !== undefined) return this.restWithToken(userId, token);
  const scope = (this as Scoped)[SCOPE];
  scope.adopt(token);
  // Other users' public fields are read as for any request with this token.
  (this as { peers?: GatewayContext['peers'] }).peers = scope.peers();
  return this.rest;
}

/** Event clients by event, then by identity key: they go with the event (subscribers hold it while they resolve it). */
const EVENT_CLIENTS = new WeakMap<object, Map<string, RequestClient>>();

function restForEvent(this: GatewayContext, event: object): RequestClient {
  let byIdentity = EVENT_CLIENTS.get(event);
  if (!byIdentity) EVENT_CLIENTS.set(event, (byIdentity = new Map()));
  let client = byIdentity.get(this.identity.key);
  if (!client) byIdentity.set(this.identity.key, (client = (this as Scoped)[SCOPE].detached()));
  return client;
}

function invalidate(this: GatewayContext): void {
  const scope = (this as Scoped)[SCOPE];
  scope.onWrite();
  scope.budget.reset();
}

/** What a request's context is made of. */
export interface ContextParts {
  readonly client: RestClient;
  readonly identity: Identity;
  readonly settings: GatewaySettings;
  readonly subscriptions: SubscriptionHub;
  readonly service?: { credential: ServiceCredential | undefined; defaultAppId: string } | undefined;
  readonly trace?: RequestTrace;
  /** The WebSocket connection's params (resumeAfter). */
  readonly connection?: { resumeAfter?: unknown } | undefined;
  /** The WebSocket operation's resume slot. */
  readonly resume?: ResumeSlot | undefined;
}

export function createContext({
  client,
  identity,
  settings,
  subscriptions,
  service,
  trace = { current: undefined },
  connection,
  resume,
}: ContextParts): GatewayContext {
  const loaders = new Map<unknown, unknown>();
  const budget = callBudget(settings.maxRestCalls ?? Number.POSITIVE_INFINITY);
  // The request's own copy: a sign-in sets its token, which the identity (shared by a batch's operations, a socket's) keeps as read.
  const caller = { ...identity.caller };
  const scope = new RequestScope(client, caller, budget, trace, loaders, service);
  // One shape for every request (absent parts undefined), so that reads of it stay monomorphic.
  const context: Scoped = {
    peers: scope.peers(),
    identity,
    caller,
    idFormat: identity.idFormat,
    settings,
    rest: scope.rest,
    restCalls: budget,
    restAs,
    restWithToken,
    signedIn,
    restForEvent,
    loaders,
    invalidate,
    subscriptions,
    resumeAfter: connection?.resumeAfter,
    resume,
    trace,
    [SCOPE]: scope,
  };
  return context;
}
