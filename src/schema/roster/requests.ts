// The requests screen: friend requests the user received (8.4), newest first, handled ones too
// (their status says how). The service pages them; the gateway's cursors name a request (its
// sender), so pages neither repeat nor skip one when requests arrive between two reads.
import { idText } from '../../rest/json';
import { builder, reaches } from '../core/builder';
import { connectionOf, pageArgs } from '../core/connection';
import { deprecatedFor, REMOVAL_2027_07 } from '../core/deprecation';
import { UserRef } from '../core/refs';
import { toConnection, toPaging } from '../core/service-paging';
import { restFor, userIdOf } from '../core/profile';
import { FriendRequestRef, friendRequestOf } from './request';

/** The service's default page of 8.4 (the emulator's reading: the group lists' default). */
const PAGE = 100;

// 8.4 answers no total: the count was always null (issue 42).
const FriendRequestConnectionRef = connectionOf(
  'FriendRequest',
  FriendRequestRef,
  'friend request',
  undefined,
  deprecatedFor('`pageInfo.hasNextPage` (the service does not count friend requests: this is always null)', REMOVAL_2027_07),
);

/** An edge of a friend requests list (a FriendRequestReceived event offers one). */
export const FriendRequestEdgeRef = FriendRequestConnectionRef.edge;

builder.objectFields(UserRef, (t) => ({
  friendRequests: t.field({
    type: FriendRequestConnectionRef,
    nullable: false,
    description:
      "Friend requests the user received (the acting user's, or with an admin token any user's), newest first. Handled and " +
      'expired ones stay listed, with their status, until the sender asks again.',
    extensions: reaches('GET /roster/apply/list', 'GET /user/profile'),
    args: pageArgs(PAGE),
    resolve: async (u, args, ctx) => {
      const paging = toPaging(args, PAGE);
      // The receiver's ID (in each request's global ID) is read beside the list, not after it.
      const [reply, receiverId] = await Promise.all([restFor(u, ctx).call('GET /roster/apply/list', paging), userIdOf(u, ctx)]);
      return toConnection(reply, args, {
        defaultFirst: PAGE,
        id: (a) => idText(a.user_id),
        map: (a) => friendRequestOf(receiverId, a),
      });
    },
  }),
}));
