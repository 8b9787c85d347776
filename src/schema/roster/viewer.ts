// The acting user's own ID, which roster answers leave out (they describe the other user).
import type { GatewayContext } from '../../context';
import type { Int64 } from '../../rest/json';
import { actingUser, userIdOf } from '../core/profile';

/** The acting user's ID: the user_id header's (admin token), else one profile read (memoized per request). */
export const viewerIdOf = (ctx: GatewayContext): Promise<Int64> => userIdOf(actingUser(ctx), ctx);
