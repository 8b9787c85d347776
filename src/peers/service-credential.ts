// The gateway's own service credential (IM_ADMIN_TOKEN) and what it may be used for: reading the
// public face of other users (nickname, avatar, public info, online) for any authenticated caller
// of the same app, and users' ban status from the admin user list. Answers are remembered briefly
// per app, shared by all requests.
import type { Caller } from '../rest/caller';
import type { Acting, ProvenTokens } from '../rest/proven-tokens';
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
  /** The gateway's record of proven tokens: the credential serves proven callers only. */
  readonly tokens: ProvenTokens;
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

/**
 * Whom the caller acts as, by `prove()` (its own profile read with its own token), remembered in
 * the gateway's record of proven tokens (rest/proven-tokens.ts) for its lifetime: a revoked token
 * may keep reading peers' public fields that long, unless a call with it is refused first (the
 * record then forgets it for every use). A token with a user_id or group_id header proves itself
 * each time.
 */
export function provenBy(credential: ServiceCredential, caller: Caller, prove: () => Promise<Acting>): Promise<Acting> {
  return credential.tokens.prove(caller, prove);
}

export function serviceCredential(appId: string, token: string | undefined, tokens: ProvenTokens): ServiceCredential | undefined {
  return token === undefined ? undefined : { appId, token, tokens, cache: new TtlCache(PEER_TTL_MS, PEER_CACHE_ENTRIES) };
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
