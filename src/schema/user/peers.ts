// The public face of other users (nickName, avatar, publicInfo, online) for any authenticated
// caller. Who reads it:
// - the acting user itself, and a caller holding another admin token, read with their own access;
// - a caller holding the service token itself reads other users' public fields as below (the cache);
// - any other caller of the app, through the gateway's service credential (IM_ADMIN_TOKEN): one
//   call per peer and endpoint per request (a per-request DataLoader), answers shared by all
//   requests of the app for PEER_TTL_MS;
// - without that credential, a caller who may not read the peer gets null without an error.
// Private fields (email, mobile, privateInfo, settings, ...) never take this path.
import DataLoader from 'dataloader';
import type { GatewayContext } from '../../context';
import { idText, type Int64 } from '../../rest/json';
import type { UserProfile } from '../../rest/records';
import type { RequestClient } from '../../rest/request-client';
import { provenBy, remembered } from '../../peers/service-credential';
import { defineLoader } from '../core/loader';
import { errorCodeOf, upstreamCodeOf } from '../core/upstream-errors';
import type { UserParent } from '../core/refs';
import { restFor, userIdOf } from './profile';

/** What the public fields' descriptions say about who may read them. */
export const PUBLIC =
  'Public: any signed-in user of the app reads it for any user when the gateway holds a service credential (IM_ADMIN_TOKEN); ' +
  "without one, null for users the caller may not read. Other users' values may be up to 5 s old.";

/** The service's code for an invalid parameter or header (upstream notes). */
const INVALID_PARAMETER = 10002;

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/** A read of one user's public data, made with some client acting as that user. */
type PeerRead<T> = (rest: RequestClient) => Promise<T>;

const readProfile: PeerRead<UserProfile> = async (rest) => (await rest.call('GET /user/profile', {})).data;
const readOnline: PeerRead<{ online: boolean }> = async (rest) => (await rest.call('GET /user/online_status', {})).data;

/** One loader per read: a request asks the service (or the app's cache) once per peer. */
function peerLoader<T>(what: string, read: PeerRead<T>) {
  return defineLoader(
    (ctx) =>
      new DataLoader<Int64, T, string>(
        (ids) =>
          Promise.all(
            ids.map((id) => {
              const peers = ctx.peers!;
              const key = `${peers.credential.appId}:${what}:${idText(id)}`;
              // A failure is reported to this request and not remembered.
              return remembered(peers.credential, key, () => read(peers.as(id))).catch(asError);
            }),
          ),
        { cacheKeyFn: idText },
      ),
  );
}

const peerProfiles = peerLoader('profile', readProfile);
const peerOnline = peerLoader('online', readOnline);

/** A refusal of the caller's own access to another user (a user token with a user_id header). */
export const isForbidden = (err: unknown) => errorCodeOf(err) === 'FORBIDDEN';

async function readPublic<T>(
  u: UserParent,
  ctx: GatewayContext,
  read: PeerRead<T>,
  loader: (ctx: GatewayContext) => DataLoader<Int64, T, string>,
): Promise<T | null> {
  const own = () => read(restFor(u, ctx));
  // The acting user, or a user with its own fresh token (a login's answer): its own access.
  if (u.id === undefined || u.as) return own();
  // The service token itself (an admin caller of the app, usually acting as one user): another
  // user's public fields come from the app's shared cache too; the acting user's are read fresh.
  if (ctx.peers?.callerIsService) return idText(u.id) === ctx.caller.userId ? own() : loader(ctx).load(u.id);
  if (ctx.peers) {
    const self = await provenCaller(ctx);
    // An admin token of its own reads anyone with its own access.
    if (self === null) return own();
    // Its own fields are read fresh, never from the shared cache.
    return idText(self) === idText(u.id) ? read(ctx.rest) : loader(ctx).load(u.id);
  }
  try {
    return await own();
  } catch (err) {
    if (!ctx.peers && isForbidden(err)) return null;
    throw err;
  }
}

/**
 * Who the caller is, by its own profile read with its own token: that read proves the token before
 * the credential serves the caller (authenticated callers only). Null for an admin token acting as
 * no user (another admin token of the app than the credential, without a user_id header): the
 * service refuses that read for the missing header (10002), and such a caller reads anyone itself.
 * A user token's proof is remembered briefly (README: trust model; service-credential.ts).
 */
export function provenCaller(ctx: GatewayContext): Promise<Int64 | null> {
  const prove = async () => {
    try {
      return await userIdOf({}, ctx);
    } catch (err) {
      if (ctx.caller.userId === undefined && upstreamCodeOf(err) === INVALID_PARAMETER) return null;
      throw err;
    }
  };
  return ctx.peers ? provenBy(ctx.peers.credential, ctx.caller, prove) : prove();
}

/** The user's public profile: see the top of this file for whose access reads it. */
export const publicProfileOf = (u: UserParent, ctx: GatewayContext) => readPublic(u, ctx, readProfile, peerProfiles);

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
