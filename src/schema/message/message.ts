// Messages as the history (5.2) returns them, their typed attachment and their two parties, plus
// what the messages files share: the "is this ID a group?" lookup. A conversation ID (to_xid.uid,
// an unread entry, opposite_id) does not say whether it names a user or a group; one POST
// /group/info/batch per request (the group domain's batch loader) answers it for every ID asked
// about: the IDs it returns are groups, all others are users (user and group IDs never coincide in
// the service: they are drawn from separate ranges). A message is a Node: its global ID names its
// conversation as the reader sees it, which the record does not say (a one-to-one message's
// conversation is whichever side is not the reader), so each parent carries the opposite_id it
// was read with.
import type { GatewayContext } from '../../context';
import { type Int64, parseJson, toInt64 } from '../../rest/json';
import type * as R from '../../rest/records';
import type { RequestClient } from '../../rest/request-client';
import { builder, reaches } from '../core/builder';
import { nodeId } from '../core/global-id';
import { fetchableNode } from '../core/node-kinds';
import { MessageStatus, MessageType } from './enums';
import { existingGroup, groupBatch } from '../group/loaders';
import { isOversized } from './oversized';
import { type GroupParent, NodeRef, PeerRef, type UserParent, UserRef } from '../core/refs';

/**
 * uid 0: the sender of system notifications sent without one (the admin token), and so the
 * conversation they appear in. Never a user or a group: no lookup is made for it.
 */
const SYSTEM_UID = 0;
export const isSystem = (id: Int64) => String(id) === String(SYSTEM_UID);

/** The Group an ID names, with its summary; null when the ID is a user (or the system). */
export async function groupOrNull(id: Int64, ctx: GatewayContext): Promise<GroupParent | null> {
  return isSystem(id) ? null : existingGroup(id, ctx);
}

/** The User or Group an ID names; null for the system. */
async function peerOrNull(id: Int64, ctx: GatewayContext): Promise<UserParent | GroupParent | null> {
  if (isSystem(id)) return null;
  return (await groupOrNull(id, ctx)) ?? { id };
}

/** The User an ID names; null when the ID is a group (or the system). */
export async function userOrNull(id: Int64, ctx: GatewayContext): Promise<UserParent | null> {
  if (isSystem(id)) return null;
  return (await groupBatch(ctx).load(id)) ? null : { id };
}

// ---- Message ----

const CTYPE_CODE = { TEXT: 0, IMAGE: 1, AUDIO: 2, VIDEO: 3, FILE: 4, LOCATION: 5, COMMAND: 6, FORWARD: 7 } as const satisfies Record<
  R.MessageCtype,
  number
>;
/** By the ctype a history record may carry: operation messages (READ_ACK, RECALL, APPEND, REPLACE) have no code. */
const codeOf: Partial<Record<R.MessageRecord['ctype'], (typeof CTYPE_CODE)[R.MessageCtype]>> = CTYPE_CODE;
const STATUSES: ReadonlySet<string> = new Set<MessageParent['status']>(['UNREAD', 'DELIVERED', 'READ', 'RECALLED']);

/** A message record, or one its sender just recalled (recallMessage answers it so; the service no longer has it). */
export type MessageParent = Omit<R.MessageRecord, 'status'> & {
  status: R.MessageStatus | 'RECALLED';
  /** The conversation it was read in: the opposite_id (the other user's ID, or the group ID). */
  conversation: Int64;
};

/** A message record read in the conversation with opposite_id `conversation`, as a Message parent. */
export const inConversation = (conversation: Int64, m: R.MessageRecord): MessageParent => ({ ...m, conversation });

/**
 * One message of a conversation by its ID, as the acting user of `rest` reads it: the service has
 * no read by ID, so this reads the one message just older than msg_id + 1 and checks its ID; null
 * when it is not there.
 */
export async function messageById(rest: RequestClient, conversation: Int64, msgId: Int64): Promise<MessageParent | null> {
  const { data } = await rest.call('GET /message/conversation', {
    opposite_id: conversation,
    msg_id_start: toInt64(BigInt(msgId) + 1n),
    limit: 1,
  });
  const found = data.messages.find((m) => String(m.msg_id) === String(msgId));
  return found ? inConversation(conversation, found) : null;
}

type Attachment = Readonly<Record<string, unknown>>;

/** A field of the message, or null for one too large to read (its marker holds no content). */
const unlessOversized = (m: MessageParent, value: string) => (isOversized(m) ? null : value);

/** The attachment's JSON object; null when empty, not JSON or not an object (never fails the message). */
function parseAttachment(raw: string): Attachment | null {
  if (!raw) return null;
  try {
    const value = parseJson(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Attachment) : null;
  } catch {
    return null;
  }
}

// Each key is read only when it has the expected JSON type: a stray value nulls that key alone.
const text = (v: unknown) => (typeof v === 'string' ? v : null);
const int32 = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= 2 ** 31 - 1 ? v : null);
// parseJson answers bigint for integers beyond 2^53: those cannot be a SafeInt.
const safeInt = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);
const float = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

const MessageAttachmentRef = builder.objectRef<Attachment>('MessageAttachment').implement({
  description: 'The file of an IMAGE, AUDIO, VIDEO or FILE message, parsed from the JSON string the message carries.',
  fields: (t) => ({
    url: t.string({ description: 'URL of the file (url).', resolve: (a) => text(a.url) }),
    displayName: t.string({ description: 'File name to display (dName).', resolve: (a) => text(a.dName) }),
    size: t.field({ type: 'SafeInt', description: 'File length in bytes (fLen).', resolve: (a) => safeInt(a.fLen) }),
    duration: t.int({ description: 'Duration of a voice message (duration).', resolve: (a) => int32(a.duration) }),
    width: t.float({ description: 'Width of an image (width).', resolve: (a) => float(a.width) }),
    height: t.float({ description: 'Height of an image (height).', resolve: (a) => float(a.height) }),
  }),
});

export const MessageRef = builder.objectRef<MessageParent>('Message').implement({
  description: 'A message of a conversation, as the reading user sees it.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.field({
      type: 'ID',
      nullable: false,
      description:
        'Its ID for node(id:) and client caches: a global ID (naming the conversation as the reader sees it, and the message) ' +
        'with X-ID-Format: global; otherwise the message ID, as `messageId`.',
      resolve: (m, _a, ctx) => nodeId(ctx, 'Message', [m.conversation, m.msg_id], m.msg_id),
    }),
    messageId: t.field({
      type: 'ID',
      nullable: false,
      description: 'Message ID (msg_id): a 64-bit integer beyond 2^53, exact; the same in either ID format.',
      resolve: (m) => m.msg_id,
    }),
    type: t.field({
      type: MessageType,
      description: 'Kind of message (ctype); null for a kind this gateway does not know.',
      resolve: (m) => codeOf[m.ctype] ?? null,
    }),
    content: t.string({
      description: 'Message content; null when the message is too large for the gateway to read (`oversized`).',
      resolve: (m) => (isOversized(m) ? null : m.content),
    }),
    oversized: t.boolean({
      nullable: false,
      description:
        'True when the message is too large for the gateway to read (its answer passes the 8 MiB the gateway reads of one): ' +
        'it is listed with its ID, and its content, attachment, config and ext are null (as are the other fields its answer did not tell before the content).',
      resolve: (m) => isOversized(m),
    }),
    attachment: t.field({
      type: MessageAttachmentRef,
      description: 'The file of an IMAGE, AUDIO, VIDEO or FILE message; null when the message has none or it is not a JSON object.',
      resolve: (m) => (isOversized(m) ? null : parseAttachment(m.attachment)),
    }),
    rawAttachment: t.string({
      description: 'The attachment as the service stores it: a string holding a JSON object.',
      resolve: (m) => unlessOversized(m, m.attachment),
    }),
    config: t.string({ description: 'Extension field used by the SDK layer.', resolve: (m) => unlessOversized(m, m.config) }),
    ext: t.string({ description: 'Extension field.', resolve: (m) => unlessOversized(m, m.ext) }),
    status: t.field({
      type: MessageStatus,
      description: 'UNREAD, DELIVERED or READ, as the reader sees it; RECALLED in the answer of recallMessage.',
      resolve: (m) => (STATUSES.has(m.status) ? m.status : null),
    }),
    sentAt: t.field({
      type: 'DateTime',
      description: 'Delivery time (timestamp).',
      resolve: (m) => (isOversized(m) && String(m.timestamp) === '0' ? null : m.timestamp),
    }),
    from: t.field({
      type: UserRef,
      description: 'The sender (from_xid.uid); null for a system notification (uid 0: sent by the app backend).',
      resolve: (m) => (isSystem(m.from_xid.uid) ? null : { id: m.from_xid.uid }),
    }),
    deviceSn: t.int({
      description: "The sender's device number (from_xid.device_sn); 0 when not known.",
      resolve: (m) => m.from_xid.device_sn,
    }),
    to: t.field({
      type: PeerRef,
      description:
        'The receiver (to_xid.uid): the user of a one-to-one message, the group of a group message; null for the system. ' +
        'One POST /group/info/batch per request tells them apart.',
      extensions: reaches('POST /group/info/batch'),
      resolve: (m, _a, ctx) => peerOrNull(m.to_xid.uid, ctx),
    }),
  }),
});

// node(id:) reads the message as the acting user sees it: reading marks it DELIVERED when it was
// UNREAD, as every read of history does.
fetchableNode('Message', ([conversation, msgId], ctx) => messageById(ctx.rest, conversation!, msgId!));
