// The resources of the spec as they travel on the wire (snake_case). IDs are Int64: numbers
// while safe, bigints beyond 2^53 (message IDs).
import type { Int64 } from './json';

export interface TokenRecord {
  token: string;
  user_id: Int64;
  expire: Int64;
  store_token: string;
  access_key_secret: string;
  encrypt_type: number;
  public_key: string;
  push_token?: string;
}

interface Xid {
  device_sn: number;
  uid: Int64;
}

export type MessageCtype = 'TEXT' | 'IMAGE' | 'AUDIO' | 'VIDEO' | 'FILE' | 'LOCATION' | 'COMMAND' | 'FORWARD';
/**
 * content_type 9-12 of the 2026 send-body: operation messages acting on the message in related_mid.
 * How they show in history is not documented; the emulator keeps APPEND and REPLACE there.
 */
export type OperationCtype = 'READ_ACK' | 'RECALL' | 'APPEND' | 'REPLACE';
export type MessageStatus = 'UNREAD' | 'DELIVERED' | 'READ';

/** Operations kept in history as records of their own: edits of an earlier message's content (related_mid). */
const EDITS: ReadonlySet<string> = new Set<OperationCtype>(['APPEND', 'REPLACE']);
/** Whether a history record is an edit (APPEND, REPLACE) of another message rather than a message. */
export const isEdit = (m: { ctype: string }): boolean => EDITS.has(m.ctype);

export interface MessageRecord {
  msg_id: Int64;
  ctype: MessageCtype | OperationCtype;
  content: string;
  attachment: string;
  config: string;
  ext: string;
  status: MessageStatus;
  timestamp: Int64;
  from_xid: Xid;
  to_xid: Xid;
  /** Operation messages only: the message they act on (the emulator's; the reference does not show it). */
  related_mid?: Int64;
}

export interface ConversationPage {
  is_last: boolean;
  messages: MessageRecord[];
  next_msg_id: Int64;
}

export interface UnreadEntry {
  /** timestamp (ms of the newest activity) is the emulator's: the spec leaves this object's other fields unshown. */
  conversation_id: { uid: Int64; timestamp?: number };
  num: number;
}

export interface UploadTarget {
  upload_url: string;
  upload_method: 'POST' | 'PUT';
  download_url: string;
  oss_body_param: Record<string, string>;
}

export interface PushCertificate {
  app_id: string;
  app_key: string;
  app_secret: string;
  certificate: string;
  name: string;
}

export const PUSH_CHANNELS = ['apns', 'fcm', 'flyme', 'huawei', 'nativepush', 'oppo', 'vivo', 'xiaomi'] as const;
export type PushChannel = (typeof PUSH_CHANNELS)[number];

export type PushTaskStats = { task_id: Int64 } & {
  [K in `${PushChannel}_${'received' | 'sent' | 'target'}`]: Int64;
};

export interface UserSettings {
  id: Int64;
  user_id: Int64;
  auth_mode: number;
  auth_question: string;
  auth_answer: string;
  auto_download: boolean;
  group_confirm: boolean;
  no_push: boolean;
  no_push_detail: boolean;
  no_push_start_hour: number;
  no_push_end_hour: number;
  silence_start_time: number;
  silence_end_time: number;
  no_sounds: boolean;
  vibratory: boolean;
  push_nick_name: string;
  push_token: string;
}

export interface UserProfile {
  avatar: string;
  description: string;
  email: string;
  mobile: string;
  nick_name: string;
  private_info: string;
  public_info: string;
  username: string;
  user_id: Int64;
}

export interface Device {
  device_sn: number;
  platform: number;
  user_agent: string;
  user_id: Int64;
}

export interface UserListElement {
  status: number;
  user_id: Int64;
  username: string;
}

export interface UserBatchResult {
  success: boolean;
  reason: string;
  user_id: Int64;
  username?: string;
}

export interface Group {
  group_id: Int64;
  name: string;
  avatar: string;
  description: string;
  ext: string;
  type: number;
  status: number;
  owner_id: Int64;
  capacity: Int64;
  count: Int64;
  created_at: Int64;
  updated_at: Int64;
  apply_approval: number;
  ban_expire_time: Int64;
  history_visible: boolean;
  member_invite: boolean;
  member_modify: boolean;
  msg_mute_mode: number;
  msg_push_mode: number;
  read_ack: boolean;
  /** 2026 (document 5): members' details hidden. Absent from services older than 2026. */
  hide_member_info?: boolean;
}

export interface GroupSummary {
  apply_approval: number;
  capacity: Int64;
  count: Int64;
  group_id: Int64;
  msg_mute_mode: number;
  msg_push_mode: number;
  status: number;
  type: number;
  avatar: string;
  name: string;
  owner: Int64;
}

export interface Member {
  display_name: string;
  expired_time: Int64;
  join_time: Int64;
  user_id: Int64;
}

export interface Announcement {
  id: Int64;
  group_id: Int64;
  author: Int64;
  title: string;
  content: string;
  created_at: Int64;
}

export interface SharedFile {
  file_id: Int64;
  group_id: Int64;
  name: string;
  size: Int64;
  type: string;
  url: string;
  uploader: Int64;
  created_at: Int64;
  updated_at: Int64;
}

export interface OperationResult {
  user_id: Int64;
  result: 'success' | 'fail';
  reason: string;
}

export interface FileOperationResult {
  file_id: Int64;
  result: 'success' | 'fail';
  reason: string;
}

export interface GroupApplication {
  applicant_id: Int64;
  expired_time: Int64;
  group_id: Int64;
  reason: string;
  status: number;
}

export interface GroupInvitation {
  expired_time: Int64;
  group_id: Int64;
  invitee_id: Int64;
  inviter_id: Int64;
  reason: string;
  status: number;
  updated_at: string;
}

export interface BlacklistEntry {
  created_at: string;
  group_id: Int64;
  user_id: Int64;
}

export interface GroupQrCode {
  create_at: Int64;
  expire_at: Int64;
  qr_info: string;
}

/** Data objects whose content the spec does not show (4.5, 4.37, 4.38, 4.40, 1.39). */
export type UnspecifiedObject = Record<string, unknown>;

/** Roster item (document 4): another user as the acting user sees them. */
export interface RosterItem {
  user_id: Int64;
  username: string;
  nick_name: string;
  avatar: string;
  description: string;
  public_info: string;
  alias: string;
  ext: string;
  mute_notification: boolean;
  /** 0 friend, 1 former friend, 2 stranger, 3 on the acting user's blacklist. */
  relation: number;
  auth_mode: number;
  auth_question: string;
}

/** A friend application received by the acting user (8.4); it is named by its applicant. */
export interface FriendApplication {
  user_id: Int64;
  reason: string;
  /** 0 waiting, 1 accepted, 2 declined. */
  status: number;
  expired_time: Int64;
}

/** Data of 8.3: a third per-item result shape. */
export interface BatchApplyResult {
  success: Int64[];
  fails: { user_id: Int64; reason: string }[];
}

/** Data of 5.8. */
export interface BroadcastResult {
  send_num: Int64;
  success: boolean;
}

/** A reply message of 9.1: like a conversation message, with type and without status. */
export interface AiReplyMessage {
  msg_id: Int64;
  type: 'CHAT' | 'GROUPCHAT';
  ctype: MessageCtype;
  content: string;
  attachment: string;
  config: string;
  ext: string;
  from_xid: Xid;
  to_xid: Xid;
  timestamp: Int64;
}

/** Data of 9.1. */
export interface AiSendResult {
  message_quota_usage: number;
  messages: AiReplyMessage[];
}

/** Data of 1.43. */
export interface PinList {
  conversation_ids: Int64[];
}
