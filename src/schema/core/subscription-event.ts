// A live update's event as the value of its subscription field, for every domain that streams one
// (message/, roster/).
import type { GatewayContext } from '../../context';
import type { SubscriptionEvent } from '../../subscriptions/hub';

/**
 * An event as the field's value. Each event is resolved like a new request: the nested fields
 * (a conversation's user or group) read the service afresh, not what an earlier event cached.
 */
export function valueOf<T>(event: SubscriptionEvent<T>, ctx: GatewayContext): T {
  ctx.invalidate();
  // A failed poll: worded with the other failures of the result (core/upstream-errors.ts).
  if ('error' in event) throw event.error;
  return event.value;
}
