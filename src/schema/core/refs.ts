// Object types that several domains point at, declared here and implemented in their own
// domain file (user.ts, group.ts, message.ts), so each domain can reference the others' types.
import type { Int64 } from '../../rest/json';
import type * as R from '../../rest/records';
import type { RequestClient } from '../../rest/request-client';
import { builder } from './builder';

/** A user; without `id`, the acting user (whose ID is learnt from the profile). */
export interface UserParent {
  id?: Int64;
  /**
   * The client its fields read with when it is not the request's: the identity of a token this
   * request was just issued (a login's or registration's payload), whose user the request's own
   * headers cannot read.
   */
  as?: RequestClient;
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

/** Whether a User or Group parent is a group: it holds a group summary (or record). */
const isGroupParent = (p: UserParent | GroupParent): p is GroupParent => 'summary' in p || 'info' in p;

/**
 * What can be fetched alone by its ID with `node(id:)`: User and Group. IDs stay the service's
 * exact int64 (no type prefix): user and group IDs are drawn from separate ranges, so one ID names
 * one thing (message.ts tells them apart with one batch lookup).
 */
export const NodeRef = builder.interfaceRef<UserParent | GroupParent>('Node').implement({
  description: "An object that `node(id:)` fetches by its ID alone: a User or a Group. `id` is the service's int64 ID.",
  resolveType: (p) => (isGroupParent(p) ? 'Group' : 'User'),
  fields: (t) => ({
    id: t.field({
      type: 'ID',
      nullable: false,
      description: 'The ID (a user ID or a group ID: they never coincide).',
      resolve: (p) => p.id ?? 0,
    }),
  }),
});

/**
 * A user or a group: the receiver of a message, the other side of a conversation. A parent
 * holding a group summary (or record) is a Group; any other is a User.
 */
export const PeerRef = builder.unionType('Peer', {
  description: 'A user or a group (the receiver of a message: a user for a one-to-one message, the group for a group message).',
  types: [UserRef, GroupRef],
  resolveType: (p) => (isGroupParent(p) ? GroupRef : UserRef),
});
