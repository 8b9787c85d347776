// A friend request: an application of document 4 (8.4) as its receiver sees it. The service names
// an application by its applicant alone (one per applicant and receiver), so its global ID is the
// receiver and the applicant; a new application of the same sender replaces the old one under the
// same ID (a client cache then shows the newest).
import type { GatewayContext } from '../../context';
import { type Int64, sameId } from '../../rest/json';
import type * as R from '../../rest/records';
import { builder } from '../core/builder';
import { cacheIdField } from '../core/cache-id';
import { fetchableNode } from '../core/node-kinds';
import { NodeRef, UserRef } from '../core/refs';
import { findListed } from '../group/loaders';
import { msOrNull } from '../group/common';
import { viewerIdOf } from './viewer';

/** A received application and who received it (the acting user when it was read). */
export interface FriendRequestShape {
  readonly receiverId: Int64;
  readonly application: R.FriendApplication;
}

export const friendRequestOf = (receiverId: Int64, application: R.FriendApplication): FriendRequestShape => ({
  receiverId,
  application,
});

export const FriendRequestStatus = builder.enumType('FriendRequestStatus', {
  description: 'State of a friend request.',
  values: {
    PENDING: { value: 0, description: 'Waiting for the receiver (it may have expired: see expiresAt).' },
    ACCEPTED: { value: 1, description: 'Accepted: the two are friends (or were, when that ended since).' },
    DECLINED: { value: 2, description: 'Declined by the receiver.' },
  },
});

type StatusValue = 0 | 1 | 2;

export const FriendRequestRef = builder.objectRef<FriendRequestShape>('FriendRequest').implement({
  description: 'A friend request the acting user received (one per sender: a new request of the same sender replaces it).',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: cacheIdField(t, 'FriendRequest', 'receiver ID and sender ID', (r) => [r.receiverId, r.application.user_id]),
    fromId: t.field({
      type: 'ID',
      nullable: false,
      description: 'ID of the sender; acceptFriendRequest and declineFriendRequest take it (or this request ID).',
      resolve: (r) => r.application.user_id,
    }),
    from: t.field({ type: UserRef, nullable: false, description: 'The sender.', resolve: (r) => ({ id: r.application.user_id }) }),
    message: t.string({ description: 'The text the sender attached.', resolve: (r) => r.application.reason }),
    status: t.field({
      type: FriendRequestStatus,
      description: 'Pending, accepted or declined.',
      resolve: (r) => r.application.status as StatusValue,
    }),
    expiresAt: t.field({
      type: 'DateTime',
      description: 'When the request expires; a pending one can no longer be accepted after it.',
      resolve: (r) => msOrNull(r.application.expired_time),
    }),
  }),
});

/** The acting user's received request from `fromId`, as 8.4 lists it; null when there is none. */
export async function receivedRequest(ctx: GatewayContext, fromId: Int64): Promise<FriendRequestShape | null> {
  const [receiverId, application] = await Promise.all([
    viewerIdOf(ctx),
    findListed(
      (paging) => ctx.rest.call('GET /roster/apply/list', paging),
      (a) => sameId(a.user_id, fromId),
    ),
  ]);
  return application && friendRequestOf(receiverId, application);
}

// node(id:): only the receiver reads a request (8.4 lists the acting user's own): null for others.
fetchableNode('FriendRequest', async ([receiverId, fromId], ctx) => {
  const request = await receivedRequest(ctx, fromId!);
  return request && sameId(request.receiverId, receiverId!) ? request : null;
});
