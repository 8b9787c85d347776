// Messages as the emulator keeps them, and their wire form. A message belongs to exactly one
// conversation; what differs between readers (status) lives in their views (views.ts).
import type { MessageCtype, MessageRecord, MessageStatus, OperationCtype } from '../../rest/records';

/** content_type 0..7 of the send body, by position. */
export const CTYPES = [
  'TEXT',
  'IMAGE',
  'AUDIO',
  'VIDEO',
  'FILE',
  'LOCATION',
  'COMMAND',
  'FORWARD',
] as const satisfies readonly MessageCtype[];

/** content_type 9..12 (2026): operation messages naming an earlier message in related_mid (operations.ts). */
export const OPERATION_CTYPES: Readonly<Record<number, OperationCtype>> = { 9: 'READ_ACK', 10: 'RECALL', 11: 'APPEND', 12: 'REPLACE' };

/** What a stored message's ctype may be: a kind of content, or an operation. */
export type StoredCtype = MessageRecord['ctype'];

const OPERATIONS: ReadonlySet<StoredCtype> = new Set(Object.values(OPERATION_CTYPES));
export const isOperation = (ctype: StoredCtype): ctype is OperationCtype => OPERATIONS.has(ctype);

/** The types whose attachment must name a file. */
export const FILE_CTYPES: ReadonlySet<StoredCtype> = new Set(['IMAGE', 'AUDIO', 'VIDEO', 'FILE']);

/** The other side of a conversation: a user (1:1) or a group. */
export interface Peer {
  readonly kind: 'user' | 'group';
  readonly id: number;
}

/** uid of system notifications sent with the admin token and no sender. */
export const SYSTEM_UID = 0;

export interface StoredMessage {
  readonly id: bigint;
  readonly ctype: StoredCtype;
  /** Not readonly: APPEND and REPLACE operations (operations.ts) change it. */
  content: string;
  readonly attachment: string;
  readonly config: string;
  readonly ext: string;
  /** Milliseconds. */
  readonly timestamp: number;
  readonly from: { readonly uid: number; readonly deviceSn: number };
  readonly to: Peer;
  /** Operation messages: the message they act on. */
  readonly relatedMid?: bigint;
  /** online_only messages: the only users it is kept for (the sender and who was online). */
  readonly audience?: ReadonlySet<number>;
}

/** Whether the message is kept for this user (every message is, but an online_only one). */
export const keptFor = (m: StoredMessage, uid: number): boolean => m.audience === undefined || m.audience.has(uid);

export function toWire(m: StoredMessage, status: MessageStatus): MessageRecord {
  return {
    msg_id: m.id,
    ctype: m.ctype,
    content: m.content,
    attachment: m.attachment,
    config: m.config,
    ext: m.ext,
    status,
    timestamp: m.timestamp,
    from_xid: { device_sn: m.from.deviceSn, uid: m.from.uid },
    to_xid: { device_sn: 0, uid: m.to.id },
    ...(m.relatedMid === undefined ? {} : { related_mid: m.relatedMid }),
  };
}
