// Who a request is, read once: per HTTP request in the front (gateway/http/front.ts), per WebSocket
// connection at connect (gateway/ws/websocket.ts). The caller the REST calls forward, the app_id
// that stands for it (the gateway's default when the caller names none, as the REST client sends
// it), the client's address, the ID format it asked for, and one key every per-identity structure
// shares (rate limits, subscription slots and pollers, shared executions and subscriptions, REST
// coalescing): a digest, so that neither logs nor Redis keys ever hold a token in clear. Nothing
// here is GraphQL or HTTP: the gateway words the refusals, and this file imports nothing of src/.
import { createHash } from 'node:crypto';

/** Who a REST call is made for; the client forwards these as the upstream's common headers. */
export interface Caller {
  /** Forwarded as `app_id`; the client's configured default applies when absent. */
  appId?: string;
  /** Forwarded as `access-token`. A secret: never logged, never put into an error message. */
  token?: string;
  /** Forwarded as `user_id` (with an admin token the call runs as that user). */
  userId?: string;
  /** Forwarded as `group_id`, except to endpoints marked 'no group_id header'. */
  groupId?: string;
}

/** What `id` answers on Nodes other than User and Group: the service's IDs (until the dated switch in CHANGELOG), or global IDs. */
export const ID_FORMATS = ['service', 'global'] as const;
export type IdFormat = (typeof ID_FORMATS)[number];

type Lookup = (name: string) => string | undefined;

// Some proxies drop header names with underscores, so the dashed spellings are accepted too.
function first(lookup: Lookup, name: string, alias: string): string | undefined {
  return lookup(name)?.trim() || lookup(alias)?.trim() || undefined;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Reads the caller from HTTP headers or connectionParams (same names as the upstream headers). */
export function callerFrom(lookup: Lookup): Caller {
  // Built field by field (no spreads, no arrays): this runs for every request.
  const caller: Caller = {};
  const appId = first(lookup, 'app_id', 'app-id');
  if (appId !== undefined) caller.appId = appId;
  const token = first(lookup, 'access-token', 'access_token') ?? lookup('authorization')?.match(BEARER)?.[1];
  if (token !== undefined) caller.token = token;
  const userId = first(lookup, 'user_id', 'user-id');
  if (userId !== undefined) caller.userId = userId;
  const groupId = first(lookup, 'group_id', 'group-id');
  if (groupId !== undefined) caller.groupId = groupId;
  return caller;
}

/** The app a caller acts in: its own, else the gateway's default (the one the REST client sends). */
export const appIdOf = (caller: Caller, defaultAppId: string | undefined): string => caller.appId ?? defaultAppId ?? '';

/**
 * The identity's parts as one text: app (resolved), token, acting user and group (`groupId`: the
 * one a call forwards, when an endpoint takes no group_id header). JSON keeps the parts apart.
 */
export function identityText(caller: Caller, defaultAppId: string | undefined, groupId = caller.groupId): string {
  return JSON.stringify([appIdOf(caller, defaultAppId), caller.token ?? '', caller.userId ?? '', groupId ?? '']);
}

/** A stable digest of the identity; `defaultAppId` stands in for a caller that names no app. */
export function identityHash(caller: Caller, defaultAppId: string | undefined): string {
  return createHash('sha256').update(identityText(caller, defaultAppId)).digest('base64url');
}

/** The ID format asked for (`X-ID-Format`), the fallback when none; `refused` holds a value that is neither. */
function idFormatOf(lookup: Lookup, fallback: IdFormat): { idFormat: IdFormat; refused?: string } {
  const asked = lookup('x-id-format')?.trim().toLowerCase();
  if (asked === undefined || asked === '') return { idFormat: fallback };
  return (ID_FORMATS as readonly string[]).includes(asked) ? { idFormat: asked as IdFormat } : { idFormat: fallback, refused: asked };
}

/** The gateway's side of every identity. */
export interface IdentityDefaults {
  /** The app of callers that name none. */
  readonly defaultAppId: string | undefined;
  /** The ID format of requests that ask for none. */
  readonly idFormat: IdFormat;
}

export class Identity {
  /** The app the caller acts in (its own, else the default). */
  readonly appId: string;
  readonly idFormat: IdFormat;
  /** An X-ID-Format that is neither format: the request is refused where its context is made. */
  readonly refusedIdFormat: string | undefined;
  private hashed: string | undefined;
  private texted: string | undefined;

  constructor(
    /** As read; a request's context works on a copy of its own (a sign-in changes that copy's token). */
    readonly caller: Readonly<Caller>,
    /** The client's address (rate limits of callers without a token). */
    readonly address: string | undefined,
    private readonly defaults: IdentityDefaults,
    idFormat: { idFormat: IdFormat; refused?: string } = { idFormat: defaults.idFormat },
  ) {
    this.appId = appIdOf(caller, defaults.defaultAppId);
    this.idFormat = idFormat.idFormat;
    this.refusedIdFormat = idFormat.refused;
  }

  /** identityText of the caller, made on first use: what the key digests, for keys that stay in this process. */
  get text(): string {
    return (this.texted ??= identityText(this.caller, this.defaults.defaultAppId));
  }

  /** The digest of `text`, made on first use (most queries never need it), for keys that leave the process (Redis) or live long. */
  get key(): string {
    return (this.hashed ??= createHash('sha256').update(this.text).digest('base64url'));
  }
}

/** The identity a request's headers (or a connection's params) name, read once. */
export function identityOf(lookup: Lookup, address: string | undefined, defaults: IdentityDefaults): Identity {
  return new Identity(callerFrom(lookup), address, defaults, idFormatOf(lookup, defaults.idFormat));
}
