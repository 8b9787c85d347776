// Handlers of the push endpoints (section 7); the admin token is required by the table.
import type { HandlerMap } from '../handler';
import { certificateOf } from './certificates';
import { pushNotify } from './notify';

export const pushHandlers: HandlerMap = {
  'GET /push/certificate': (p, ctx) => certificateOf(ctx.state.options.appId, p.provider, p.environment ?? 1),

  'POST /push/notify': (p, ctx) => ({ task_id: pushNotify(ctx.state, p) }),

  // Unknown task IDs are left out of the answer rather than reported as zeros.
  'POST /push/task/detail': (p, ctx) => ctx.state.push.stats(p.list.map(Number)),
};
