// Groups as the emulator keeps them, and the wire shapes of document 3 derived from them.
import type { Int64 } from '../../rest/json';
import type * as R from '../../rest/records';

/** Default capacities; no endpoint changes them (tests may set `capacity` on the record). */
const CAPACITY = { private: 500, chatroom: 5000 } as const;

export const GROUP_TYPE = { PRIVATE: 0, CHATROOM: 2 } as const;

export const capacityOf = (type: number): number => (type === GROUP_TYPE.CHATROOM ? CAPACITY.chatroom : CAPACITY.private);

/** apply_approval: 0 agree all, 1 admins confirm, 2 reject all. */
export const APPLY = { AGREE_ALL: 0, CONFIRM: 1, REJECT_ALL: 2 } as const;

/** Status of applications and invitations. */
export const REQUEST = { PENDING: 0, AGREED: 1, REJECTED: 2 } as const;
type RequestStatus = (typeof REQUEST)[keyof typeof REQUEST];

export interface MemberRecord {
  userId: number;
  joinTime: number;
  displayName: string;
  /** Ban expiry in ms (4.12); 0 or past = not banned. */
  banExpire: number;
  /** The member's own preferences (4.37, 4.38). */
  muteMode: number;
  pushMode: number;
}

interface ApplicationRecord {
  groupId: number;
  applicantId: number;
  reason: string;
  status: RequestStatus;
  expiredTime: number;
}

export interface InvitationRecord {
  groupId: number;
  /** 0 when the admin token invited without acting as a user. */
  inviterId: number;
  inviteeId: number;
  reason: string;
  status: RequestStatus;
  expiredTime: number;
  updatedAt: number;
}

export interface AnnouncementRecord {
  id: number;
  groupId: number;
  author: number;
  title: string;
  content: string;
  createdAt: number;
}

export interface SharedFileRecord {
  id: number;
  groupId: number;
  name: string;
  size: Int64;
  type: string;
  url: string;
  uploader: number;
  createdAt: number;
  updatedAt: number;
}

export interface GroupRecord {
  id: number;
  name: string;
  avatar: string;
  description: string;
  ext: string;
  type: number;
  status: 0 | 1;
  ownerId: number;
  /** Admins besides the owner (the owner is never in this set). */
  admins: Set<number>;
  /** Members in join order, owner and admins included. */
  members: Map<number, MemberRecord>;
  capacity: number;
  createdAt: number;
  updatedAt: number;
  applyApproval: number;
  /** Seconds; -1 permanent, 0 or past = no group-wide ban. */
  banExpireTime: number;
  historyVisible: boolean;
  memberInvite: boolean;
  memberModify: boolean;
  readAck: boolean;
  /** 2026 (4.54): members' details hidden from plain members (see visibility.ts). */
  hideMemberInfo: boolean;
  /** Blacklisted user → when they were blocked (ms). */
  blacklist: Map<number, number>;
  /** The latest application of each applicant, oldest first. */
  applications: Map<number, ApplicationRecord>;
  announcements: Map<number, AnnouncementRecord>;
  files: Map<number, SharedFileRecord>;
}

// ---- wire shapes ----

/** The Group record; msg_mute_mode and msg_push_mode are the viewer's own (0 for non-members). */
export function groupView(g: GroupRecord, viewerId: number | undefined): R.Group {
  const self = viewerId === undefined ? undefined : g.members.get(viewerId);
  return {
    group_id: g.id,
    name: g.name,
    avatar: g.avatar,
    description: g.description,
    ext: g.ext,
    type: g.type,
    status: g.status,
    owner_id: g.ownerId,
    capacity: g.capacity,
    count: g.members.size,
    created_at: g.createdAt,
    updated_at: g.updatedAt,
    apply_approval: g.applyApproval,
    ban_expire_time: g.banExpireTime,
    history_visible: g.historyVisible,
    member_invite: g.memberInvite,
    member_modify: g.memberModify,
    msg_mute_mode: self?.muteMode ?? 0,
    msg_push_mode: self?.pushMode ?? 0,
    read_ack: g.readAck,
    hide_member_info: g.hideMemberInfo,
  };
}

export function summaryView(g: GroupRecord, viewerId: number | undefined): R.GroupSummary {
  const full = groupView(g, viewerId);
  return {
    apply_approval: full.apply_approval,
    capacity: full.capacity,
    count: full.count,
    group_id: full.group_id,
    msg_mute_mode: full.msg_mute_mode,
    msg_push_mode: full.msg_push_mode,
    status: full.status,
    type: full.type,
    avatar: full.avatar,
    name: full.name,
    owner: full.owner_id,
  };
}

export const memberView = (m: MemberRecord): R.Member => ({
  display_name: m.displayName,
  expired_time: m.banExpire,
  join_time: m.joinTime,
  user_id: m.userId,
});

export const applicationView = (a: ApplicationRecord): R.GroupApplication => ({
  applicant_id: a.applicantId,
  expired_time: a.expiredTime,
  group_id: a.groupId,
  reason: a.reason,
  status: a.status,
});

/** updated_at is a string in the spec; we send ISO 8601 (self-describing, unlike a bare number). */
export const isoTime = (ms: number): string => new Date(ms).toISOString();

export const invitationView = (i: InvitationRecord): R.GroupInvitation => ({
  expired_time: i.expiredTime,
  group_id: i.groupId,
  invitee_id: i.inviteeId,
  inviter_id: i.inviterId,
  reason: i.reason,
  status: i.status,
  updated_at: isoTime(i.updatedAt),
});

export const announcementView = (a: AnnouncementRecord): R.Announcement => ({
  id: a.id,
  group_id: a.groupId,
  author: a.author,
  title: a.title,
  content: a.content,
  created_at: a.createdAt,
});

export const fileView = (f: SharedFileRecord): R.SharedFile => ({
  file_id: f.id,
  group_id: f.groupId,
  name: f.name,
  size: f.size,
  type: f.type,
  url: f.url,
  uploader: f.uploader,
  created_at: f.createdAt,
  updated_at: f.updatedAt,
});

/** IDs arrive as Int64; ours are all safe numbers, so a bigint simply names nothing we hold. */
export const idOf = (id: Int64): number => Number(id);

/** The IDs of a list once each, in first-seen order. */
export const uniqueIds = (ids: readonly Int64[]): number[] => [...new Set(ids.map(idOf))];
