// The conversation pin endpoints (1.42-1.44); the semantics live in pins.ts.
import { actingUser } from '../auth/actor';
import type { Ctx, HandlerMap } from '../handler';

const pinsOf = (ctx: Ctx) => ({ board: ctx.state.messages.pins, uid: actingUser(ctx.state, ctx.actor).id });

export const pinHandlers: HandlerMap = {
  'PUT /user/conversation/pin': (p, ctx) => {
    const { board, uid } = pinsOf(ctx);
    board.pin(uid, Number(p.conversation_id));
    return true;
  },

  'GET /user/conversation/pin_list': (_p, ctx) => {
    const { board, uid } = pinsOf(ctx);
    return { conversation_ids: board.list(uid) };
  },

  'PUT /user/conversation/unpin': (p, ctx) => {
    const { board, uid } = pinsOf(ctx);
    board.unpin(uid, Number(p.conversation_id));
    return true;
  },
};
