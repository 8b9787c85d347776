// A stored message as the service's callback carries it (document 6, "Body fields"): camelCase,
// IDs as digit strings (64-bit in the protobuf JSON convention), `deviceSN` a number, JSON-bearing
// fields as JSON text. Which messages are called back: one-to-one (CHAT) and group (GROUPCHAT)
// messages, and APPEND/REPLACE operations only when their `config` asks for it with
// `force_callback: true` (document 6 infers that operations are not called back without it).
// System messages (from uid 0: /message/notify without a sender, /message/broadcast) are called
// back with `isSystem: true`, the form the vendor's receiver skips. The readings: ../NOTES.md.
import { isOperation, type StoredMessage, SYSTEM_UID } from '../messages/model';

export interface CallbackBody {
  appId: string;
  msgId: string;
  from: { uid: string; deviceSN: number };
  to: { uid: string; deviceSN: number };
  type: 'CHAT' | 'GROUPCHAT' | 'APPEND' | 'REPLACE';
  /** Absent for operations: document 6 shows it "for messages". */
  ctype?: string;
  content: string;
  attachment: string;
  config: string;
  ext: string;
  timestamp: string;
  isSystem?: true;
}

/** Whether the operation's sender asked for a callback (`{"force_callback": true}` in its config). */
function forcesCallback(config: string): boolean {
  try {
    const parsed: unknown = JSON.parse(config);
    return typeof parsed === 'object' && parsed !== null && (parsed as { force_callback?: unknown }).force_callback === true;
  } catch {
    return false;
  }
}

/** The callback body of a stored message, or undefined when the service would not call it back. */
export function callbackBody(appId: string, m: StoredMessage): CallbackBody | undefined {
  const operation = isOperation(m.ctype);
  if (operation && (!(m.ctype === 'APPEND' || m.ctype === 'REPLACE') || !forcesCallback(m.config))) return undefined;
  const type = operation ? m.ctype : m.to.kind === 'group' ? 'GROUPCHAT' : 'CHAT';
  return {
    appId,
    msgId: m.id.toString(),
    from: { uid: String(m.from.uid), deviceSN: m.from.deviceSn },
    to: { uid: String(m.to.id), deviceSN: 0 },
    type,
    ...(operation ? {} : { ctype: m.ctype }),
    content: m.content,
    attachment: m.attachment,
    config: m.config,
    ext: m.ext,
    timestamp: String(m.timestamp),
    ...(m.from.uid === SYSTEM_UID ? { isSystem: true as const } : {}),
  };
}
