// Object types that several domains point at, declared here and implemented in their own
// domain file (user.ts, group.ts, message.ts), so each domain can reference the others' types.
import type { Int64 } from '../../rest/json';
import type * as R from '../../rest/records';
import { builder } from './builder';

/** A user; without `id`, the acting user (whose ID is learnt from the profile). */
export interface UserParent {
  id?: Int64;
}
export const UserRef = builder.objectRef<UserParent>('User');

/** A group; `info` or `summary` when the parent already holds them (no extra REST call). */
export interface GroupParent {
  id: Int64;
  info?: R.Group;
  summary?: R.GroupSummary;
}
export const GroupRef = builder.objectRef<GroupParent>('Group');

/** An entry of GET /message/unread: a recent conversation and its unread count. */
export const UnreadConversationRef = builder.objectRef<R.UnreadEntry>('UnreadConversation');

/** A file shared in a group (POST /group/file/upload, GET /group/file, ...). */
export const SharedFileRef = builder.objectRef<R.SharedFile>('SharedFile');
