// Live roster updates, polled (src/subscriptions): the friend requests the viewer receives
// (friend-request-source.ts), resumable after a request's cursor, and the viewer's friends coming
// and going (friends-source.ts). The service's callbacks carry no roster news (document 6), so
// both are polled alone; while callbacks arrive (the identity is live by other means) they are
// polled at the slow interval, as the safety net. The roster says nothing of who
// acted, so `friendEvents` tells a friendship that began from one that ended, not who began or
// ended it: one stream of two types serves a contacts screen, which adds or drops a row either way.
// Each event offers the viewer (`me`) and the edge it adds to its list (event-viewer.ts), so a
// normalized cache keeps the requests and contacts screens current with no code.
import { type FriendEvent, friendsSource } from '../../subscriptions/friends-source';
import { type ReceivedRequest, resumeFriendRequests } from '../../subscriptions/friend-request-resume';
import { checkedCursor, type FriendRequestEvent, friendRequestSource, requestCursor } from '../../subscriptions/friend-request-source';
import type { LiveSource } from '../../subscriptions/live-source';
import { idText } from '../../rest/json';
import { subscribeLive } from '../core/live';
import { builder, reaches } from '../core/builder';
import { sortedItemCursor } from '../core/keyset';
import { UserRef } from '../core/refs';
import { firstItemCursor } from '../core/service-paging';
import { userIdOf } from '../core/profile';
import { eventViewerField, viewerOnEvent } from './event-viewer';
import { FriendEdgeRef, friendNode, idKey } from './friends';
import { friendRequestOf, FriendRequestRef } from './request';
import { FriendRequestEdgeRef } from './requests';
import { valueOf } from '../core/subscription-event';

/** The request as the viewer's list shows it: its receiver is the viewer (read through the event's shared client). */
const requestOf = async (e: ReceivedRequest, ctx: Parameters<typeof viewerOnEvent>[1]) =>
  friendRequestOf(await userIdOf(viewerOnEvent(e, ctx), ctx), e.request);

const friendRequestLive: LiveSource<FriendRequestEvent[], FriendRequestEvent, ReceivedRequest> = {
  source: friendRequestSource,
  feed: 'polled-slow',
  buffer: 'stream',
  explode: (events) => events,
  resume: {
    startOf: (state) => state,
    wrap: (live, rest, caller, after, hooks) =>
      resumeFriendRequests(live, rest, caller, after === undefined ? undefined : checkedCursor(after), hooks),
  },
};

const friendEventsLive: LiveSource<FriendEvent[], FriendEvent> = {
  source: friendsSource,
  feed: 'polled-slow',
  buffer: 'stream',
  explode: (events) => events,
};

const FriendRequestReceivedRef = builder.objectRef<ReceivedRequest>('FriendRequestReceived').implement({
  description: 'A friend request the viewer received (or one renewed by its sender), waiting for an answer.',
  fields: (t) => ({
    id: t.string({
      nullable: false,
      description:
        'Identity of the event for client caches: "FriendRequestReceived:" and its cursor (a renewed request is a new event). Not an ID of the service.',
      resolve: (e) => `FriendRequestReceived:${requestCursor(e.request)}`,
    }),
    cursor: t.string({
      nullable: false,
      description:
        "Where this request stands among those received: pass it as friendRequestReceived's `after` to resume the subscription " +
        'after it. Not a cursor of me.friendRequests: that one is edge.cursor.',
      resolve: (e) => requestCursor(e.request),
    }),
    request: t.field({
      type: FriendRequestRef,
      nullable: false,
      description:
        'The request, as me.friendRequests lists it: a normalized cache updates the request, but adds it to no cached list by ' +
        'itself (select `me { friendRequests(…) }` or `edge` for that).',
      // Its ID names the receiver: the viewer's ID, from the profile unless a user_id header gives it.
      extensions: reaches('GET /user/profile'),
      resolve: (e, _args, ctx) => requestOf(e, ctx),
    }),
    edge: t.field({
      type: FriendRequestEdgeRef,
      nullable: false,
      description:
        "The request as an edge of me.friendRequests (newest first: it arrived on top), with that list's own cursor: valid as " +
        "friendRequests' `after` (it reads the requests older than this one), for a cache that inserts the edge itself.",
      extensions: reaches('GET /user/profile'),
      resolve: async (e, _args, ctx) => ({ node: await requestOf(e, ctx), cursor: firstItemCursor(idText(e.request.user_id)) }),
    }),
    me: eventViewerField(t, '`friendRequests(first: …)`'),
  }),
});

const TYPE_OF = { added: 'FriendAdded', removed: 'FriendRemoved' } as const;

const FriendEventRef = builder.interfaceRef<FriendEvent>('FriendEvent').implement({
  description: "A change of the viewer's friends: a friendship began (FriendAdded) or ended (FriendRemoved).",
  resolveType: (e) => TYPE_OF[e.kind],
  fields: (t) => ({
    id: t.string({
      nullable: false,
      description:
        'Identity of the event itself for client caches: its type and the user, joined by ":" ("FriendRemoved:<user ID>"). Not an ID ' +
        "of the service, and not the user's: the friend who came or went is `user { id }` (Relay's @deleteEdge takes that one).",
      resolve: (e) => `${TYPE_OF[e.kind]}:${String(e.userId)}`,
    }),
    user: t.field({
      type: UserRef,
      nullable: false,
      description: 'The other user: the friend who came, or went (its `id` is the one to drop from a cached friends list).',
      resolve: (e) => ({ id: e.userId }),
    }),
    me: eventViewerField(t, '`friends(first: …)`'),
  }),
});

builder.objectRef<FriendEvent>('FriendAdded').implement({
  description:
    'The viewer and the user became friends: a request of the viewer was accepted, the viewer accepted one, or a request was admitted at once.',
  interfaces: [FriendEventRef],
  fields: (t) => ({
    edge: t.field({
      type: FriendEdgeRef,
      description:
        "The new friend as an edge of me.friends (by user ID), with that list's own cursor (valid as `after` or `before`) and the " +
        "viewer's notes on the friend; null only for a user ID beyond 2^53, which the service does not give.",
      resolve: (e, _args, ctx) => {
        const cursor = sortedItemCursor(idKey(e.userId));
        return cursor === null ? null : { node: friendNode(e.userId, viewerOnEvent(e, ctx).as!), cursor };
      },
    }),
  }),
});

builder.objectRef<FriendEvent>('FriendRemoved').implement({
  description: 'The viewer and the user are friends no more: either side removed the other, or one blocked the other.',
  interfaces: [FriendEventRef],
  fields: () => ({}),
});

builder.subscriptionFields((t) => ({
  friendRequestReceived: t.field({
    type: FriendRequestReceivedRef,
    nullable: false,
    description:
      'Each friend request the viewer receives, oldest first, as it arrives (found by polling GET /roster/apply/list; one poll per ' +
      'identity, however many subscribe). Without `after`, requests from subscribing on; with `after` (the `cursor` of the last request ' +
      'a client received), first the pending requests that came after it (at most 500), then the live ones, each exactly once. Over ' +
      'WebSocket with a `clientKey` in connectionParams, a subscription graphql-ws re-sends after a dropped connection resumes by itself.',
    extensions: reaches('GET /roster/apply/list'),
    args: {
      after: t.arg.string({ required: false, description: "Resume after this request: a FriendRequestReceived's `cursor`." }),
    },
    subscribe: (_root, args, ctx) => subscribeLive(ctx, friendRequestLive, args.after ?? undefined),
    resolve: (event, _args, ctx) => valueOf(event, ctx),
  }),
  friendEvents: t.field({
    type: FriendEventRef,
    nullable: false,
    description:
      "The viewer's friends coming and going, from subscribing on: FriendAdded when a friendship begins, FriendRemoved when it ends " +
      '(found by polling the friend list, GET /roster/list: one poll per identity). Neither says which side acted: the roster does not.',
    extensions: reaches('GET /roster/list'),
    subscribe: (_root, _args, ctx) => subscribeLive(ctx, friendEventsLive),
    resolve: (event, _args, ctx) => valueOf(event, ctx),
  }),
}));
