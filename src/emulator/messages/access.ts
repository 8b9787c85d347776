// What a reader may see of a conversation. Groups answer through the GroupState contract: only
// members read, and without visible history a member sees messages from the join on.
import { Code, ImError } from '../errors';
import type { GroupState } from '../groups/state';
import { keptFor, type Peer, type StoredMessage } from './model';

export interface Access {
  /** Group members: when they joined. Messages before it are history, never unread. */
  readonly joinedAt?: number;
  /** Whether messages before joinedAt may be read. */
  readonly history: boolean;
}

/** A user pair: everything is readable, nothing is history. */
export const FULL_ACCESS: Access = { history: true };

/** What access reads of the emulator: the groups (the State: ../state.ts). */
export interface AccessRoot {
  readonly groups: GroupState;
}

/** The reader's access, or undefined when the reader is not (or no longer) a member. */
export function accessOf(root: AccessRoot, reader: number, peer: Peer): Access | undefined {
  if (peer.kind === 'user') return FULL_ACCESS;
  if (!groupExists(root, peer.id)) return undefined;
  const joinedAt = root.groups.joinTime(peer.id, reader);
  if (joinedAt === undefined) return undefined;
  return { joinedAt, history: root.groups.historyVisible(peer.id) };
}

/** Whether `reader`, with this access, sees the message: kept for the reader, and not history it may not read. */
export function canSee(access: Access, m: StoredMessage, reader: number): boolean {
  if (!keptFor(m, reader)) return false;
  return access.history || access.joinedAt === undefined || m.timestamp >= access.joinedAt;
}

export function isHistory(access: Access, m: StoredMessage): boolean {
  return access.joinedAt !== undefined && m.timestamp < access.joinedAt;
}

/** Whether a (live) group has this ID; the contract answers 20001 otherwise. */
export function groupExists(root: AccessRoot, groupId: number): boolean {
  try {
    root.groups.requireGroup(groupId);
    return true;
  } catch (err) {
    if (err instanceof ImError && err.code === Code.GROUP_NOT_FOUND) return false;
    throw err;
  }
}
