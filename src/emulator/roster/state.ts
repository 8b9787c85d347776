// RosterState: friendships, friend applications and personal blacklists, and the rules that move
// them (document 4; the readings chosen are in ../NOTES.md, "Roster"). Other domains use only
// the methods marked CONTRACT (messages ask whether a one-to-one message may be sent).
import type { Int64 } from '../../rest/json';
import { Code, ImError, invalidParam } from '../errors';
import type { EmulatorOptions } from '../options';
import type { UserDirectory } from '../users/directory';
import type { UserRecord } from '../users/model';
import { admission } from './admission';
import { Applications } from './applications';
import { Blacklists } from './blacklist';
import { Friendships } from './friends';
import { APPLICATION, type ApplicationRecord, type FriendNotes, RELATION, type Relation } from './model';

/** An application as 8.2 and the items of 8.3 carry it (8.3 has no auth_answer). */
export interface FriendRequest {
  reason?: string | undefined;
  alias?: string | undefined;
  auth_answer?: string | undefined;
}

export class RosterState {
  readonly friends = new Friendships();
  readonly blacklists = new Blacklists();
  readonly applications = new Applications();

  constructor(readonly root: { readonly options: EmulatorOptions; readonly users: UserDirectory }) {}

  /** The other user as the viewer sees them; the other's blacklist is not the viewer's to see. */
  relation(viewer: number, other: number): Relation {
    if (this.blacklists.has(viewer, other)) return RELATION.BLOCKED;
    if (this.friends.areFriends(viewer, other)) return RELATION.FRIEND;
    return this.friends.wereFriends(viewer, other) ? RELATION.FORMER_FRIEND : RELATION.STRANGER;
  }

  /** CONTRACT: whether the sender may message the receiver: not when on the receiver's blacklist. */
  mayMessage(senderId: number, receiverId: number): boolean {
    return !this.blacklists.has(receiverId, senderId);
  }

  /** CONTRACT: 10006 when the receiver has the sender on their blacklist. */
  assertMayMessage(senderId: number, receiverId: number): void {
    if (!this.mayMessage(senderId, receiverId)) {
      throw new ImError(Code.ROSTER_BLACKLISTED, `user ${receiverId} has user ${senderId} on their blacklist`);
    }
  }

  /** 8.2, one item of 8.3: makes the two friends, or leaves a pending application; or refuses. */
  apply(applicantId: number, receiverId: Int64, request: FriendRequest, now: number): void {
    const receiver = this.other(applicantId, receiverId);
    const b = receiver.id;
    if (this.friends.areFriends(applicantId, b)) throw new ImError(Code.FRIEND_EXISTS, `user ${b} is already a friend`);
    if (this.blacklists.between(applicantId, b)) {
      throw new ImError(Code.ROSTER_BLACKLISTED, `a blacklist stands between users ${applicantId} and ${b}`);
    }
    const alias = request.alias ?? '';
    // The receiver applied first: this application is their consent, whatever their auth_mode.
    const theirs = this.applications.pending(b, applicantId, now);
    if (theirs) return this.befriend(applicantId, b, alias, theirs.alias, now);
    if (admission(receiver, request.auth_answer) === 'friends') return this.befriend(applicantId, b, alias, '', now);
    const expiredTime = now + this.root.options.requestTtlMs;
    this.applications.open(applicantId, b, { reason: request.reason ?? '', alias, expiredTime });
  }

  /** 8.1: the receiver accepts; the applicant's alias from the application becomes theirs. */
  accept(receiverId: number, applicantId: Int64, now: number): void {
    const record = this.requirePending(receiverId, applicantId, now);
    this.befriend(record.applicantId, receiverId, record.alias, '', now);
  }

  /** 8.7 */
  decline(receiverId: number, applicantId: Int64, now: number): void {
    this.requirePending(receiverId, applicantId, now).status = APPLICATION.DECLINED;
  }

  /** 8.8: both sides lose the friendship and their notes; both then see a former friend. */
  remove(ownerId: number, friendId: Int64): void {
    const friend = this.root.users.require(friendId);
    if (!this.friends.end(ownerId, friend.id)) throw this.notAFriend(friend.id);
  }

  /** 8.9: the fields given replace the owner's notes on the friend; the others stay. */
  annotate(ownerId: number, friendId: Int64, patch: Partial<FriendNotes>): void {
    const friend = this.root.users.require(friendId);
    const notes = this.friends.notes(ownerId, friend.id);
    if (!notes) throw this.notAFriend(friend.id);
    if (patch.alias !== undefined) notes.alias = patch.alias;
    if (patch.ext !== undefined) notes.ext = patch.ext;
    if (patch.mute !== undefined) notes.mute = patch.mute;
  }

  /** 8.5: blocking ends a friendship (both sides) and withdraws pending applications between the two. */
  block(ownerId: number, otherId: Int64, now: number): void {
    const other = this.other(ownerId, otherId);
    this.blacklists.add(ownerId, other.id);
    this.friends.end(ownerId, other.id);
    this.applications.withdraw(ownerId, other.id, now);
  }

  /** 8.16: the relation falls back to former friend or stranger. */
  unblock(ownerId: number, otherId: Int64): void {
    this.blacklists.remove(ownerId, this.other(ownerId, otherId).id);
  }

  /** IDs in a user's lists that still name users: a deleted user leaves every list. */
  existing(ids: number[]): number[] {
    return ids.filter((id) => this.root.users.get(id) !== undefined);
  }

  private befriend(a: number, b: number, aliasOfB: string, aliasOfA: string, now: number): void {
    this.friends.befriend(a, b, aliasOfB, aliasOfA);
    this.applications.settle(a, b, now);
  }

  /** The user named, who must exist (10000) and not be the acting user (10002). */
  private other(actingId: number, id: Int64): UserRecord {
    const user = this.root.users.require(id);
    if (user.id === actingId) throw invalidParam('user_id', 'names the acting user itself');
    return user;
  }

  private requirePending(receiverId: number, applicantId: Int64, now: number): ApplicationRecord {
    const applicant = this.root.users.require(applicantId);
    const record = this.applications.pending(applicant.id, receiverId, now);
    if (!record) {
      throw new ImError(
        Code.FRIEND_APPLICATION_NOT_FOUND,
        `no pending friend application of user ${applicant.id} to user ${receiverId} (none, handled or expired)`,
      );
    }
    return record;
  }

  private notAFriend(id: number): ImError {
    return new ImError(Code.FRIEND_APPLICATION_NOT_FOUND, `user ${id} is not a friend`);
  }
}
