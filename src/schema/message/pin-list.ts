// The acting user's pinned conversations (GET /user/conversation/pin_list, 2026): their IDs, most
// recently pinned first (the emulator's reading; the service states no order). Read once per
// request however many fields ask (the request's GET memo), and again after a write. The home
// list orders by it (conversations.ts); the pin fields and mutations live in pins.ts.
import type { GatewayContext } from '../../context';
import type { Int64 } from '../../rest/json';
import type { UserParent } from '../core/refs';
import { restFor } from '../core/profile';

/** The owner's pinned conversation IDs, newest pin first. */
export async function pinnedIds(owner: UserParent, ctx: GatewayContext): Promise<Int64[]> {
  return (await restFor(owner, ctx).call('GET /user/conversation/pin_list', {})).data.conversation_ids;
}
