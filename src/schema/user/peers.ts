// The public face of other users (nickName, avatar, publicInfo, online) for any authenticated
// caller. Who reads it:
// - the acting user itself, and a caller holding another admin token, read with their own access;
// - a caller holding the service token itself reads other users' public fields as below (the cache);
// - any other caller of the app, through the gateway's service credential (IM_ADMIN_TOKEN): one
//   call per peer and endpoint, answers (and reads in flight) shared by all requests of the app
//   for PEER_TTL_MS;
// - without that credential, a caller who may not read the peer gets null without an error.
// Private fields (email, mobile, privateInfo, settings, ...) never take this path.
import type { GatewayContext } from '../../context';
import { idText, type Int64, sameId, toInt64 } from '../../rest/json';
import type { UserProfile } from '../../rest/records';
import type { RequestClient } from '../../rest/request-client';
import { remembered } from '../../peers/service-credential';
import { errorCodeOf } from '../core/upstream-errors';
import { type UserParent, UserRef } from '../core/refs';
import { restFor } from '../core/profile';
import { provenCaller, provenNow } from '../core/caller-proof';
import { startsAhead } from '../core/speculative';

/** What the public fields' descriptions say about who may read them. */
export const PUBLIC =
  'Public: any signed-in user of the app reads it for any user when the gateway holds a service credential (IM_ADMIN_TOKEN); ' +
  "without one, null for users the caller may not read. Other users' values may be up to 5 s old.";

/** A read of one user's public data, made with some client acting as that user. */
type PeerRead<T> = (rest: RequestClient) => Promise<T>;

const readProfile: PeerRead<UserProfile> = async (rest) => (await rest.call('GET /user/profile', {})).data;
const readOnline: PeerRead<{ online: boolean }> = async (rest) => (await rest.call('GET /user/online_status', {})).data;

/** What is remembered of a user's public face, by read: the credential cache's spaces, keyed by user ID. */
const PEER_READS = ['profile', 'online'] as const;

/**
 * A peer's public read through the app's cache: one call per peer and read however many fields,
 * requests and replicas' users ask within PEER_TTL_MS (a read in flight is shared too, so no
 * per-request loader is needed on top). A failure is reported to the askers and not remembered.
 */
function peerRead<T>(what: (typeof PEER_READS)[number], read: PeerRead<T>) {
  return (ctx: GatewayContext, id: Int64): Promise<T> => {
    const peers = ctx.peers!;
    return remembered(peers.credential, what, idText(id), () => read(peers.as(id)));
  };
}

const peerProfiles = peerRead('profile', readProfile);
const peerOnline = peerRead('online', readOnline);

/** A refusal of the caller's own access to another user (a user token with a user_id header). */
export const isForbidden = (err: unknown) => errorCodeOf(err) === 'FORBIDDEN';

// Not async: a listed user read through the cache (the usual case) costs no promise of its own.
function readPublic<T>(
  u: UserParent,
  ctx: GatewayContext,
  read: PeerRead<T>,
  peer: (ctx: GatewayContext, id: Int64) => Promise<T>,
): Promise<T | null> {
  const { id } = u;
  // The acting user, or a user with its own fresh token (a login's answer): its own access.
  if (id === undefined || u.as) return read(restFor(u, ctx));
  // The service token itself (an admin caller of the app, usually acting as one user): every
  // listed user's public fields come from the app's shared cache, the acting user's too.
  if (ctx.peers?.callerIsService) return peer(ctx, id);
  if (ctx.peers) {
    // An admin token of its own reads anyone with its own access. The caller listed among others
    // (a member, a message's sender) is read like them: its own writes through the gateway forget
    // its entry (forgetPublicFace), and `me` is read fresh.
    return provenCaller(ctx).then((proven) => (proven === null ? read(restFor(u, ctx)) : peer(ctx, id)));
  }
  return ownOrNull(u, ctx, read);
}

/**
 * Without the credential: the caller's own access, and null for a user it may not read. A user
 * token reads only its own user: it never sends a user_id header (the service refuses one but with
 * the admin token), so its proof tells it before any call for another user.
 */
async function ownOrNull<T>(u: UserParent, ctx: GatewayContext, read: PeerRead<T>): Promise<T | null> {
  if (ctx.caller.userId === undefined && u.id !== undefined) {
    const proven = await provenCaller(ctx);
    if (proven !== null) return sameId(proven, u.id) ? read(ctx.rest) : null;
  }
  try {
    return await read(restFor(u, ctx));
  } catch (err) {
    if (!ctx.peers && isForbidden(err)) return null;
    throw err;
  }
}

/** The user's public profile: see the top of this file for whose access reads it. */
export const publicProfileOf = (u: UserParent, ctx: GatewayContext) => readPublic(u, ctx, readProfile, peerProfiles);

/**
 * The public profile's fields (here and in display-name.ts) start its read ahead, from a parent
 * that knows the user's ID before its record (a Member by its global ID), only when it goes out at
 * once: for a caller proven within its lifetime (or the service token). An unproven caller's read
 * would wait for the caller's proof anyway (the trust model), so the field starts it then, and a
 * parent found missing costs no read.
 */
export function startsWithPublicProfile(...fields: string[]): void {
  for (const field of fields) startsAhead<UserParent>(UserRef, field, (u, ctx) => (provenNow(ctx) ? publicProfileOf(u, ctx) : undefined));
}

/** Whether the user is online; public like the profile's public fields. */
export const publicOnlineOf = (u: UserParent, ctx: GatewayContext) => readPublic(u, ctx, readOnline, peerOnline);

const isNotFound = (err: unknown) => errorCodeOf(err) === 'NOT_FOUND';

/**
 * Whether a user exists, by its public profile (so the cache and the credential serve it too).
 * True when the caller may not know (no credential, a peer it may not read): then the user is
 * answered, and its fields say what they can.
 */
export async function userExists(id: Int64, ctx: GatewayContext): Promise<boolean> {
  try {
    await publicProfileOf({ id }, ctx);
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

/**
 * Forgets what the app's cache holds of these users' public face, after a write to them through
 * this gateway (an admin's batch), so the next lists show it; other replicas' caches show it
 * within PEER_TTL_MS, as for a change made elsewhere.
 */
export function forgetPublicFaces(ctx: GatewayContext, ids: readonly (Int64 | string)[]): void {
  const peers = ctx.peers;
  if (!peers) return;
  for (const id of ids) for (const what of PEER_READS) peers.credential.cache.delete(what, idText(toInt64(id)));
}

/** The same after a write of the acting user's own (read your writes on this replica). */
export async function forgetPublicFace(ctx: GatewayContext): Promise<void> {
  if (!ctx.peers) return;
  const id = ctx.caller.userId ?? (await provenCaller(ctx).catch(() => null));
  if (id !== null) forgetPublicFaces(ctx, [id]);
}
