// The chat home screen: `me.conversations`, the groups the user joined plus the conversations that
// hold unread messages, each with its peer (a User or a Group), unread count, last message and
// history; and `Group.unreadCount`. The list costs two reads whatever its length (GET
// /message/unread and GET /group/user_joined, each made once per request): the joined groups say
// which IDs are groups, so no lookup is needed for the peers' kinds. Only `lastMessage` and
// `messages` read per conversation: the service has no batch read of histories.
import type { GatewayContext } from '../../context';
import type { Int64 } from '../../rest/json';
import { builder, reaches } from '../core/builder';
import { type ConnectionShape, connectionOf, listConnection, type PageArgs, pageArgs, toPaging } from '../core/connection';
import { type GroupParent, GroupRef, type UserParent, UserRef } from '../core/refs';
import { historyArgs, HistoryRef, readHistory } from './conversation';
import { isSystem, MessageRef } from './message';
import { restFor } from '../user/profile';

interface ConversationParent {
  /** The conversation ID: the peer's user or group ID (0: system notifications). */
  id: Int64;
  kind: 'user' | 'group' | 'system';
  unreadCount: number;
  /** Whose conversation it is (the acting user, or a user an admin token reads as). */
  owner: UserParent;
}

/** A peer's parent says its kind: a group's parent and a user's hold the same bare ID. */
type PeerParent = (UserParent & { kind: 'user' }) | (GroupParent & { kind: 'group' });

const PeerRef = builder.unionType('ConversationPeer', {
  description: 'The other side of a conversation: a user (one-to-one) or a group.',
  types: [UserRef, GroupRef],
  resolveType: (peer) => ('kind' in peer && peer.kind === 'group' ? 'Group' : 'User'),
});

const ConversationRef = builder.objectRef<ConversationParent>('Conversation').implement({
  description: 'A conversation of the user: with another user, or in a group.',
  fields: (t) => ({
    id: t.field({
      type: 'ID',
      nullable: false,
      description: "The conversation ID (conversationId elsewhere): the other user's ID, or the group ID; 0 for system notifications.",
      resolve: (c) => c.id,
    }),
    peer: t.field({
      type: PeerRef,
      description: 'The other user, or the group; null for the conversation of system notifications (sender 0).',
      resolve: (c): PeerParent | null => (c.kind === 'system' ? null : { id: c.id, kind: c.kind }),
    }),
    unreadCount: t.int({
      nullable: false,
      description: 'Messages from others not read yet (acknowledged) by the user; DELIVERED messages still count.',
      resolve: (c) => c.unreadCount,
    }),
    lastMessage: t.field({
      type: MessageRef,
      description:
        'The newest message, or null when there is none (GET /message/conversation, limit 1). The service has no read of ' +
        'history without side effects: when this message is from the other side and still UNREAD, reading it marks it ' +
        'DELIVERED (its sender sees DELIVERED). Nothing else is marked, unreadCount does not change, and a conversation ' +
        'with unreadCount 0 has nothing left to mark.',
      extensions: reaches('GET /message/conversation'),
      resolve: async (c, _a, ctx) => (await readHistory(restFor(c.owner, ctx), c.id, { last: 1 })).messages[0] ?? null,
    }),
    messages: t.field({
      type: HistoryRef,
      description:
        'The newest `last` messages (oldest first within the page, as Relay orders a backward page), then `before: pageInfo.startCursor` for older ones ' +
        '(GET /message/conversation). Reading marks the messages of others that were UNREAD as DELIVERED.',
      extensions: reaches('GET /message/conversation'),
      args: historyArgs(),
      resolve: (c, a, ctx) => readHistory(restFor(c.owner, ctx), c.id, a),
    }),
  }),
});

const ConversationConnectionRef = connectionOf('Conversation', ConversationRef, 'conversation');

/** The whole list: conversations with unread messages (most recent first), then the other joined groups. */
async function conversationsOf(owner: UserParent, ctx: GatewayContext): Promise<ConversationParent[]> {
  const rest = restFor(owner, ctx);
  const [unread, joined] = await Promise.all([rest.call('GET /message/unread', {}), rest.call('GET /group/user_joined', {})]);
  const groups = new Set(joined.data.map(String));
  const listed = new Set<string>();
  const list: ConversationParent[] = [];
  for (const entry of unread.data) {
    const id = entry.conversation_id.uid;
    listed.add(String(id));
    const kind = isSystem(id) ? 'system' : groups.has(String(id)) ? 'group' : 'user';
    list.push({ id, kind, unreadCount: entry.num, owner });
  }
  for (const id of joined.data) {
    if (!listed.has(String(id))) list.push({ id, kind: 'group', unreadCount: 0, owner });
  }
  return list;
}

const PAGE = 50;

/** The page of the list that `args` ask for; the arguments are checked before any read. */
function pageOf(args: PageArgs) {
  toPaging(args, PAGE);
  return (list: ConversationParent[]): ConnectionShape<ConversationParent> => listConnection(list, args, PAGE);
}

builder.objectField(UserRef, 'conversations', (t) =>
  t.field({
    type: ConversationConnectionRef,
    description:
      "The user's conversations, for a chat list: first those with unread messages, most recent first (GET " +
      '/message/unread), then the other groups the user joined (GET /group/user_joined). One-to-one conversations ' +
      'without unread messages are not listed: the service lists no others. The list costs these two reads whatever ' +
      'its length; `lastMessage` and `messages` read each conversation once. Cursors are positions in the list, which ' +
      'may shift when messages arrive between two pages.',
    extensions: reaches('GET /message/unread', 'GET /group/user_joined'),
    args: pageArgs(PAGE),
    resolve: async (user, args, ctx) => {
      const page = pageOf(args);
      return page(await conversationsOf(user, ctx));
    },
  }),
);

builder.objectField(GroupRef, 'unreadCount', (t) =>
  t.int({
    description:
      'Messages of this group the acting user has not read yet (GET /message/unread, read once per request for all groups); 0 when none.',
    extensions: reaches('GET /message/unread'),
    resolve: async (g, _a, ctx) => {
      const { data } = await ctx.rest.call('GET /message/unread', {});
      return data.find((e) => String(e.conversation_id.uid) === String(g.id))?.num ?? 0;
    },
  }),
);
