// Whose access reads a user's profile fields (username, description, and the private ones), so
// that the gateway never sends what the service refuses: a user_id header takes effect only with
// an admin token (spec/upstream-notes.md; a user token with one is refused, 10010). So:
// - the acting user itself, a user with its own client (a token just issued), and any user for an
//   admin token (acting as a user, or as no one): the profile (GET /user/profile as that user);
// - another user for a user token: no profile read at all. What the service gives that caller
//   about the user is the caller's roster item of them (document 4, 8.12: username, description),
//   read in the request's one POST /roster/list; the private fields are null (the trust model).
// Telling the two apart costs the caller proof the gateway makes anyway (peers.ts, remembered).
import type { GatewayContext } from '../../context';
import { sameId } from '../../rest/json';
import type { RosterItem, UserProfile } from '../../rest/records';
import type { UserParent } from '../core/refs';
import { rosterItemOf } from '../roster/loaders';
import { provenCaller } from '../core/caller-proof';
import { profileOf } from '../core/profile';

/** The user as the caller may read it: its profile, or (another user, a user token) its roster item. */
export type ProfileAccess = { profile: UserProfile } | { item: RosterItem | null };

export async function profileAccess(u: UserParent, ctx: GatewayContext): Promise<ProfileAccess> {
  const { id } = u;
  // The acting user, or a user with its own token: its own access.
  if (id === undefined || u.as) return { profile: await profileOf(u, ctx) };
  // A user_id header: an admin token acting as a user (the service refuses it with any other), which reads anyone.
  if (ctx.caller.userId !== undefined) return { profile: await profileOf(u, ctx) };
  const proven = await provenCaller(ctx);
  // null: an admin token acting as no one, which reads anyone as that user.
  if (proven === null) return { profile: await profileOf(u, ctx) };
  if (sameId(proven, id)) return { profile: await profileOf({}, ctx) };
  return { item: await rosterItemOf(ctx, id) };
}

/** A field the roster item also carries: from the profile, else from the item (null for an unknown user). */
export const listedField =
  (pick: (record: UserProfile | RosterItem) => string) =>
  async (u: UserParent, _args: object, ctx: GatewayContext): Promise<string | null> => {
    const access = await profileAccess(u, ctx);
    if ('profile' in access) return pick(access.profile);
    return access.item && pick(access.item);
  };

/** A private field: from the profile, null for another user read with a user token (no call). */
export const privateField =
  (pick: (record: UserProfile) => string) =>
  async (u: UserParent, _args: object, ctx: GatewayContext): Promise<string | null> => {
    const access = await profileAccess(u, ctx);
    return 'profile' in access ? pick(access.profile) : null;
  };
