// Messages as the emulator keeps them, and their wire form. A message belongs to exactly one
// conversation; what differs between readers (status) lives in their views (views.ts).
import type { MessageCtype, MessageRecord, MessageStatus } from '../../rest/records';

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

/** The types whose attachment must name a file. */
export const FILE_CTYPES: ReadonlySet<MessageCtype> = new Set(['IMAGE', 'AUDIO', 'VIDEO', 'FILE']);

/** The other side of a conversation: a user (1:1) or a group. */
export interface Peer {
  readonly kind: 'user' | 'group';
  readonly id: number;
}

/** uid of system notifications sent with the admin token and no sender. */
export const SYSTEM_UID = 0;

export interface StoredMessage {
  readonly id: bigint;
  readonly ctype: MessageCtype;
  readonly content: string;
  readonly attachment: string;
  readonly config: string;
  readonly ext: string;
  /** Milliseconds. */
  readonly timestamp: number;
  readonly from: { readonly uid: number; readonly deviceSn: number };
  readonly to: Peer;
}

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
  };
}
