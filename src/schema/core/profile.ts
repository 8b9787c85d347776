// What every domain reading a user shares: the acting user, the REST client acting as a user, and
// its profile (GET /user/profile), on which the user's own ID and the public reads (user/peers.ts)
// rest. In core/ since the message, roster, push and group domains read users too.
import type { GatewayContext } from '../../context';
import { GatewayError } from '../../rest/errors';
import { type Int64, sameId, toInt64 } from '../../rest/json';
import type { UserProfile } from '../../rest/records';
import type { RequestClient } from '../../rest/request-client';
import { provenCaller } from './caller-proof';
import type { UserParent } from './refs';

const DECIMAL_ID = /^\d{1,19}$/;

/** The acting user as a parent: with its ID when the caller names it (user_id header), saving a profile read. */
export function actingUser(ctx: GatewayContext): UserParent {
  const id = ctx.caller.userId;
  return id !== undefined && DECIMAL_ID.test(id) ? { id: toInt64(id) } : {};
}

/**
 * The REST client acting as the user: the caller itself for `me`, the client the parent brings (a
 * token just issued), or (admin token) the user by ID. A `user_id` header takes effect only with an
 * admin token (spec/upstream-notes.md; documents 4-5): a token not known to be one is proven first
 * (caller-proof.ts, remembered), and for a user token the user is itself (its own client) or
 * another user, whose reads are refused here, before anything is sent (the service would refuse
 * them, 10010).
 */
export function restFor(user: UserParent, ctx: GatewayContext): RequestClient {
  if (user.as) return user.as;
  if (user.id === undefined) return ctx.rest;
  // Acting as a user already (an admin token's user_id header), or no token (the service answers that).
  if (ctx.caller.userId !== undefined || ctx.caller.token === undefined) return ctx.restAs(user.id);
  return provenFirst(user.id, ctx);
}

/** A client that learns who the caller is before its first call: see restFor. */
function provenFirst(id: Int64, ctx: GatewayContext): RequestClient {
  const as = async (endpoint: string): Promise<RequestClient> => {
    const proven = await provenCaller(ctx);
    // null: an admin token acting as no one, which acts as any user by ID.
    if (proven === null) return ctx.restAs(id);
    if (sameId(proven, id)) return ctx.rest;
    throw new GatewayError(
      `${endpoint} of another user needs the admin token: a user token reads only its own (the service takes user_id from the admin token alone)`,
      'FORBIDDEN',
      undefined,
      { endpoint },
    );
  };
  const asNow = ctx.restAs(id);
  return {
    caller: asNow.caller,
    clear: () => asNow.clear(),
    call: async (name, params, opts) => (await as(name)).call(name, params, opts),
    download: async (name, params, opts) => (await as(name)).download(name, params, opts),
  };
}

/** The profile of the user: the acting user's own, or (admin token) another user's. */
export async function profileOf(user: UserParent, ctx: GatewayContext): Promise<UserProfile> {
  return (await restFor(user, ctx).call('GET /user/profile', {})).data;
}

/** The user's ID: the parent's, or for the acting user one profile read (memoized per request). */
export async function userIdOf(user: UserParent, ctx: GatewayContext): Promise<Int64> {
  return user.id ?? (await profileOf(user, ctx)).user_id;
}
