// Sending (5.6) and system notifications (5.4): who the sender is, which targets may receive,
// transaction_id de-duplication, and one message per target (content types 0-7, or an operation,
// 9-12: operations.ts). Every check runs before the first message is stored, so a refused target
// leaves nothing behind. online_only keeps a message for the sender and the recipients online at
// that moment (auth/online.ts) only.
import type { Endpoints } from '../../rest/endpoints';
import type { ParamsOut } from '../../rest/table';
import type { Actor } from '../auth/actor';
import { isOnline } from '../auth/online';
import { Code, ImError, invalidParam } from '../errors';
import type { Ctx } from '../handler';
import { checkAttachment } from './attachment';
import { checkContent } from './content-limit';
import { CTYPES, isOperation, OPERATION_CTYPES, type Peer, type StoredCtype, type StoredMessage, SYSTEM_UID } from './model';
import { checkOperation, KEPT_OPERATIONS } from './operations';

export type SendBody = ParamsOut<Endpoints['PUT /message/send']>;

/** 'notify' lets the admin token send without a sender: the message comes from uid 0 (system). */
type SendMode = 'send' | 'notify';

export interface Sender {
  uid: number;
  deviceSn: number;
  /** Whom the group contract checks: the sender, with the caller's admin rights. */
  actor: Actor;
}

export function resolveSender(ctx: Ctx, fromUserId: bigint | number | undefined, mode: SendMode): Sender {
  const { actor, state } = ctx;
  const from = fromUserId === undefined ? undefined : Number(fromUserId);
  if (!actor.admin && from !== undefined && from !== actor.userId) {
    throw new ImError(Code.NO_PERMISSION, 'a user token may not send as another user (from_user_id)');
  }
  const uid = from ?? actor.userId;
  if (uid === undefined) {
    if (mode === 'notify') return { uid: SYSTEM_UID, deviceSn: 0, actor };
    throw invalidParam('from_user_id', 'is required with the admin token (or set the user_id header)');
  }
  const user = state.users.require(uid);
  if (user.status === 1) throw new ImError(Code.NO_PERMISSION, `user ${uid} is banned`);
  // from_xid.device_sn: the device of the user token; 0 when the admin token sends.
  const deviceSn = actor.admin ? 0 : (actor.deviceSn ?? 0);
  return { uid, deviceSn, actor: { ...actor, userId: uid } };
}

/** Checks every target and answers who receives what; throws before anything is stored. */
function resolveTargets(ctx: Ctx, body: SendBody, sender: Sender): { to: Peer; recipients: number[] }[] {
  const ids = [...new Set(body.targets.map(Number))];
  if (ids.length === 0) throw invalidParam('targets', 'must not be empty');
  const { state } = ctx;
  if (body.type === 1) {
    return ids.map((id) => {
      state.users.require(id);
      state.roster.assertMayMessage(sender.uid, id);
      return { to: { kind: 'user', id }, recipients: [id] };
    });
  }
  return ids.map((id) => {
    state.groups.assertCanSend(id, sender.actor, ctx.now);
    return { to: { kind: 'group', id }, recipients: state.groups.memberIds(id) };
  });
}

/** Sends to every target; answers the new message IDs in target order (msg_ids with one target). */
export function sendMessages(ctx: Ctx, body: SendBody, mode: SendMode): bigint[] {
  const sender = resolveSender(ctx, body.from_user_id, mode);
  const msgIds = ctx.state.messages.transactions.run(sender.uid, body.transaction_id, ctx.now, () =>
    sendAs(ctx, body, sender).map((m) => m.id),
  );
  // With exactly one target the envelope carries msg_ids (upstream notes, document 5).
  if (msgIds.length === 1) ctx.setExtras({ msg_ids: msgIds });
  return msgIds;
}

/**
 * Sends as `sender` to every target; answers one message per target, in target order. An
 * operation's message is kept in the conversation only for APPEND and REPLACE (operations.ts).
 */
export function sendAs(ctx: Ctx, body: SendBody, sender: Sender): StoredMessage[] {
  const { state } = ctx;
  const ctype = ctypeOf(body.content_type);
  checkContent(body.content);
  checkAttachment(ctype, body.attachment ?? '');
  const targets = resolveTargets(ctx, body, sender);
  const relatedMid = body.related_mid === undefined ? undefined : BigInt(body.related_mid);
  const effects = isOperation(ctype) ? targets.map(({ to }) => checkOperation(state, ctype, sender.uid, to, relatedMid, body.content)) : [];

  return targets.map(({ to, recipients }, i) => {
    effects[i]?.();
    const reached = body.online_only === true ? recipients.filter((uid) => isOnline(state, uid, ctx.now)) : recipients;
    const message = newMessage(ctx, sender, to, {
      ctype,
      content: body.content,
      attachment: body.attachment,
      config: body.config,
      ext: body.ext,
      ...(isOperation(ctype) ? { relatedMid } : {}),
      ...(body.online_only === true ? { audience: new Set([sender.uid, ...reached]) } : {}),
    });
    if (!isOperation(ctype) || KEPT_OPERATIONS.has(ctype)) state.messages.deliver(message, reached);
    return message;
  });
}

/** What a new message holds besides its ID, time and parties; absent strings are ''. */
interface Draft {
  ctype: StoredCtype;
  content: string;
  attachment?: string | undefined;
  config?: string | undefined;
  ext?: string | undefined;
  relatedMid?: bigint | undefined;
  audience?: ReadonlySet<number>;
}

/** A new message at the request's time with the next message ID; not yet delivered. */
export function newMessage(ctx: Ctx, from: { uid: number; deviceSn: number }, to: Peer, draft: Draft): StoredMessage {
  const { relatedMid, audience } = draft;
  return {
    id: ctx.state.ids.message.take(ctx.now),
    ctype: draft.ctype,
    content: draft.content,
    attachment: draft.attachment ?? '',
    config: draft.config ?? '',
    ext: draft.ext ?? '',
    timestamp: ctx.now,
    from: { uid: from.uid, deviceSn: from.deviceSn },
    to,
    ...(relatedMid === undefined ? {} : { relatedMid }),
    ...(audience === undefined ? {} : { audience }),
  };
}

/** content_type 0-7 and 9-12; 8 is inside the table's range but has no name (../NOTES.md). */
function ctypeOf(contentType: number): StoredCtype {
  const ctype = CTYPES[contentType] ?? OPERATION_CTYPES[contentType];
  if (ctype === undefined) throw invalidParam('content_type', `${contentType} has no name in the reference: expected 0-7 or 9-12`);
  return ctype;
}
