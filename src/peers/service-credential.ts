// The gateway's own service credential (IM_ADMIN_TOKEN) and what it may be used for: reading the
// public face of other users (nickname, avatar, public info, online) for any authenticated caller
// of the same app, and users' ban status from the admin user list. Answers are remembered briefly
// per app, shared by all requests.
import type { Caller } from '../rest/caller';
import { TtlCache } from './ttl-cache';

/** How long a peer's public profile is remembered: a chat list re-read within it costs nothing. */
export const PEER_TTL_MS = 5_000;
/** Bound on remembered peers (each entry is one small profile or online flag). */
const PEER_CACHE_ENTRIES = 10_000;

export interface ServiceCredential {
  /** The app the token belongs to. */
  readonly appId: string;
  readonly token: string;
  /** Answers of the credential's app by what they are (its space) and whose (key), as promises so concurrent requests share a call. */
  readonly cache: TtlCache<Promise<unknown>>;
}

/** The credential's remembered answer for `key` of `space`, or `read()` remembered; a failure is not remembered. */
export function remembered<T>(credential: ServiceCredential, space: string, key: string, read: () => Promise<T>): Promise<T> {
  // The space names what is stored: the entry holds a Promise<T>.
  let answer = credential.cache.get(space, key) as Promise<T> | undefined;
  if (!answer) {
    answer = read();
    credential.cache.set(space, key, answer);
    answer.catch(() => credential.cache.delete(space, key));
  }
  return answer;
}

/** Where the proofs of callers' tokens are kept, by token. */
const CALLERS = 'caller';

/**
 * The remembered proof of a caller's token: a user token alone (no user_id or group_id header,
 * which would change who it acts as). Undefined for other callers: they prove themselves each time.
 */
function proofKey(caller: Caller): string | undefined {
  if (caller.token === undefined || caller.userId !== undefined || caller.groupId !== undefined) return undefined;
  return caller.token;
}

/**
 * Who the caller is, by `prove()` (its own profile read with its own token), remembered for
 * PEER_TTL_MS per app and token: a revoked token may keep reading peers' public fields that long,
 * unless a call with it is refused first (forgetCaller).
 */
export function provenBy<T>(credential: ServiceCredential, caller: Caller, prove: () => Promise<T>): Promise<T> {
  const key = proofKey(caller);
  return key === undefined ? prove() : remembered(credential, CALLERS, key, prove);
}

/** Forgets a caller's proof: the upstream refused its token (10003/10008, HTTP 401/402). */
export function forgetCaller(credential: ServiceCredential, caller: Caller, defaultAppId: string): void {
  if ((caller.appId ?? defaultAppId) !== credential.appId) return;
  const key = proofKey({ ...(caller.token !== undefined ? { token: caller.token } : {}) });
  if (key !== undefined) credential.cache.delete(CALLERS, key);
}

export function serviceCredential(appId: string, token: string | undefined): ServiceCredential | undefined {
  return token === undefined ? undefined : { appId, token, cache: new TtlCache(PEER_TTL_MS, PEER_CACHE_ENTRIES) };
}

/** What the credential offers one request's caller; undefined when it may not be used for them. */
export interface PeerAccess {
  /** The caller holds the service token itself: it reads every field of anyone already. */
  readonly callerIsService: boolean;
  readonly credential: ServiceCredential;
}

/**
 * The credential serves callers of its own app only (an unset app_id is the configured one), and
 * only authenticated ones: the caller's own token is checked by its own reads, never by ours.
 */
export function peerAccessFor(credential: ServiceCredential | undefined, caller: Caller, defaultAppId: string): PeerAccess | undefined {
  if (!credential || caller.token === undefined) return undefined;
  if ((caller.appId ?? defaultAppId) !== credential.appId) return undefined;
  return { callerIsService: caller.token === credential.token, credential };
}
