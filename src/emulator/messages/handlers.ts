// Handlers of the messages endpoints (section 5) and of conversation pins (1.42-1.44). The
// semantics live in state.ts, send.ts, broadcast.ts and pins.ts (its endpoints: pin-handlers.ts).
import { actingUser } from '../auth/actor';
import type { Ctx, HandlerMap } from '../handler';
import { broadcastHandlers } from './broadcast';
import { SYSTEM_UID } from './model';
import { pinHandlers } from './pin-handlers';
import { sendMessages } from './send';

const readerOf = (ctx: Ctx) => actingUser(ctx.state, ctx.actor).id;

export const messageHandlers: HandlerMap = {
  'GET /message/ack': (p, ctx) => {
    const id = p.conversation_id === undefined ? undefined : Number(p.conversation_id);
    // device_sn is accepted and ignored: read state is kept per user, not per device.
    ctx.state.messages.ack(readerOf(ctx), id, p.msg_id === undefined ? undefined : BigInt(p.msg_id));
    return true;
  },

  'GET /message/conversation': (p, ctx) => ctx.state.messages.page(readerOf(ctx), Number(p.opposite_id), BigInt(p.msg_id_start), p.limit),

  'DELETE /message/conversation': (p, ctx) => {
    ctx.state.messages.deleteConversation(readerOf(ctx), Number(p.conversation_id));
    return true;
  },

  'PUT /message/notify': (p, ctx) => {
    sendMessages(ctx, p, 'notify');
    return true;
  },

  'PUT /message/recall': (p, ctx) => {
    // The admin token without a user_id header acts as the system, the sender of notifications.
    const actorUid = ctx.actor.admin && ctx.actor.userId === undefined ? SYSTEM_UID : readerOf(ctx);
    ctx.state.messages.recall(actorUid, Number(p.conversation_id), BigInt(p.msg_id));
    return true;
  },

  'PUT /message/send': (p, ctx) => {
    sendMessages(ctx, p, 'send');
    return true;
  },

  'GET /message/unread': (_p, ctx) => ctx.state.messages.unread(readerOf(ctx)),

  ...broadcastHandlers,
  ...pinHandlers,
};
