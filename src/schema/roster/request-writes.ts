// Friend requests made and answered: sendFriendRequest (8.2), acceptFriendRequest (8.1) and
// declineFriendRequest (8.7). Their payloads carry the users and the request as they are after the
// write (read lazily, fresh), so a contacts list and a requests list follow from the payload alone.
// sendFriendRequests (the batch) is in request-batch.ts.
import type { Int64 } from '../../rest/json';
import { builder, reaches } from '../core/builder';
import { idInput } from '../core/id-kinds';
import { fromResult, mutation, payloadType } from '../core/mutation';
import type { Refusals } from '../core/user-errors';
import { rosterItemOf } from './loaders';
import { type ContactChange, contactChange, meField, userField } from './payloads';
import { FriendRequestRef, receivedRequest } from './request';

export const FriendRequestOutcome = builder.enumType('FriendRequestOutcome', {
  description: 'What a friend request led to (a refused one is a userError instead).',
  values: {
    FRIENDS: { value: 'FRIENDS', description: 'The two are friends now (the user admits anyone or the right answer, or had asked first).' },
    WAITING: { value: 'WAITING', description: 'The request waits for the user to accept or decline it.' },
  },
});

/** Whether the two are friends after a request went through: the acting user's relation to the user. */
export const outcomeOf = async (ctx: Parameters<typeof rosterItemOf>[0], userId: Int64) =>
  (await rosterItemOf(ctx, userId))?.relation === 0 ? ('FRIENDS' as const) : ('WAITING' as const);

/** Describes the outcome field (read after the write: one roster read). */
export const OUTCOME = 'Friends at once, or waiting for the user; null when refused.';

/** How the service refuses a friend request (the codes of document 4; the emulator's words pick the cause of 10002 and 10010). */
export const requestRefusals = (userField: readonly string[], answerField: readonly string[]): Refusals => ({
  10002: { code: 'CANNOT_REQUEST_SELF', field: userField, when: /acting user itself/ },
  10005: { code: 'ALREADY_FRIENDS', field: userField },
  10006: { code: 'BLOCKED', field: userField },
  10010: { code: 'WRONG_ANSWER', field: answerField, when: /auth_answer/ },
  10012: { code: 'REQUESTS_REFUSED', field: userField },
});

const requestField = (description: string) =>
  ({
    type: FriendRequestRef,
    description: `${description} Null when refused or when there is none.`,
    extensions: reaches('GET /roster/apply/list', 'GET /user/profile'),
  }) as const;

const SendFriendRequestPayloadRef = payloadType<ContactChange>('SendFriendRequestPayload', {
  description: 'The outcome of sendFriendRequest: friends at once or waiting, the user (with their new relation) and the acting user.',
  ok: (c) => c.ok,
  fields: (t) => ({
    outcome: t.field({
      type: FriendRequestOutcome,
      description: OUTCOME,
      extensions: reaches('POST /roster/list'),
      resolve: fromResult((c, ctx) => outcomeOf(ctx, c.userId)),
    }),
    user: userField(t),
    me: meField(t),
    request: t.field({
      ...requestField("The user's own request to the acting user, which this one answered when the user had asked first (now ACCEPTED)."),
      resolve: fromResult((c, ctx) => receivedRequest(ctx, c.userId)),
    }),
  }),
});

const FriendRequestPayloadRef = payloadType<ContactChange>('FriendRequestPayload', {
  description: 'The outcome of an answer to a friend request: the request (its new status), its sender and the acting user.',
  ok: (c) => c.ok,
  fields: (t) => ({
    request: t.field({
      ...requestField('The request answered, with its new status.'),
      resolve: fromResult((c, ctx) => receivedRequest(ctx, c.userId)),
    }),
    user: userField(t),
    me: meField(t),
  }),
});

mutation('sendFriendRequest', {
  description:
    'Ask a user to be friends. By their settings the two become friends at once (anyone admitted, or the right answer to ' +
    'User.authQuestion, or the user had asked first), the request waits for them, or it is refused (userErrors).',
  endpoints: ['POST /roster/apply'],
  payload: SendFriendRequestPayloadRef,
  refusals: requestRefusals(['input', 'userId'], ['input', 'answer']),
  fanOut: { recipients: () => 1 },
  inputDescription: 'The user to ask and what the request says.',
  input: (t) => ({
    userId: t.field(idInput({ for: 'User', required: true, description: 'The user to ask.' })),
    message: t.string({ required: false, description: 'Text for the user to read.' }),
    alias: t.string({ required: false, description: 'The remark name the acting user gives the user once they are friends.' }),
    answer: t.string({ required: false, description: "The answer to the user's question (User.authQuestion), when they ask one." }),
  }),
  resolve: async (input, ctx) => {
    const reply = await ctx.rest.call('POST /roster/apply', {
      user_id: input.userId,
      reason: input.message ?? undefined,
      alias: input.alias ?? undefined,
      auth_answer: input.answer ?? undefined,
    });
    return contactChange(reply.data, input.userId);
  },
});

const FROM_ID = "The sender: its user ID (FriendRequest.fromId), or the request's global ID.";
const answerRefusals: Refusals = { 10007: { code: 'NO_LONGER_PENDING', field: ['input', 'fromId'] } };

mutation('acceptFriendRequest', {
  description: 'Accept a pending friend request: the two become friends (both sides at once).',
  endpoints: ['PUT /roster/accept'],
  payload: FriendRequestPayloadRef,
  refusals: answerRefusals,
  inputDescription: 'The request to accept.',
  input: (t) => ({ fromId: t.field(idInput({ for: ['User', 'FriendRequest'], required: true, description: FROM_ID })) }),
  resolve: async (input, ctx) => {
    const reply = await ctx.rest.call('PUT /roster/accept', { user_id: input.fromId });
    return contactChange(reply.data, input.fromId);
  },
});

mutation('declineFriendRequest', {
  description: 'Decline a pending friend request. The sender may ask again later.',
  endpoints: ['PUT /roster/decline'],
  payload: FriendRequestPayloadRef,
  refusals: answerRefusals,
  inputDescription: 'The request to decline.',
  input: (t) => ({
    fromId: t.field(idInput({ for: ['User', 'FriendRequest'], required: true, description: FROM_ID })),
    reason: t.string({ required: false, description: 'Why (kept by the service; no field shows it).' }),
  }),
  resolve: async (input, ctx) => {
    const reply = await ctx.rest.call('PUT /roster/decline', { user_id: input.fromId, reason: input.reason ?? undefined });
    return contactChange(reply.data, input.fromId);
  },
});
