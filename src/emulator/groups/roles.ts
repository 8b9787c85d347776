// Who may do what in a group: one rank per actor, one check that answers the right code.
//
// Ranks: owner > admin > member > none. The identity headers map onto them so:
// - a user token, or the admin token with a user_id header: that user's own rank;
// - the admin token with a group_id header naming this group: "the group's administrator", which
//   may do what the owner may (the vendor's connector adds admins so: upstream notes), whatever a
//   user_id header beside it says; a group_id header naming another group gives nothing here;
// - the bare admin token (no user_id, no group_id header): the app's own backend, which may do
//   what the owner may, in any group (the spec has no other way for it to dissolve a group or
//   read a group whose endpoints take no group_id header).
// A user token never carries a group_id header's rights (auth/actor.ts drops the header).
import type { Actor } from '../auth/actor';
import { Code, ImError, type ImCode } from '../errors';
import type { GroupRecord, MemberRecord } from './model';

export const Rank = { NONE: 0, MEMBER: 1, ADMIN: 2, OWNER: 3 } as const;
export type Rank = (typeof Rank)[keyof typeof Rank];

function userRank(g: GroupRecord, userId: number): Rank {
  if (g.ownerId === userId) return Rank.OWNER;
  if (g.admins.has(userId)) return Rank.ADMIN;
  return g.members.has(userId) ? Rank.MEMBER : Rank.NONE;
}

export function rankOf(g: GroupRecord, actor: Actor): Rank {
  const own = actor.userId === undefined ? Rank.NONE : userRank(g, actor.userId);
  if (!actor.admin) return own;
  if (actor.groupId !== undefined) return actor.groupId === g.id ? Rank.OWNER : own;
  return actor.userId === undefined ? Rank.OWNER : own;
}

const NEEDED: Record<Exclude<Rank, 0>, [ImCode, string]> = {
  [Rank.MEMBER]: [Code.MEMBER_REQUIRED, 'a member'],
  [Rank.ADMIN]: [Code.ADMIN_REQUIRED, 'an admin'],
  [Rank.OWNER]: [Code.OWNER_REQUIRED, 'the owner'],
};

/** The actor's rank, or 20011 / 20012 / 20013 when below `needed`. */
export function requireRank(g: GroupRecord, actor: Actor, needed: Exclude<Rank, 0>): Rank {
  const rank = rankOf(g, actor);
  if (rank < needed) {
    const [code, who] = NEEDED[needed];
    throw new ImError(code, `only ${who} of group ${g.id} may do this`);
  }
  return rank;
}

/** The user's membership, or 20002. */
export function requireMember(g: GroupRecord, userId: number): MemberRecord {
  const member = g.members.get(userId);
  if (!member) throw new ImError(Code.NOT_A_MEMBER, `user ${userId} is not a member of group ${g.id}`);
  return member;
}

/**
 * Moderation (kick, ban, unban, block) reaches only those ranked below the actor: admins act on
 * members, only the owner on admins, nobody on the owner.
 */
export function assertOutranks(g: GroupRecord, actorRank: Rank, targetId: number): void {
  const target = userRank(g, targetId);
  if (target === Rank.OWNER) throw new ImError(Code.NO_PERMISSION, `user ${targetId} is the owner of group ${g.id}`);
  if (target >= actorRank) throw new ImError(Code.OWNER_REQUIRED, `only the owner may act on admin ${targetId}`);
}
