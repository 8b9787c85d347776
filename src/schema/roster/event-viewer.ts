// What a live event offers a normalized client cache, beside the thing it is about: the viewer
// (`me`), read fresh with the subscriber's identity, so that selecting a list on it (friends,
// friendRequests, conversations) updates the cached list as a mutation's payload does; and the
// edge the event adds to its list, whose cursor is that list's own. Nothing is read unless
// selected, and the reads are the event's: every subscriber of the same identity resolving the
// same event shares them (ctx.restForEvent), whatever each selects.
import type { InterfaceFieldBuilder, ObjectFieldBuilder } from '@pothos/core';
import type { GatewayContext } from '../../context';
import type { SchemaTypes } from '../core/builder';
import { type UserParent, UserRef } from '../core/refs';
import { actingUser } from '../core/profile';

/** The viewer as of the event: the acting user, read through the event's shared client. */
export const viewerOnEvent = (event: object, ctx: GatewayContext): UserParent => ({ ...actingUser(ctx), as: ctx.restForEvent(event) });

/** Describes `me` on an event; `lists` names the lists the event changes. */
const ME = (lists: string) =>
  `The viewer, read fresh when the event is sent: select ${lists} with the arguments your screen uses and a normalized ` +
  'cache shows the list current, with no cache code. Read only when selected, once per event for all subscriptions of the same identity.';

/** `me` on an event type; `event` picks the hub's value the reads are shared by. */
export function eventViewerField<E extends object>(
  t: ObjectFieldBuilder<SchemaTypes, E> | InterfaceFieldBuilder<SchemaTypes, E>,
  lists: string,
) {
  return t.field({
    type: UserRef,
    nullable: false,
    description: ME(lists),
    resolve: (e, _args, ctx) => viewerOnEvent(e, ctx),
  });
}
