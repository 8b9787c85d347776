// Handlers of the files endpoints (section 6): upload targets and downloads. A download (6.1, 6.2)
// answers 302 with a Location to the object's storage URL, as the service does (its own clients
// request it with redirects off and use the Location); it serves no bytes itself. object_name
// (6.1) is an avatar's key; file_sign (6.2, 6.6) is a chat file's signature, the value its
// download URL carries, not its key. Thumbnail and audio-format options are accepted and ignored:
// the storage serves the bytes as uploaded.
import { actingUser } from '../auth/actor';
import { Code, ImError, invalidParam } from '../errors';
import { BinaryReply, type Ctx, type HandlerMap } from '../handler';
import { storageUrl } from './state';

const redirect = (location: string) => new BinaryReply(Buffer.alloc(0), 'text/plain; charset=utf-8', { location }, 302);

/** 10002 naming the parameter, with HTTP 404 so that an image tag fails visibly. */
const unknownFile = (param: string, value: string) =>
  new ImError(Code.INVALID_PARAMETER, `invalid parameter ${param}: no file ${value}`, 404);

/** The chat peer must exist: a user (to_type 1, the default) or a live group (to_type 2). */
function requireTarget(ctx: Ctx, toId: number | bigint, toType: number | undefined): void {
  if (toType === 2) ctx.state.groups.requireGroup(Number(toId));
  else ctx.state.users.require(Number(toId));
}

export const fileHandlers: HandlerMap = {
  'GET /file/download/avatar': (p, ctx) => {
    if (!ctx.state.files.avatar(p.object_name)) throw unknownFile('object_name', p.object_name);
    return redirect(storageUrl(ctx.baseUrl, p.object_name));
  },

  'GET /file/download/chat': (p, ctx) => {
    const file = ctx.state.files.bySign(p.file_sign);
    if (!file) throw unknownFile('file_sign', p.file_sign);
    return redirect(storageUrl(ctx.baseUrl, file.key));
  },

  'GET /file/upload/avatar/group': (p, ctx) => {
    const groupId = Number(p.group_id);
    ctx.state.groups.assertCanModifyInfo(groupId, ctx.actor);
    return ctx.state.files.target(`avatar/group/${groupId}`, ctx.now, ctx.baseUrl);
  },

  'GET /file/upload/avatar/user': (_p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    return ctx.state.files.target(`avatar/user/${user.id}`, ctx.now, ctx.baseUrl);
  },

  // Every file_type (100..104, 200..203) is stored alike; the type only says what the bytes are.
  'GET /file/upload/chat': (p, ctx) => {
    requireTarget(ctx, p.to_id, p.to_type);
    return ctx.state.files.target('chat', ctx.now, ctx.baseUrl);
  },

  // The forwarded copy gets its own key (and so its own file_sign) over the same bytes; the answer
  // is its download URL, which carries that sign.
  'GET /file/upload/forward': (p, ctx) => {
    const file = ctx.state.files.bySign(p.file_sign);
    if (!file) throw invalidParam('file_sign', `no chat file ${p.file_sign}`);
    requireTarget(ctx, p.to_id, p.to_type);
    return ctx.state.files.downloadUrl(ctx.baseUrl, ctx.state.files.forward(file.object));
  },
};
