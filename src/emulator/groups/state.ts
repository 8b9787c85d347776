// GroupState: the emulator's groups. Other domains use only the methods marked CONTRACT
// (messages fan out to members and check who may send; files check who may set a group avatar).
import { randomBytes } from 'node:crypto';
import type { Int64 } from '../../rest/json';
import type { Actor } from '../auth/actor';
import { Code, ImError } from '../errors';
import type { Ids } from '../ids';
import { capacityOf, type GroupRecord, idOf, type InvitationRecord, type MemberRecord, REQUEST } from './model';
import { Rank, rankOf, requireMember, requireRank } from './roles';

interface NewGroup {
  ownerId: number;
  name: string;
  avatar: string;
  description: string;
  type: number;
  now: number;
}

/** What groups take from the rest of the emulator (the State: ../state.ts). */
export interface GroupRoot {
  readonly ids: Ids;
}

export class GroupState {
  private readonly byId = new Map<number, GroupRecord>();
  /** Every invitation, oldest first (4.30 lists the acting user's). */
  readonly invitations: InvitationRecord[] = [];
  /** Signs QR invitations (4.41): random per emulator, so a code cannot be forged. */
  readonly qrKey = randomBytes(32);

  constructor(readonly root: GroupRoot) {}

  /** The record, dissolved or not; undefined when unknown. Tests may adjust it (capacity...). */
  get(groupId: Int64): GroupRecord | undefined {
    return this.byId.get(idOf(groupId));
  }

  all(): IterableIterator<GroupRecord> {
    return this.byId.values();
  }

  /** A group that exists, dissolved ones included (only info may be read from those), or 20001. */
  existing(groupId: Int64): GroupRecord {
    const g = this.get(groupId);
    if (!g) throw new ImError(Code.GROUP_NOT_FOUND, `group ${groupId} does not exist`);
    return g;
  }

  /** A group that exists and is not dissolved, or 20001: a dissolved group refuses every operation. */
  live(groupId: Int64): GroupRecord {
    const g = this.existing(groupId);
    if (g.status === 1) throw new ImError(Code.GROUP_NOT_FOUND, `group ${groupId} was dissolved`);
    return g;
  }

  create(init: NewGroup): GroupRecord {
    const g: GroupRecord = {
      id: this.root.ids.group.take(),
      name: init.name,
      avatar: init.avatar,
      description: init.description,
      ext: '',
      type: init.type,
      status: 0,
      ownerId: init.ownerId,
      admins: new Set(),
      members: new Map(),
      capacity: capacityOf(init.type),
      createdAt: init.now,
      updatedAt: init.now,
      // Defaults where the spec is silent: admins confirm applications, members may invite but
      // not edit the group, new members do not see older messages, no read receipts, members'
      // details shown.
      applyApproval: 1,
      banExpireTime: 0,
      historyVisible: false,
      memberInvite: true,
      memberModify: false,
      readAck: false,
      hideMemberInfo: false,
      blacklist: new Map(),
      applications: new Map(),
      announcements: new Map(),
      files: new Map(),
    };
    this.byId.set(g.id, g);
    this.addMember(g, init.ownerId, init.now);
    return g;
  }

  /**
   * Refuses unless the user could join: 20018 blacklisted, 20017 already a member. Requests
   * (applications, invitations) check this when made; capacity counts only when someone joins.
   */
  assertMayJoin(g: GroupRecord, userId: number): void {
    if (g.blacklist.has(userId)) throw new ImError(Code.BLACKLISTED, `user ${userId} is on the blacklist of group ${g.id}`);
    if (g.members.has(userId)) throw new ImError(Code.ALREADY_MEMBER, `user ${userId} is already a member of group ${g.id}`);
  }

  /** 20010 unless one more member fits. */
  assertRoom(g: GroupRecord): void {
    if (g.members.size >= g.capacity) throw new ImError(Code.GROUP_FULL, `group ${g.id} is full (capacity ${g.capacity})`);
  }

  /** The pending invitation of `inviteeId` by `inviterId` to the group (at most one: re-inviting refreshes it). */
  pendingInvitation(groupId: number, inviterId: number, inviteeId: number): InvitationRecord | undefined {
    return this.invitations.find(
      (i) => i.groupId === groupId && i.inviterId === inviterId && i.inviteeId === inviteeId && i.status === REQUEST.PENDING,
    );
  }

  /** Every way in (create, apply, invite, QR) ends here; a refusal changes nothing. */
  admit(g: GroupRecord, userId: number, now: number): MemberRecord {
    this.assertMayJoin(g, userId);
    this.assertRoom(g);
    return this.addMember(g, userId, now);
  }

  /** Takes a member out (leave, kick, block) with their admin role and ban. */
  expel(g: GroupRecord, userId: number, now: number): void {
    g.members.delete(userId);
    g.admins.delete(userId);
    this.touch(g, now);
  }

  /** updated_at moves on every change of the group's own fields, its members and roles. */
  touch(g: GroupRecord, now: number): void {
    g.updatedAt = Math.max(now, g.updatedAt);
  }

  private addMember(g: GroupRecord, userId: number, now: number): MemberRecord {
    const member: MemberRecord = { userId, joinTime: now, displayName: '', banExpire: 0, muteMode: 0, pushMode: 0 };
    g.members.set(userId, member);
    this.touch(g, now);
    return member;
  }

  // ---- CONTRACT: used by the messages and files domains ----

  /** CONTRACT: throws 20001 when the group does not exist (or is dissolved). */
  requireGroup(groupId: number): void {
    this.live(groupId);
  }

  /** CONTRACT: user IDs of the group's members (owner and admins included), in join order. */
  memberIds(groupId: number): number[] {
    return [...this.live(groupId).members.keys()];
  }

  /** CONTRACT: when the user joined (ms), or undefined when not a member. */
  joinTime(groupId: number, userId: number): number | undefined {
    return this.live(groupId).members.get(userId)?.joinTime;
  }

  /** CONTRACT: whether new members see messages sent before they joined. */
  historyVisible(groupId: number): boolean {
    return this.live(groupId).historyVisible;
  }

  /**
   * CONTRACT: throws unless the actor may send to the group now: 20001 no group, 20002 not a
   * member, 10010 banned (member ban, or ban-all for non-admins).
   */
  assertCanSend(groupId: number, actor: Actor, now: number): void {
    const g = this.live(groupId);
    const rank = rankOf(g, actor);
    // The admin token speaking for the group (group_id header) or for the app needs no membership.
    const userId = actor.admin && actor.groupId === g.id ? undefined : actor.userId;
    if (userId !== undefined) {
      const member = requireMember(g, userId);
      if (member.banExpire > now) throw new ImError(Code.NO_PERMISSION, `user ${member.userId} is banned in group ${g.id}`);
    } else if (rank === Rank.NONE) {
      throw new ImError(Code.NOT_A_MEMBER, `the caller is not a member of group ${g.id}`);
    }
    if (rank < Rank.ADMIN && banAllHolds(g.banExpireTime, now)) {
      throw new ImError(Code.NO_PERMISSION, `group ${g.id} is banned: only admins may send`);
    }
  }

  /** CONTRACT: throws unless the actor may change the group's information (avatar, name...). */
  assertCanModifyInfo(groupId: number, actor: Actor): void {
    const g = this.live(groupId);
    requireRank(g, actor, g.memberModify ? Rank.MEMBER : Rank.ADMIN);
  }
}

/** Whether a group-wide ban (ban_expire_time, seconds; -1 permanent) holds at `now` (ms). */
function banAllHolds(banExpireTime: number, now: number): boolean {
  return banExpireTime === -1 || banExpireTime * 1000 > now;
}
