// Handlers of the files endpoints (section 6): upload targets and downloads. object_name (6.1) is
// an avatar's key, file_sign (6.2) a chat file's key; both come back from an upload target's
// oss_body_param.key. Thumbnail and audio-format options are accepted and ignored: the stored
// bytes are served as uploaded.
import { actingUser } from '../auth/actor';
import { Code, ImError, invalidParam } from '../errors';
import { BinaryReply, type Ctx, type HandlerMap } from '../handler';
import { downloadUrl } from './state';
import { streamOf, type StoredObject } from './store';

function reply(object: StoredObject): BinaryReply {
  return new BinaryReply(streamOf(object), object.contentType, { 'content-length': String(object.size) });
}

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
    const object = ctx.state.files.find(p.object_name, 'avatar');
    if (!object) throw unknownFile('object_name', p.object_name);
    return reply(object);
  },

  'GET /file/download/chat': (p, ctx) => {
    const object = ctx.state.files.find(p.file_sign, 'chat');
    if (!object) throw unknownFile('file_sign', p.file_sign);
    return reply(object);
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

  // The forwarded copy gets its own key (its file_sign) over the same bytes; the answer is its URL.
  'GET /file/upload/forward': (p, ctx) => {
    const object = ctx.state.files.find(p.file_sign, 'chat');
    if (!object) throw invalidParam('file_sign', `no chat file ${p.file_sign}`);
    requireTarget(ctx, p.to_id, p.to_type);
    return downloadUrl(ctx.baseUrl, ctx.state.files.forward(object));
  },
};
