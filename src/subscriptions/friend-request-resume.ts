// friendRequestReceived resumed after a request's cursor (resumable.ts): the pending requests that
// arrived after it are read from GET /roster/apply/list, then the poll's follow.
import type { Caller } from '../rest/caller';
import type { RestClient } from '../rest/client';
import { GatewayError } from '../rest/errors';
import type { FriendApplication } from '../rest/records';
import type { SubscriptionEvent } from './events';
import {
  arrivedAfter,
  comparePositions,
  type FriendRequestEvent,
  MAX_READ,
  PENDING,
  positionAfter,
  readArrivals,
} from './friend-request-source';
import { resumable, type ResumeHooks, type ResumeRules } from './resumable';

/** What subscribers receive: every event but the poll's own marker. */
export type ReceivedRequest = Extract<FriendRequestEvent, { kind: 'received' }>;

export function resumeFriendRequests(
  live: AsyncIterableIterator<SubscriptionEvent<FriendRequestEvent>>,
  rest: RestClient,
  caller: Caller,
  after: string | undefined,
  hooks: ResumeHooks = {},
): AsyncIterableIterator<SubscriptionEvent<ReceivedRequest>> {
  const rules: ResumeRules<FriendRequestEvent, ReceivedRequest> = {
    baseline: (e) => (e.kind === 'baseline' ? e.position : undefined),
    positionAfter: (e, before) => positionAfter(before ?? '0:', e.request),
    isAfter: (e, position) => arrivedAfter(e.request, position),
    compare: comparePositions,
    async read(from, to) {
      const { news, incomplete } = await readArrivals(rest, caller, from);
      const within = (a: FriendApplication) => a.status === PENDING && (to === undefined || !arrivedAfter(a, to));
      return { events: news.filter(within).map((request) => ({ kind: 'received', request })), truncated: incomplete };
    },
    tooFar: () =>
      new GatewayError(
        `after: more than ${MAX_READ} requests came after it; the newest follow. Read the others with me.friendRequests.`,
        'BAD_USER_INPUT',
        'after',
      ),
  };
  return resumable(live, rules, after, hooks);
}
