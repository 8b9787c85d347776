// Object types that several domains point at, declared here and implemented in their own
// domain file (user.ts, group.ts, message.ts), so each domain can reference the others' types.
import type { Reply } from '../../rest/client';
import type { Int64 } from '../../rest/json';
import type * as R from '../../rest/records';
import type { RequestClient } from '../../rest/request-client';
import { builder } from './builder';
import type { PageArgs } from './connection';
import { fetchedKind } from './node-kinds';

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
  /** The member list group(id:) read to learn that the group exists, with the arguments of the `members` field it read it for. */
  memberPage?: { readonly args: PageArgs; readonly reply: Reply<'GET /group/member_list'> };
}
export const GroupRef = builder.objectRef<GroupParent>('Group');

/** An entry of GET /message/unread: a recent conversation and its unread count. */
export const UnreadConversationRef = builder.objectRef<R.UnreadEntry>('UnreadConversation');

/** A file shared in a group (POST /group/file/upload, GET /group/file, ...). */
export const SharedFileRef = builder.objectRef<R.SharedFile>('SharedFile');

/** Whether a User or Group parent is a group: it holds a group summary (or record). */
const isGroupParent = (p: UserParent | GroupParent): p is GroupParent => 'summary' in p || 'info' in p;

/**
 * What `node(id:)` fetches by its ID alone. User and Group keep the service's int64 as ID (user and
 * group IDs are drawn from separate ranges, so one ID names one thing); the others answer a global
 * ID (global-id.ts) when the request asks for them, and each registers its fetch (node-kinds.ts).
 */
export const NodeRef = builder.interfaceRef<object>('Node').implement({
  description:
    "An object that `node(id:)` fetches again by its `id` alone. User and Group IDs are the service's int64 IDs; " +
    'the other types answer a global ID (an opaque string) when the request sends `X-ID-Format: global` ' +
    '(`connectionParams["x-id-format"]` on a WebSocket), and their former `id` otherwise, until the switch dated in CHANGELOG.',
  resolveType: (p) => fetchedKind(p) ?? (isGroupParent(p as UserParent | GroupParent) ? 'Group' : 'User'),
  fields: (t) => ({
    id: t.field({
      type: 'ID',
      nullable: false,
      description: 'The ID `node(id:)` takes: a user or group ID, or a global ID.',
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
