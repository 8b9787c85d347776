// Sending (5.6) and system notifications (5.4): who the sender is, which targets may receive,
// transaction_id de-duplication, and one stored message per target. Every check runs before the
// first message is stored, so a refused target leaves nothing behind.
import type { Endpoints } from '../../rest/endpoints';
import type { ParamsOut } from '../../rest/table';
import type { Actor } from '../auth/actor';
import { Code, ImError, invalidParam } from '../errors';
import type { Ctx } from '../handler';
import { checkAttachment } from './attachment';
import { CTYPES, type Peer, type StoredMessage, SYSTEM_UID } from './model';

type SendBody = ParamsOut<Endpoints['PUT /message/send']>;

/** 'notify' lets the admin token send without a sender: the message comes from uid 0 (system). */
type SendMode = 'send' | 'notify';

interface Sender {
  uid: number;
  deviceSn: number;
  /** Whom the group contract checks: the sender, with the caller's admin rights. */
  actor: Actor;
}

function resolveSender(ctx: Ctx, fromUserId: bigint | number | undefined, mode: SendMode): Sender {
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

/** Sends to every target; answers the new message IDs in target order. */
export function sendMessages(ctx: Ctx, body: SendBody, mode: SendMode): bigint[] {
  const { state } = ctx;
  const sender = resolveSender(ctx, body.from_user_id, mode);
  const txId = body.transaction_id === undefined ? undefined : BigInt(body.transaction_id);
  const repeated = txId === undefined ? undefined : state.messages.transactions.recent(sender.uid, txId, ctx.now);
  if (repeated) return answer(ctx, repeated);

  const ctype = CTYPES[body.content_type]!;
  checkAttachment(ctype, body.attachment ?? '');
  const targets = resolveTargets(ctx, body, sender);

  const msgIds = targets.map(({ to, recipients }) => {
    const message: StoredMessage = {
      id: state.ids.message.take(ctx.now),
      ctype,
      content: body.content,
      attachment: body.attachment ?? '',
      config: body.config ?? '',
      ext: body.ext ?? '',
      timestamp: ctx.now,
      from: { uid: sender.uid, deviceSn: sender.deviceSn },
      to,
    };
    state.messages.deliver(message, recipients);
    return message.id;
  });
  if (txId !== undefined) state.messages.transactions.remember(sender.uid, txId, ctx.now, msgIds);
  return answer(ctx, msgIds);
}

/** With exactly one target the envelope carries msg_ids (upstream notes). */
function answer(ctx: Ctx, msgIds: bigint[]): bigint[] {
  if (msgIds.length === 1) ctx.setExtras({ msg_ids: msgIds });
  return msgIds;
}
