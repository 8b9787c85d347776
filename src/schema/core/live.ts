// A subscription field's one door to the hub (src/subscriptions/hub.ts): its declaration (a
// LiveSource beside the field), the request's identity, and where a stream resumes. A retried
// WebSocket subscription's own position (its resume slot) comes first: the `after` it names is
// the stale one it was first sent with.
import type { GatewayContext } from '../../context';
import type { SubscriptionEvent } from '../../subscriptions/events';
import type { LiveSource } from '../../subscriptions/live-source';

export function subscribeLive<P, T, D>(
  ctx: GatewayContext,
  live: LiveSource<P, T, D>,
  after?: string,
): AsyncIterableIterator<SubscriptionEvent<D>> {
  return ctx.subscriptions.subscribe(ctx.identity, live, { after: ctx.resume?.from ?? after, mark: ctx.resume?.mark });
}
