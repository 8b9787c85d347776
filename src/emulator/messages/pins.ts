// Conversation pins (1.42-1.44): each user's ordered list of pinned conversation IDs (the other
// user's ID, a group's, or 0 for system notifications), most recently pinned first. 5.7 lists the
// pinned conversations first (state.ts). A pin lasts while its conversation does: a group pin
// belongs to the membership it was made in (leaving, removal or dissolution ends it, and a rejoin
// does not bring it back), a user pin to that user's account; deleting the conversation (5.3)
// unpins it. The readings: ../NOTES.md. The endpoints: pin-handlers.ts.
import { Code, ImError, invalidParam } from '../errors';
import type { UserDirectory } from '../users/directory';
import { type AccessRoot, accessOf } from './access';
import { SYSTEM_UID } from './model';

/** Pins per user: chat lists keep a handful on top; the service documents no bound. */
export const MAX_PINS = 50;

interface Pin {
  readonly id: number;
  /** A group pin: the join time of the membership it was made in. */
  readonly joinedAt?: number;
}

/** What pins read of the emulator (the State: ../state.ts): users, groups, and whether a conversation exists. */
export interface PinRoot extends AccessRoot {
  readonly users: UserDirectory;
  readonly messages: { hasConversation(uid: number, id: number): boolean };
}

export class PinBoard {
  /** user → pins, most recently pinned first. */
  private readonly byUser = new Map<number, Pin[]>();

  constructor(private readonly root: PinRoot) {}

  /** Pins a conversation of the user; pinning a pinned one changes nothing. */
  pin(uid: number, conversationId: number): void {
    const pin = this.conversation(uid, conversationId);
    const pins = this.current(uid);
    if (pins.some((p) => p.id === pin.id)) return;
    if (pins.length >= MAX_PINS) throw invalidParam('conversation_id', `at most ${MAX_PINS} conversations may be pinned; unpin one first`);
    this.store(uid, [pin, ...pins]);
  }

  /** Unpins; a conversation that is not pinned (or not one of the user's) changes nothing. */
  unpin(uid: number, conversationId: number): void {
    this.store(
      uid,
      this.current(uid).filter((p) => p.id !== conversationId),
    );
  }

  /** The pinned conversation IDs, most recently pinned first. */
  list(uid: number): number[] {
    return this.current(uid).map((p) => p.id);
  }

  /** The user's pins whose conversations still hold; the others are dropped for good. */
  private current(uid: number): Pin[] {
    return this.store(
      uid,
      (this.byUser.get(uid) ?? []).filter((p) => this.holds(uid, p)),
    );
  }

  private store(uid: number, pins: Pin[]): Pin[] {
    if (pins.length === 0) this.byUser.delete(uid);
    else this.byUser.set(uid, pins);
    return pins;
  }

  private holds(uid: number, pin: Pin): boolean {
    if (pin.joinedAt !== undefined) return accessOf(this.root, uid, { kind: 'group', id: pin.id })?.joinedAt === pin.joinedAt;
    return pin.id === SYSTEM_UID || this.root.users.get(pin.id) !== undefined;
  }

  /** The pin of a conversation the user has: a user, a group the user is in, or the system's. */
  private conversation(uid: number, id: number): Pin {
    if (this.root.users.get(id)) return { id };
    const group = this.root.groups.get(id);
    if (group) {
      if (group.status === 1) throw new ImError(Code.GROUP_NOT_FOUND, `group ${id} was dissolved`);
      const joinedAt = accessOf(this.root, uid, { kind: 'group', id })?.joinedAt;
      if (joinedAt === undefined) throw new ImError(Code.NOT_A_MEMBER, `user ${uid} is not a member of group ${id}`);
      return { id, joinedAt };
    }
    if (id === SYSTEM_UID && this.root.messages.hasConversation(uid, id)) return { id };
    throw new ImError(Code.USER_NOT_FOUND, `no user or group ${id}`);
  }
}
