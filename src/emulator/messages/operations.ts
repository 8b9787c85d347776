// Operation messages (content_type 9-12 of the 2026 send-body): each acts on the message named in
// related_mid, which must be in the conversation of the sender with the target and visible to the
// sender. READ_ACK and RECALL do what 5.1 and 5.5 do; APPEND and REPLACE change the content of the
// sender's own message. Every check runs for every target before any effect (send.ts).
// The readings behind these rules: ../NOTES.md.
import type { OperationCtype } from '../../rest/records';
import { Code, ImError, invalidParam } from '../errors';
import { checkAppended } from './content-limit';
import type { State } from '../state';
import { isOperation, type Peer, type StoredMessage, SYSTEM_UID } from './model';

/** The operations whose message stays in the conversation: their change shows nowhere else to a poller. */
export const KEPT_OPERATIONS: ReadonlySet<OperationCtype> = new Set(['APPEND', 'REPLACE']);

/** An operation that passed its checks, carried out once every target passed. */
export type Effect = () => void;

/** Checks the operation against the conversation of `senderUid` with `to`; throws before anything changes. */
export function checkOperation(
  state: State,
  op: OperationCtype,
  senderUid: number,
  to: Peer,
  relatedMid: bigint | undefined,
  content: string,
): Effect {
  if (relatedMid === undefined) throw invalidParam('related_mid', `is required with content_type ${op}`);
  const m = state.messages.related(senderUid, to, relatedMid);
  if (!m) throw invalidParam('related_mid', `no message ${relatedMid} in conversation ${to.id} of user ${senderUid}`);
  switch (op) {
    case 'READ_ACK':
      if (senderUid === SYSTEM_UID) throw new ImError(Code.NO_PERMISSION, 'the system (no sender) reads no messages');
      return () => state.messages.ack(senderUid, to.id, relatedMid);
    case 'RECALL':
      assertOwn(m, senderUid, 'recall');
      return () => state.messages.recall(senderUid, to.id, relatedMid);
    case 'APPEND':
    case 'REPLACE':
      if (isOperation(m.ctype)) throw invalidParam('related_mid', `message ${relatedMid} is an operation message (${m.ctype})`);
      assertOwn(m, senderUid, op === 'APPEND' ? 'append to' : 'replace');
      if (op === 'APPEND') checkAppended(m.content, content);
      return () => {
        m.content = op === 'APPEND' ? m.content + content : content;
      };
  }
}

function assertOwn(m: StoredMessage, senderUid: number, what: string): void {
  if (m.from.uid !== senderUid) throw new ImError(Code.NO_PERMISSION, `only the sender may ${what} a message`);
}
