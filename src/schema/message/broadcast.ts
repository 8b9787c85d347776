// broadcastMessage (5.8 POST /message/broadcast): one message from the app to every user of it.
// The admin token only: any other caller is refused before the broadcast is sent (admin-token.ts),
// and bad input before any REST call.
import type * as R from '../../rest/records';
import { fromResult, mutation, payloadType } from '../core/mutation';
import { badUserInput } from '../core/inputs';
import { requireAdminToken } from '../user/admin-token';
import { contentFields, MessageAttachmentInput } from './content';
import { MessageType } from './enums';

/** The broadcast takes TEXT to COMMAND (0-6): no FORWARD, no operation messages. */
const LAST_BROADCAST_TYPE = 6;
/** Users: the one target type a broadcast takes (the whole app). */
const USERS = 1;

const BroadcastMessagePayloadRef = payloadType<R.BroadcastResult>('BroadcastMessagePayload', {
  description: 'The answer to a broadcast: whether the service reports success, and how many users it sent the message to.',
  ok: (r) => r.success,
  fields: (t) => ({
    sentCount: t.field({
      type: 'SafeInt',
      description: 'How many users the message was sent to (send_num); 0 for an app without users.',
      resolve: fromResult((r) => r.send_num),
    }),
  }),
});

mutation('broadcastMessage', {
  description:
    'Send one message to every user of the app (admin token only: POST /message/broadcast). The emulator sends it from the ' +
    "system (uid 0) into each user's conversation with the system, and answers once all are stored. A user's token is " +
    'refused with FORBIDDEN before the broadcast is sent (the gateway knows its own IM_ADMIN_TOKEN at once; any other ' +
    "token by the caller proof it makes anyway: the caller's profile, read with its token).",
  endpoints: ['POST /message/broadcast', 'GET /user/profile'],
  payload: BroadcastMessagePayloadRef,
  inputDescription: 'The message to send to every user.',
  input: (t) => ({
    type: t.field({
      type: MessageType,
      required: true,
      description: 'Kind of message (content_type): TEXT to COMMAND; FORWARD is refused.',
    }),
    content: t.string({ required: false, description: 'Message content; required (not blank) for TEXT. Default empty.' }),
    attachment: t.field({
      type: MessageAttachmentInput,
      required: false,
      description: 'The file; required for IMAGE, AUDIO, VIDEO and FILE.',
    }),
    config: t.string({ required: false, description: 'Extension field used by the SDK layer.' }),
    ext: t.string({ required: false, description: 'Extension field.' }),
  }),
  resolve: async (input, ctx) => {
    if (input.type > LAST_BROADCAST_TYPE) throw badUserInput('input.type', 'must be one of TEXT to COMMAND: a broadcast cannot forward');
    const body = { ...contentFields(input), type: USERS, config: input.config ?? undefined, ext: input.ext ?? undefined };
    await requireAdminToken(ctx, 'broadcastMessage');
    return (await ctx.rest.call('POST /message/broadcast', body)).data;
  },
});
