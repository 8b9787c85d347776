// What every domain reading a user shares: the acting user, the REST client acting as a user, and
// its profile (GET /user/profile), on which the user's own ID and the public reads (user/peers.ts)
// rest. In core/ since the message, roster, push and group domains read users too.
import type { GatewayContext } from '../../context';
import { type Int64, toInt64 } from '../../rest/json';
import type { UserProfile } from '../../rest/records';
import type { RequestClient } from '../../rest/request-client';
import type { UserParent } from './refs';

const DECIMAL_ID = /^\d{1,19}$/;

/** The acting user as a parent: with its ID when the caller names it (user_id header), saving a profile read. */
export function actingUser(ctx: GatewayContext): UserParent {
  const id = ctx.caller.userId;
  return id !== undefined && DECIMAL_ID.test(id) ? { id: toInt64(id) } : {};
}

/**
 * The REST client acting as the user: the caller itself for `me`, the client the parent brings (a
 * token just issued), or (admin token) the user by ID.
 */
export function restFor(user: UserParent, ctx: GatewayContext): RequestClient {
  if (user.as) return user.as;
  return user.id === undefined ? ctx.rest : ctx.restAs(user.id);
}

/** The profile of the user: the acting user's own, or (admin token) another user's. */
export async function profileOf(user: UserParent, ctx: GatewayContext): Promise<UserProfile> {
  return (await restFor(user, ctx).call('GET /user/profile', {})).data;
}

/** The user's ID: the parent's, or for the acting user one profile read (memoized per request). */
export async function userIdOf(user: UserParent, ctx: GatewayContext): Promise<Int64> {
  return user.id ?? (await profileOf(user, ctx)).user_id;
}
