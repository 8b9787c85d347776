// The caller's proof: its own profile read with its own token, which proves the token before the
// service credential serves the caller (user/peers.ts). In core/ since the user and group domains
// ask for it (a group's viewer flags, the early proof, the admin-token check).
import type { GatewayContext } from '../../context';
import { idText, type Int64 } from '../../rest/json';
import { provenBy } from '../../peers/service-credential';
import { upstreamCodeOf } from './upstream-errors';

/** The service's code for an invalid parameter or header (upstream notes). */
const INVALID_PARAMETER = 10002;

/**
 * Who the caller is, by its own profile read with its own token: that read proves the token before
 * the credential serves the caller (authenticated callers only). Null for an admin token acting as
 * no user (another admin token of the app than the credential, without a user_id header): the
 * service refuses that read for the missing header (10002), and such a caller reads anyone itself.
 * A user token's proof is remembered in the gateway's record of proven tokens (README: trust
 * model; rest/proven-tokens.ts): within its lifetime, no proof round.
 */
export function provenCaller(ctx: GatewayContext): Promise<Int64 | null> {
  // Asked once per listed user: the request keeps the answer beside its loaders (forgotten with them).
  let proof = ctx.loaders.get(PROOF) as Promise<Int64 | null> | undefined;
  if (!proof) ctx.loaders.set(PROOF, (proof = proveCaller(ctx)));
  return proof;
}

/**
 * Whether the service credential serves the caller at once, with no proof round (no I/O): the
 * service token itself, or a token proven within its lifetime whom it acts as is known.
 */
export function provenNow(ctx: GatewayContext): boolean {
  const peers = ctx.peers;
  return peers !== undefined && (peers.callerIsService || peers.credential.tokens.actingOf(ctx.caller) !== undefined);
}

/** The request's proof of its caller, in its loaders' map. */
const PROOF = Symbol('caller proof');

function proveCaller(ctx: GatewayContext): Promise<Int64 | null> {
  const prove = async () => {
    try {
      // The caller's own profile, with its own client (core/profile.ts's profileOf of the acting user).
      const profile = (await ctx.rest.call('GET /user/profile', {})).data;
      // The caller's profile is its public face too: the app's cache starts with it, so the
      // caller listed among others (a member, a sender) costs no second read.
      ctx.peers?.credential.cache.set('profile', idText(profile.user_id), Promise.resolve(profile));
      return profile.user_id;
    } catch (err) {
      if (ctx.caller.userId === undefined && upstreamCodeOf(err) === INVALID_PARAMETER) return null;
      throw err;
    }
  };
  return ctx.peers ? provenBy(ctx.peers.credential, ctx.caller, prove) : prove();
}
