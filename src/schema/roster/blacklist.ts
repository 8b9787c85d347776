// The acting user's personal blacklist (8.6), beside the group blacklists: the list, and the two
// mutations that change it (8.5, 8.16). Blocking a friend ends the friendship on both sides.
import { idText } from '../../rest/json';
import { builder } from '../core/builder';
import { connectionOf } from '../core/connection';
import { wholeListField } from '../core/keyset';
import { mutation } from '../core/mutation';
import { UserRef } from '../core/refs';
import { restFor } from '../core/profile';
import { contactChange, contactPayload, removedIdField } from './payloads';

const UserConnectionRef = connectionOf('User', UserRef, 'user');

builder.objectFields(UserRef, (t) => ({
  blockedUsers: wholeListField(t, {
    type: UserConnectionRef,
    description:
      "The user's personal blacklist (the acting user's, or with an admin token any user's), in the order they were put on it: " +
      'they cannot send the user messages or friend requests. Group blacklists are Group.blockedMembers.',
    endpoint: 'GET /roster/blocked_list',
    defaultFirst: 100,
    // No sort key: the service's order (oldest first) is kept, and a cursor names its user.
    key: (u) => ({ sort: null, id: idText(u.id!) }),
    order: 'ascending',
    read: async (u, ctx) => (await restFor(u, ctx).call('GET /roster/blocked_list', {})).data.map((id) => ({ id })),
  }),
}));

const USER_ID = { name: 'userId', for: 'User', description: 'The user.' } as const;

mutation('blockUser', {
  description:
    "Put a user on the acting user's blacklist: they can no longer message the acting user or send friend requests. " +
    'A friendship ends (on both sides) and pending requests between the two are withdrawn. Blocking again changes nothing.',
  endpoints: ['PUT /roster/block'],
  payload: contactPayload(
    'BlockUserPayload',
    "The outcome of blockUser: the user (relation BLOCKED) and the acting user's lists.",
    (t) => ({
      removedFriendId: removedIdField(t, "The blocked user's ID: it leaves the acting user's friends lists (Relay @deleteEdge)."),
    }),
  ),
  refusals: { 10006: { field: ['userId'] } },
  id: USER_ID,
  resolve: async (userId, ctx) => contactChange((await ctx.rest.call('PUT /roster/block', { user_id: userId })).data, userId),
});

mutation('unblockUser', {
  description:
    "Take a user off the acting user's blacklist. Their relation becomes FORMER_FRIEND or STRANGER (a friendship does not " +
    'come back by itself). Unblocking a user not blocked changes nothing.',
  endpoints: ['DELETE /roster/unblock'],
  payload: contactPayload('UnblockUserPayload', "The outcome of unblockUser: the user and the acting user's lists.", (t) => ({
    unblockedUserId: removedIdField(t, "The unblocked user's ID: it leaves the acting user's blockedUsers lists (Relay @deleteEdge)."),
  })),
  id: USER_ID,
  resolve: async (userId, ctx) => contactChange((await ctx.rest.call('DELETE /roster/unblock', { user_id: userId })).data, userId),
});
