// Demo data for a fresh start, enough for every flow of examples/ as the demo viewer (alice, whom
// GraphiQL acts as): friends, a group she owns, a group whose owner hides member details, a
// pinned conversation, a streamed reply (a message grown by appends, then replaced), and a friend
// request waiting for her answer (she reviews requests: auth_mode 1). Made through the REST
// interface itself (our own client), so it obeys the real semantics.
import { createRestClient } from '../rest/client';
import type { Caller } from '../rest/caller';
import type { Int64 } from '../rest/json';

interface DemoUser {
  username: string;
  id: Int64;
}

export interface DemoData {
  /** alice, bob, carol, dave, in that order. */
  users: DemoUser[];
  password: string;
  /** A token of the first demo user (alice, the demo viewer). */
  token: string;
  /** alice's group with bob and carol. */
  groupId: Int64;
  /** bob's group, alice a member, whose member details are hidden from members. */
  hiddenGroupId: Int64;
  /** bob's reply to alice that was streamed: sent, appended to, then replaced. */
  streamedMessageId: Int64;
  /** Variables for each example operation, run as alice (GraphiQL's Variables tab; npm start). */
  variables: Record<string, Record<string, unknown>>;
}

const PASSWORD = 'demo-password';
const PEOPLE = [
  { username: 'alice', nick_name: 'Alice', description: 'Product lead' },
  { username: 'bob', nick_name: 'Bob', description: 'Mobile developer' },
  { username: 'carol', nick_name: 'Carol', description: 'Designer' },
  { username: 'dave', nick_name: 'Dave', description: 'New colleague' },
];
/** auth_mode 1 (document 2): a friend request waits for the receiver's answer. */
const REVIEWS_REQUESTS = 1;

export async function seedDemo(baseUrl: string, appId: string, adminToken: string): Promise<DemoData> {
  const rest = createRestClient({ baseUrl, appId, retries: 0 });
  try {
    const registered = await rest.call(
      'POST /user/register/batch',
      { list: PEOPLE.map((p) => ({ username: p.username, password: PASSWORD })) },
      {},
    );
    const users = registered.data.map((r, i) => {
      if (!r.success) throw new Error(`seed: cannot register ${PEOPLE[i]!.username}: ${r.reason}`);
      return { username: PEOPLE[i]!.username, id: r.user_id };
    });
    const as = (user: DemoUser): Caller => ({ token: adminToken, userId: String(user.id) });
    for (const [i, user] of users.entries()) {
      const { nick_name, description } = PEOPLE[i]!;
      await rest.call('PUT /user/profile', { nick_name, description }, as(user));
    }
    const [alice, bob, carol, dave] = users as [DemoUser, DemoUser, DemoUser, DemoUser];

    const group = await rest.call(
      'POST /group/create',
      { name: 'Demo team', description: 'Everyone in the demo', type: 0, user_list: [bob.id, carol.id] },
      as(alice),
    );
    const groupId = group.data.group_id;
    // Bob's auth_mode is the default 0: the application makes Alice and Bob friends at once.
    await rest.call('POST /roster/apply', { user_id: bob.id }, as(alice));
    await rest.call(
      'POST /group/announcement/edit',
      { group_id: groupId, title: 'Welcome', content: 'This group was made by the emulator seed. Try sending a message!' },
      as(alice),
    );

    const send = (from: DemoUser, body: { to: Int64; type: 1 | 2; content: string; content_type?: number; related_mid?: Int64 }) =>
      rest.call(
        'PUT /message/send',
        {
          content_type: body.content_type ?? 0,
          content: body.content,
          attachment: '',
          targets: [body.to],
          type: body.type,
          ...(body.related_mid === undefined ? {} : { related_mid: body.related_mid }),
        },
        as(from),
      );
    await send(alice, { to: bob.id, type: 1, content: 'Hi Bob, the new build is ready.' });
    await send(bob, { to: alice.id, type: 1, content: 'Thanks! Testing it now.' });
    const question = await send(alice, { to: bob.id, type: 1, content: 'Tell me how the login screen feels.' });
    await send(carol, { to: groupId, type: 2, content: 'Mock-ups for the group screen are uploaded.' });

    // A streamed reply (messages.graphql: AppendToMessage, ReplaceMessageContent): its first
    // words, one chunk appended (content_type 11), then the final text (12).
    const first = await send(bob, { to: alice.id, type: 1, content: 'The login screen' });
    const streamedMessageId = first.msg_ids![0]!;
    await send(bob, { to: alice.id, type: 1, content: ' feels fast', content_type: 11, related_mid: streamedMessageId });
    await send(bob, {
      to: alice.id,
      type: 1,
      content: 'The login screen feels fast on both phones.',
      content_type: 12,
      related_mid: streamedMessageId,
    });
    // Alice keeps Bob's conversation on top of her home list (home.graphql: pinned).
    await rest.call('PUT /user/conversation/pin', { conversation_id: bob.id }, as(alice));

    // Bob's group hides member details from its members (groups.graphql, as alice: a member).
    const hidden = await rest.call(
      'POST /group/create',
      { name: 'Beta testers', description: 'Member details hidden', type: 0, user_list: [alice.id, carol.id, dave.id] },
      as(bob),
    );
    const hiddenGroupId = hidden.data.group_id;
    await rest.call('PUT /group/settings/hide_member_info', { group_id: hiddenGroupId, value: true }, as(bob));
    await send(dave, { to: hiddenGroupId, type: 2, content: 'Build 42 installed, no crash so far.' });

    // Alice reviews friend requests herself; Dave's waits for her (contacts.graphql).
    await rest.call('PUT /user/authmode', { value: REVIEWS_REQUESTS }, as(alice));
    await rest.call('POST /roster/apply', { user_id: alice.id, reason: 'Hi Alice, I joined the beta testers.' }, as(dave));

    const grant = await rest.call('POST /token/user', { name: alice.username, password: PASSWORD, device_guid: 'graphiql' }, {});
    const id = (user: DemoUser) => String(user.id);
    return {
      users,
      password: PASSWORD,
      token: grant.data.token,
      groupId,
      hiddenGroupId,
      streamedMessageId,
      variables: exampleVariables({
        bob: id(bob),
        carol: id(carol),
        dave: id(dave),
        groupId: String(groupId),
        hiddenGroupId: String(hiddenGroupId),
        // Only the sender may edit: alice's own message.
        ownMessageId: String(question.msg_ids![0]!),
      }),
    };
  } finally {
    await rest.close();
  }
}

/** Each example operation's variables as alice, from the demo data (operations without any are left out). */
function exampleVariables(ids: {
  bob: string;
  carol: string;
  dave: string;
  groupId: string;
  hiddenGroupId: string;
  ownMessageId: string;
}): Record<string, Record<string, unknown>> {
  // One file's operations share a GraphiQL tab, and so its variables: a shared name has one value.
  const text = { content: 'Hello from GraphiQL' };
  return {
    SetNickname: { nickName: 'Alice' },
    Refetch: { id: ids.bob },
    PinConversation: { conversationId: ids.bob },
    UnpinConversation: { conversationId: ids.bob },
    GroupScreen: { id: ids.hiddenGroupId },
    CreateGroup: { name: 'Lunch', userIds: [ids.bob, ids.carol] },
    GroupActions: { id: ids.hiddenGroupId },
    KickMembers: { groupId: ids.groupId, userIds: [ids.carol] },
    FindUserByName: { username: 'carol' },
    AddFriend: { userId: ids.carol, message: 'Hi Carol, from the demo' },
    AcceptFriendRequest: { fromId: ids.dave },
    Conversation: { with: ids.bob },
    SendText: { to: ids.bob, targetType: 'USER', ...text },
    MarkRead: { conversationId: ids.bob },
    AppendToMessage: { conversationId: ids.bob, messageId: ids.ownMessageId, ...text },
    ReplaceMessageContent: { conversationId: ids.bob, messageId: ids.ownMessageId, ...text },
    AssistantConversation: { with: ids.bob },
    AskAssistant: { to: ids.bob, content: 'What is on the roadmap?' },
    ConversationEvents: { with: ids.bob },
    LogIn: { username: 'alice', password: PASSWORD },
    Users: { first: 10 },
    DisableUsers: { userIds: [ids.dave] },
  };
}
