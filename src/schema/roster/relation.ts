// What the acting user's roster says of a user: the relation, the user's verification question,
// the acting user's notes on them (alias, ext, mute), and whether the acting user may message them.
// All are the acting user's own view, read through the request's own client (loaders.ts), never
// from the app's cache of public profiles.
import type { GatewayContext } from '../../context';
import type * as R from '../../rest/records';
import type { RequestClient } from '../../rest/request-client';
import { builder, reaches } from '../core/builder';
import { type UserParent, UserRef } from '../core/refs';
import { userIdOf } from '../core/profile';
import { rosterItemOf } from './loaders';
import { viewerIdOf } from './viewer';

export const Relation = builder.enumType('Relation', {
  description: "A user's relation to the acting user.",
  values: {
    FRIEND: { value: 0, description: 'A friend.' },
    FORMER_FRIEND: { value: 1, description: 'A friend once: the friendship was ended (by either side, or by a block).' },
    STRANGER: { value: 2, description: 'Never a friend (the acting user itself too).' },
    BLOCKED: { value: 3, description: "On the acting user's blacklist." },
  },
});

type RelationValue = 0 | 1 | 2 | 3;

/** The service's relation code as the enum's value (a code outside 0-3 fails the field alone). */
export const relationOf = (item: R.RosterItem) => item.relation as RelationValue;

/** The user's roster item as `client`'s acting user (the request's own by default) sees it; null for an unknown user. */
export async function itemOf(u: UserParent, ctx: GatewayContext, client?: RequestClient): Promise<R.RosterItem | null> {
  return rosterItemOf(ctx, await userIdOf(u, ctx), client);
}

/** Describes a note of the acting user's on a user. */
export const NOTE = "The acting user's own, set with updateFriend; null when the two are not friends (or the user is unknown).";

/** The acting user's notes on a user (8.9): alias, ext, mute; null for one who is not a friend. */
export const notes = {
  alias: (item: R.RosterItem | null) => (item && item.relation === 0 ? item.alias : null),
  ext: (item: R.RosterItem | null) => (item && item.relation === 0 ? item.ext : null),
  muted: (item: R.RosterItem | null) => (item && item.relation === 0 ? item.mute_notification : null),
};

/** The fields reading the roster item: one POST /roster/list for every user of the request. */
const ROSTER_READ = reaches('POST /roster/list', 'GET /user/profile');

builder.objectFields(UserRef, (t) => ({
  relation: t.field({
    type: Relation,
    description: "This user's relation to the acting user (its own view: no other caller shares it). Null for an unknown user.",
    extensions: ROSTER_READ,
    resolve: async (u, _args, ctx) => {
      const item = await itemOf(u, ctx);
      return item && relationOf(item);
    },
  }),
  authQuestion: t.string({
    description:
      'The question this user asks of friend requests (answer it in sendFriendRequest); null when the user asks none ' +
      '(their requests are admitted, reviewed or refused without one).',
    extensions: ROSTER_READ,
    resolve: async (u, _args, ctx) => {
      const item = await itemOf(u, ctx);
      return item && item.auth_mode === 2 && item.auth_question ? item.auth_question : null;
    },
  }),
  alias: t.string({
    description: `The remark name the acting user gave this friend. ${NOTE}`,
    extensions: ROSTER_READ,
    resolve: async (u, _args, ctx) => notes.alias(await itemOf(u, ctx)),
  }),
  ext: t.string({
    description: `The extension string the acting user keeps for this friend. ${NOTE}`,
    extensions: ROSTER_READ,
    resolve: async (u, _args, ctx) => notes.ext(await itemOf(u, ctx)),
  }),
  muted: t.boolean({
    description: `Whether the acting user muted this friend's messages (no notifications). ${NOTE}`,
    extensions: ROSTER_READ,
    resolve: async (u, _args, ctx) => notes.muted(await itemOf(u, ctx)),
  }),
  viewerCanMessage: t.boolean({
    description:
      'Whether the acting user may send this user messages: false when this user has the acting user on their blacklist ' +
      '(friendship does not count; strangers may message).',
    extensions: reaches('GET /roster/may_message', 'GET /user/profile'),
    resolve: async (u, _args, ctx) => {
      const [viewer, other] = await Promise.all([viewerIdOf(ctx), userIdOf(u, ctx)]);
      return (await ctx.rest.call('GET /roster/may_message', { user_id: viewer, roster_id: other })).data;
    },
  }),
}));
