// The chat home screen: `me.conversations`, the user's recent conversations (GET /message/unread:
// read or not, newest activity first) plus the joined groups not among them, each with its peer (a
// User or a Group), unread count, last message and history; and `Group.unreadCount`. The list
// costs two reads whatever its length (GET /message/unread and GET /group/user_joined, each made
// once per request): the joined groups say which IDs are groups, so no lookup is needed for the
// peers' kinds. Only `lastMessage` and `messages` read per conversation: the service has no batch
// read of histories. Pinned conversations (GET /user/conversation/pin_list, a third read) come
// first, newest pin first (pins.ts). Cursors name a conversation and its last activity, a pinned
// one its place among the pins (core/keyset.ts: lead items).
import type { GatewayContext } from '../../context';
import type { Int64 } from '../../rest/json';
import { builder, reaches } from '../core/builder';
import { connectionOf } from '../core/connection';
import { keysetArgs, keysetPage, type SortKey } from '../core/keyset';
import { nodeId } from '../core/global-id';
import { fetchableNode } from '../core/node-kinds';
import { type GroupParent, GroupRef, NodeRef, UnreadConversationRef, type UserParent, UserRef } from '../core/refs';
import { ConversationPayloadRef, historyArgs, HistoryRef, readHistory } from './conversation';
import { groupOrNull, isSystem, MessageRef } from './message';
import { fromResult } from '../core/mutation';
import { restFor } from '../core/profile';
import { startsAhead } from '../core/speculative';
import { pinnedIds } from './pin-list';

export interface ConversationParent {
  /** The conversation ID: the peer's user or group ID (0: system notifications). */
  id: Int64;
  kind: 'user' | 'group' | 'system';
  unreadCount: number;
  /** Time (ms) of the newest activity, when the service says it (conversation_id.timestamp). */
  activity: number | null;
  /** Whose conversation it is (the acting user, or a user an admin token reads as). */
  owner: UserParent;
  /** Whether the owner pinned it, when the list was read with the pins (pins.ts reads them otherwise). */
  pinned?: boolean;
}

/** A peer's parent says its kind: a group's parent and a user's hold the same bare ID. */
type PeerParent = (UserParent & { kind: 'user' }) | (GroupParent & { kind: 'group' });

/** The page lastMessage reads. */
const LAST_ONE = { last: 1 } as const;

const PeerRef = builder.unionType('ConversationPeer', {
  description: 'The other side of a conversation: a user (one-to-one) or a group.',
  types: [UserRef, GroupRef],
  resolveType: (peer) => ('kind' in peer && peer.kind === 'group' ? 'Group' : 'User'),
});

export const ConversationRef = builder.objectRef<ConversationParent>('Conversation').implement({
  description: 'A conversation of the user: with another user, or in a group.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.field({
      type: 'ID',
      nullable: false,
      description:
        'Its ID for node(id:) and client caches (the identity of its row in me.conversations): a global ID with ' +
        'X-ID-Format: global; otherwise the conversation ID, as `conversationId`.',
      resolve: (c, _a, ctx) => nodeId(ctx, 'Conversation', [c.id], c.id),
    }),
    conversationId: t.field({
      type: 'ID',
      nullable: false,
      description:
        "The conversation ID (conversationId elsewhere): the other user's ID, or the group ID; 0 for system notifications. " +
        'The same in either ID format.',
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
      resolve: async (c, _a, ctx) => (await readHistory(restFor(c.owner, ctx), c.id, LAST_ONE)).messages[0] ?? null,
    }),
    messages: t.field({
      type: HistoryRef,
      nullable: false,
      description:
        'The newest `last` messages (oldest first within the page, as Relay orders a backward page), then `before: pageInfo.startCursor` for older ones ' +
        '(GET /message/conversation). Reading marks the messages of others that were UNREAD as DELIVERED.',
      extensions: reaches('GET /message/conversation'),
      args: historyArgs(),
      resolve: (c, a, ctx) => readHistory(restFor(c.owner, ctx), c.id, a),
    }),
  }),
});

export const ConversationConnectionRef = connectionOf('Conversation', ConversationRef, 'conversation');

/**
 * The whole list: the pinned conversations in pin order (one not yet among the recent ones too:
 * it was pinned before its first message), the recent conversations (read or not), then the
 * joined groups not among them.
 */
export async function conversationsOf(owner: UserParent, ctx: GatewayContext): Promise<ConversationParent[]> {
  const rest = restFor(owner, ctx);
  const [recent, joined, pins] = await Promise.all([
    rest.call('GET /message/unread', {}),
    rest.call('GET /group/user_joined', {}),
    pinnedIds(owner, ctx),
  ]);
  const groups = new Set(joined.data.map(String));
  const kindOfListed = (id: Int64) => (isSystem(id) ? 'system' : groups.has(String(id)) ? 'group' : 'user');
  const pinned = new Map(
    pins.map((id): [string, ConversationParent] => [
      String(id),
      { id, kind: kindOfListed(id), unreadCount: 0, activity: null, owner, pinned: true },
    ]),
  );
  const listed = new Set<string>(pinned.keys());
  const list: ConversationParent[] = [...pinned.values()];
  for (const { conversation_id: session, num } of recent.data) {
    const id = session.uid;
    const row = pinned.get(String(id));
    if (row) Object.assign(row, { unreadCount: num, activity: session.timestamp ?? null });
    else list.push({ id, kind: kindOfListed(id), unreadCount: num, activity: session.timestamp ?? null, owner, pinned: false });
    listed.add(String(id));
  }
  for (const id of joined.data) {
    if (!listed.has(String(id))) list.push({ id, kind: 'group', unreadCount: 0, activity: null, owner, pinned: false });
  }
  return list;
}

/**
 * One conversation of the owner as the home list shows it (the same two reads); one the list
 * does not hold (a conversation deleted, or not listed by the service) answers with unreadCount 0,
 * its kind from the request's group lookup.
 */
export async function conversationOf(owner: UserParent, id: Int64, ctx: GatewayContext): Promise<ConversationParent> {
  return (await listedConversation(owner, id, ctx)) ?? { id, kind: await kindOf(id, ctx), unreadCount: 0, activity: null, owner };
}

/** The conversation as the owner's home list holds it; null when the list does not. */
const listedConversation = async (owner: UserParent, id: Int64, ctx: GatewayContext) =>
  (await conversationsOf(owner, ctx)).find((c) => String(c.id) === String(id)) ?? null;

// node(id:) answers a conversation as the acting user's home list shows it; null when the list
// does not hold it (never had, or deleted it, or left the group).
fetchableNode('Conversation', ([id], ctx) => listedConversation({}, id!, ctx));
// Its last message, when asked, is read beside the list rather than after it: the same read the
// field makes (the request shares it); needless (and marking as lastMessage does) only for a
// conversation the list turns out not to hold.
startsAhead<readonly Int64[]>(ConversationRef, 'lastMessage', ([id], ctx) => readHistory(restFor({}, ctx), id!, LAST_ONE));

const kindOf = async (id: Int64, ctx: GatewayContext): Promise<ConversationParent['kind']> =>
  isSystem(id) ? 'system' : (await groupOrNull(id, ctx)) ? 'group' : 'user';

/** What a conversation field of a payload or event reads. */
export const CONVERSATION_READS = reaches(
  'GET /message/unread',
  'GET /group/user_joined',
  'GET /user/conversation/pin_list',
  'POST /group/info/batch',
);

builder.objectField(ConversationPayloadRef, 'conversation', (t) =>
  t.field({
    type: ConversationRef,
    description:
      "The conversation after the change, as the home list (me.conversations) shows it, so a client's cached row follows " +
      '(unreadCount 0 after markConversationRead). Read after the change (GET /message/unread, GET /group/user_joined).',
    extensions: CONVERSATION_READS,
    resolve: fromResult((c, ctx) => conversationOf({}, c.conversationId, ctx)),
  }),
);

builder.objectField(UnreadConversationRef, 'conversation', (t) =>
  t.field({
    type: ConversationRef,
    nullable: false,
    description:
      'The conversation this entry counts, with the identity (Conversation.id) of its row in me.conversations, so a ' +
      "normalized cache updates the row's unreadCount from each event. Its kind is told by the request's group lookup.",
    extensions: reaches('POST /group/info/batch'),
    resolve: async (e, _a, ctx) => ({
      id: e.conversation_id.uid,
      kind: await kindOf(e.conversation_id.uid, ctx),
      unreadCount: e.num,
      activity: e.conversation_id.timestamp ?? null,
      owner: {},
    }),
  }),
);

const PAGE = 50;

/** A conversation sorts by its last activity, a pinned one first in pin order; its cursor names it by kind and ID. */
export const sortKey = (c: ConversationParent): SortKey => ({
  sort: c.activity,
  id: `${c.kind}:${String(c.id)}`,
  ...(c.pinned ? { lead: true } : {}),
});

builder.objectField(UserRef, 'conversations', (t) =>
  t.field({
    type: ConversationConnectionRef,
    nullable: false,
    description:
      "The user's conversations, for a chat list: the pinned ones first, newest pin first (GET /user/conversation/pin_list), " +
      'then the recent ones, read or not (a read one has unreadCount 0), newest activity first (GET /message/unread), then ' +
      'the other groups the user joined (GET /group/user_joined). The list costs these three reads whatever its length; ' +
      '`lastMessage` and `messages` read each conversation once. A cursor names a conversation and its last activity (a ' +
      'pinned one: its place among the pins): `after: endCursor` reads on from there however the list moved, and a ' +
      'conversation that moved to the top since (a new message, a pin) is read with `last` and `before: startCursor`.',
    // Its page size when neither count is given, for the cost estimate (gateway/execution/cost-estimate.ts).
    extensions: { ...reaches('GET /message/unread', 'GET /group/user_joined', 'GET /user/conversation/pin_list'), defaultPage: PAGE },
    args: keysetArgs(PAGE),
    resolve: async (user, args, ctx) => {
      const page = keysetPage(args, sortKey, PAGE, { order: 'descending' });
      return page(await conversationsOf(user, ctx));
    },
  }),
);

/** The caller's unread list (one read for all groups of the request; group(id:) starts it early). */
const unreadOf = (_id: Int64, ctx: GatewayContext) => ctx.rest.call('GET /message/unread', {});
startsAhead(GroupRef, 'unreadCount', unreadOf);

builder.objectField(GroupRef, 'unreadCount', (t) =>
  t.int({
    description:
      'Messages of this group the acting user has not read yet (GET /message/unread, read once per request for all groups); 0 when none.',
    extensions: reaches('GET /message/unread'),
    resolve: async (g, _a, ctx) => {
      const { data } = await unreadOf(g.id, ctx);
      return data.find((e) => String(e.conversation_id.uid) === String(g.id))?.num ?? 0;
    },
  }),
);
