// 5.8 POST /message/broadcast (2026): one system message (from uid 0, as a notification without a
// sender) to every user of the app, banned ones included, each in that user's conversation with
// the system. The admin token only; the table admits content_type 0-6 and type 1. The readings:
// ../NOTES.md.
import type { Endpoints } from '../../rest/endpoints';
import type { BroadcastResult } from '../../rest/records';
import type { ParamsOut } from '../../rest/table';
import { Code, ImError } from '../errors';
import type { Ctx, HandlerMap } from '../handler';
import { checkAttachment } from './attachment';
import { checkContent } from './content-limit';
import { CTYPES, SYSTEM_UID } from './model';
import { newMessage } from './send';

type BroadcastBody = ParamsOut<Endpoints['POST /message/broadcast']>;

function broadcast(body: BroadcastBody, ctx: Ctx): BroadcastResult {
  // The user_id and group_id headers change nothing: the app itself speaks, as the system.
  if (!ctx.actor.admin) throw new ImError(Code.NO_PERMISSION, 'a broadcast needs the admin token');
  const ctype = CTYPES[body.content_type]!;
  checkContent(body.content);
  checkAttachment(ctype, body.attachment ?? '');
  const draft = { ctype, content: body.content ?? '', attachment: body.attachment, config: body.config, ext: body.ext };
  const users = [...ctx.state.users.all()].map((u) => u.id).sort((a, b) => a - b);
  for (const uid of users) {
    ctx.state.messages.deliver(newMessage(ctx, { uid: SYSTEM_UID, deviceSn: 0 }, { kind: 'user', id: uid }, draft), [uid]);
  }
  return { send_num: users.length, success: true };
}

export const broadcastHandlers: HandlerMap = {
  'POST /message/broadcast': broadcast,
};
