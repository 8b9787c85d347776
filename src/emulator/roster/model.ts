// The roster as the emulator keeps it (document 4): what one user keeps about a friend, friend
// applications, and the values of relation, application status and auth_mode.
import type { FriendApplication } from '../../rest/records';

/** relation of a roster item: the other user as the acting user sees them. */
export const RELATION = { FRIEND: 0, FORMER_FRIEND: 1, STRANGER: 2, BLOCKED: 3 } as const;
export type Relation = (typeof RELATION)[keyof typeof RELATION];

export const APPLICATION = { PENDING: 0, ACCEPTED: 1, DECLINED: 2 } as const;
type ApplicationStatus = (typeof APPLICATION)[keyof typeof APPLICATION];

/** The receiving user's auth_mode (document 2). */
export const AUTH_MODE = { OPEN: 0, CONSENT: 1, QUESTION: 2, REFUSE_ALL: 3 } as const;

/** What the owner keeps about one friend (8.9); it goes when the friendship ends. */
export interface FriendNotes {
  alias: string;
  ext: string;
  mute: boolean;
}

export interface ApplicationRecord {
  applicantId: number;
  receiverId: number;
  reason: string;
  /** The remark name the applicant gives the receiver, kept for when the two become friends. */
  alias: string;
  status: ApplicationStatus;
  expiredTime: number;
  /** Increases with every application made or renewed: the order of 8.4 (newest first). */
  seq: number;
}

export function applicationOf(record: ApplicationRecord): FriendApplication {
  return { user_id: record.applicantId, reason: record.reason, status: record.status, expired_time: record.expiredTime };
}

export const isPending = (record: ApplicationRecord | undefined, now: number): record is ApplicationRecord =>
  record !== undefined && record.status === APPLICATION.PENDING && record.expiredTime > now;
