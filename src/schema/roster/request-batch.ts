// sendFriendRequests: one request to several users (8.3). The service answers the IDs that went
// through and a reason text per failed one; each input entry gets one result, and each failed
// entry is a userError whose field ends with its index (["input", "userIds", "2"]), as the other
// batch writes do.
import { idText, type Int64 } from '../../rest/json';
import type * as R from '../../rest/records';
import { builder, reaches } from '../core/builder';
import { idListInput } from '../core/id-kinds';
import { fromResult, mutation, payloadType } from '../core/mutation';
import { UserRef } from '../core/refs';
import { listLength, MAX_FAN_OUT_BODY_BYTES, recipientsIn, textBytes } from '../core/fan-out';
import { entryRefusal, GatewayRefusal, UserErrorCode, type UserErrorShape } from '../core/user-errors';
import { idList, MAX_IDS } from '../group/common';
import { meField } from './payloads';
import { FriendRequestOutcome, OUTCOME, outcomeOf } from './request-writes';

/** One input entry's result: its user, and the service's reason when it failed. */
interface EntryResult {
  userId: Int64;
  /** null: it went through. */
  refusal: UserErrorShape | null;
}

/**
 * One result per input entry, in input order. The service names entries by user ID: an ID listed
 * twice takes its success (if any) first, then its failures in order.
 */
export function entryResults(userIds: readonly Int64[], reply: R.BatchApplyResult): EntryResult[] {
  const queues = new Map<string, (string | null)[]>();
  const queueOf = (id: Int64) => {
    let queue = queues.get(idText(id));
    if (!queue) queues.set(idText(id), (queue = []));
    return queue;
  };
  for (const id of reply.success) queueOf(id).push(null);
  for (const fail of reply.fails) queueOf(fail.user_id).push(fail.reason);
  return userIds.map((userId, i) => {
    const reason = queueOf(userId).shift();
    // An entry the service did not answer for failed with no reason given.
    const refusal = reason === null ? null : entryRefusal(reason ?? '', ['input', 'userIds', String(i)]);
    return { userId, refusal };
  });
}

const FriendRequestResultRef = builder.objectRef<EntryResult>('FriendRequestResult').implement({
  description: 'The outcome of a friend request to one user of sendFriendRequests.',
  fields: (t) => ({
    userId: t.field({ type: 'ID', nullable: false, description: 'The user asked.', resolve: (r) => r.userId }),
    success: t.boolean({ nullable: false, description: 'Whether the request went through.', resolve: (r) => r.refusal === null }),
    code: t.field({
      type: UserErrorCode,
      description: "Why it was refused (the code of this entry's userError); null on success.",
      resolve: (r) => r.refusal?.code ?? null,
    }),
    reason: t.string({
      description: "Why it was refused, in the service's words; null on success.",
      resolve: (r) => r.refusal?.message ?? null,
    }),
    outcome: t.field({
      type: FriendRequestOutcome,
      description: OUTCOME,
      extensions: reaches('POST /roster/list'),
      resolve: (r, _args, ctx) => (r.refusal ? null : outcomeOf(ctx, r.userId)),
    }),
    user: t.field({
      type: UserRef,
      nullable: false,
      description: 'The user, read fresh (their new relation).',
      resolve: (r) => ({ id: r.userId }),
    }),
  }),
});

const SendFriendRequestsPayloadRef = payloadType<EntryResult[]>('SendFriendRequestsPayload', {
  description:
    'The outcome of sendFriendRequests: one result per user listed. ok is true only when every request went through; when ' +
    'some did and some were refused, ok is false, the ones that went through stay sent (nothing is undone: results tells ' +
    'them by success), and each refused entry is also a userError whose field is its input path (["input", "userIds", "2"]).',
  entryErrors: (results) => results.flatMap((r) => (r.refusal ? [r.refusal] : [])),
  fields: (t) => ({
    results: t.field({
      type: [FriendRequestResultRef],
      description: 'One result per user listed, in input order.',
      resolve: fromResult((r) => r),
    }),
    me: meField(t),
  }),
});

/** One application's bytes beside its texts: `{"user_id":…,"reason":"","alias":""}` and a comma. */
const APPLICATION_OVERHEAD = 64;

/** The upstream body's bytes: message and alias are copied into every user's application (before JSON escapes). */
const applicationBytes = (input: Readonly<Record<string, unknown>>) =>
  listLength(input.userIds) * (APPLICATION_OVERHEAD + textBytes(input.message) + textBytes(input.alias));

/** Refuses, before the body is built, a batch whose copies would pass MAX_FAN_OUT_BODY_BYTES. */
function boundedCopies(input: Readonly<Record<string, unknown>>): void {
  const bytes = applicationBytes(input);
  if (bytes <= MAX_FAN_OUT_BODY_BYTES) return;
  const message =
    `${listLength(input.userIds)} users × ${textBytes(input.message) + textBytes(input.alias)} bytes of message and alias would ` +
    `build a ${bytes}-byte request, over the gateway's bound of ${MAX_FAN_OUT_BODY_BYTES} bytes: send fewer users or a shorter message`;
  throw new GatewayRefusal({ field: ['input', 'message'], code: 'TOO_LARGE', message });
}

mutation('sendFriendRequests', {
  description:
    'Ask several users to be friends, with one message. Each goes as sendFriendRequest would, without an answer to a ' +
    "question: a user who asks one refuses it (WRONG_ANSWER). A refused user doesn't stop the others.",
  endpoints: ['POST /roster/apply/batch'],
  payload: SendFriendRequestsPayloadRef,
  fanOut: { recipients: (input) => recipientsIn(input.userIds, MAX_IDS), upstreamBytes: applicationBytes },
  inputDescription: 'The users to ask and what the requests say.',
  input: (t) => ({
    userIds: t.field(idListInput({ for: 'User', required: true, description: 'The users to ask (at most 1000).' })),
    message: t.string({ required: false, description: 'Text for each user to read.' }),
    alias: t.string({ required: false, description: 'The remark name the acting user gives each of them once friends.' }),
  }),
  resolve: async (input, ctx) => {
    const userIds = idList('input.userIds', input.userIds);
    boundedCopies(input);
    const reason = input.message ?? undefined;
    const alias = input.alias ?? undefined;
    const reply = await ctx.rest.call('POST /roster/apply/batch', {
      applications: userIds.map((id) => ({ user_id: id, reason, alias })),
    });
    return entryResults(userIds, reply.data);
  },
});
