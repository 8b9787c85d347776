// Recent conversations with unread counts (5.7). An entry names the conversation by one ID and
// does not say whether it is a user or a group: `user`/`group` ask the request's batched group
// lookup (message.ts), so any number of entries costs one POST /group/info/batch. The parent stays
// the raw UnreadEntry record, so subscriptions can emit entries of their own polls as they are.
import { builder, reaches } from '../core/builder';
import { groupOrNull, userOrNull } from './message';
import { restFor } from '../core/profile';
import { GroupRef, UnreadConversationRef, UserRef } from '../core/refs';
import { deprecatedFor, REMOVAL_2027_06 } from '../core/deprecation';

UnreadConversationRef.implement({
  description: 'A recent conversation of the acting user with messages not read yet.',
  fields: (t) => ({
    conversationId: t.field({
      type: 'ID',
      nullable: false,
      description: "The conversation (conversation_id.uid): the other user's ID, or the group ID.",
      resolve: (e) => e.conversation_id.uid,
    }),
    unreadCount: t.int({ nullable: false, description: 'Number of unread messages (num).', resolve: (e) => e.num }),
    user: t.field({
      type: UserRef,
      description: 'The other user of a one-to-one conversation; null for a group conversation.',
      extensions: reaches('POST /group/info/batch'),
      resolve: (e, _a, ctx) => userOrNull(e.conversation_id.uid, ctx),
    }),
    group: t.field({
      type: GroupRef,
      description: 'The group of a group conversation; null for a one-to-one conversation.',
      extensions: reaches('POST /group/info/batch'),
      resolve: (e, _a, ctx) => groupOrNull(e.conversation_id.uid, ctx),
    }),
  }),
});

builder.objectField(UserRef, 'unreadConversations', (t) =>
  t.field({
    type: [UnreadConversationRef],
    description: "The user's recent conversations that hold unread messages, most recent first (GET /message/unread).",
    deprecationReason: deprecatedFor('`conversations` (every recent conversation, read or not, with `unreadCount`)', REMOVAL_2027_06),
    extensions: reaches('GET /message/unread'),
    // The service lists read sessions too (num 0); this list keeps to those with news.
    resolve: async (user, _a, ctx) => (await restFor(user, ctx).call('GET /message/unread', {})).data.filter((e) => e.num > 0),
  }),
);
