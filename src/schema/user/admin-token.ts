// Writes only the app's admin token may make (broadcastMessage), refused for any other caller
// before the write is sent. The gateway cannot read a token's kind; it knows it by:
// - the token it holds itself (IM_ADMIN_TOKEN): an admin token, with no call;
// - otherwise the caller proof it makes anyway (peers.ts: the caller's own profile, read with its
//   token, remembered 5 s per token when the gateway holds a credential): answered for a token
//   sent alone, it is a user's token; refused for the missing user_id header, an admin token. A
//   user_id header is honoured only with an admin token (a user token with one is refused: 10010),
//   so a proof made with one is an admin token's too.
import type { GatewayContext } from '../../context';
import { GatewayError } from '../../rest/errors';
import { provenCaller } from '../core/caller-proof';

/** Throws UNAUTHENTICATED without a token, FORBIDDEN for a user token; never sends the write itself. */
export async function requireAdminToken(ctx: GatewayContext, what: string): Promise<void> {
  const { caller } = ctx;
  if (caller.token === undefined)
    throw new GatewayError(`${what} needs the app's admin token; the request sent no token.`, 'UNAUTHENTICATED');
  if (ctx.peers?.callerIsService) return;
  const proven = await provenCaller(ctx);
  if (proven !== null && caller.userId === undefined) {
    throw new GatewayError(`${what} needs the app's admin token; a user's token may not do it.`, 'FORBIDDEN');
  }
}
