// Every operation of examples/ runs through its documentId (the manifest `npm run codegen` writes),
// against the emulator with the demo data (`--seed`): queries and mutations by POST, the upload by
// a multipart request, subscriptions as an EventSource opens them (GET). An operation added to
// examples/ without a way to run it here fails the first test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import manifest from '../../src/generated/persisted-documents.json' with { type: 'json' };
import { seedDemo } from '../../src/emulator/seed';
import { startStack, type Stack } from '../helpers/stack';
import { eventSourceFeed } from '../helpers/subscriptions/clients';
import { polledTwice } from '../helpers/subscriptions/roster';

type Demo = Awaited<ReturnType<typeof seedDemo>>;
type Reply = { data?: Record<string, unknown> | null; errors?: unknown[] };

let stack: Stack;
let demo: Demo;
/** What one operation leaves for a later one (a message ID, a file key). */
const found: Record<string, string> = {};

const idOf = (n: number) => String(demo.users[n]!.id);
const alice = () => ({ 'access-token': demo.token, app_id: stack.emu.appId });
const admin = () => ({ 'access-token': stack.emu.adminToken, app_id: stack.emu.appId });

async function byPost(documentId: string, variables: Record<string, unknown>, headers: Record<string, string>): Promise<Reply> {
  const res = await fetch(`${stack.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ documentId, variables }),
  });
  return (await res.json()) as Reply;
}

async function byUpload(documentId: string, variables: Record<string, unknown>): Promise<Reply> {
  const form = new FormData();
  form.append('operations', JSON.stringify({ documentId, variables: { ...variables, file: null } }));
  form.append('map', JSON.stringify({ 0: ['variables.file'] }));
  form.append('0', new Blob(['notes by documentId'], { type: 'text/plain' }), 'notes.txt');
  const res = await fetch(`${stack.url}/graphql`, { method: 'POST', headers: { ...alice(), 'x-graphql-yoga-csrf': 'upload' }, body: form });
  return (await res.json()) as Reply;
}

/** The first event of a subscription opened as an EventSource does (identity in the URL); `cause`, once its poll runs, makes it happen. */
async function firstEvent(
  documentId: string,
  variables: Record<string, unknown>,
  cause?: { polled: Parameters<typeof polledTwice>[1]; act: () => Promise<unknown> },
): Promise<Reply> {
  const url = new URL(`${stack.url}/graphql`);
  url.searchParams.set('documentId', documentId);
  url.searchParams.set('variables', JSON.stringify(variables));
  for (const [name, value] of Object.entries(alice())) url.searchParams.set(name, value);
  const feed = eventSourceFeed<Record<string, unknown>>(url.toString());
  try {
    if (cause) {
      await polledTwice(stack.emu, cause.polled);
      await cause.act();
    }
    return await feed.next();
  } finally {
    await feed.close();
  }
}

interface Run {
  variables: () => Record<string, unknown>;
  send: (documentId: string, variables: Record<string, unknown>) => Promise<Reply>;
  /** Keeps what a later operation needs. */
  keep?: (data: Record<string, unknown>) => void;
}
const asAlice = (variables: Run['variables'], keep?: Run['keep']): Run => ({
  variables,
  send: (d, v) => byPost(d, v, alice()),
  ...(keep ? { keep } : {}),
});

/** In the order they run: later ones use what earlier ones made. */
const RUNS: Record<string, Run> = {
  LogIn: { variables: () => ({ username: 'alice', password: demo.password, deviceGuid: 'document-id' }), send: (d, v) => byPost(d, v, {}) },
  Me: asAlice(() => ({})),
  SetNickname: asAlice(() => ({ nickName: 'Alice' })),
  ChatHome: asAlice(() => ({})),
  Refetch: asAlice(() => ({ id: idOf(0) })),
  Conversation: asAlice(() => ({ with: idOf(1) })),
  SendText: asAlice(
    () => ({ to: idOf(1), targetType: 'USER', content: 'sent by documentId' }),
    (data) => (found.messageId = (data.sendMessage as { message: { id: string } }).message.id),
  ),
  MarkRead: asAlice(() => ({ conversationId: idOf(1) })),
  AppendToMessage: asAlice(() => ({ conversationId: idOf(1), messageId: found.messageId, content: ' (streamed)' })),
  ReplaceMessageContent: asAlice(() => ({ conversationId: idOf(1), messageId: found.messageId, content: 'sent and replaced' })),
  PinConversation: asAlice(() => ({ conversationId: idOf(1) })),
  UnpinConversation: asAlice(() => ({ conversationId: idOf(1) })),
  AskAssistant: asAlice(() => ({ to: idOf(1), content: 'hello, assistant' })),
  AssistantConversation: asAlice(() => ({ with: idOf(1) })),
  GroupScreen: asAlice(() => ({ id: String(demo.groupId) })),
  CreateGroup: asAlice(
    () => ({ name: 'Made by documentId', userIds: [idOf(1)] }),
    (data) => (found.groupId = (data.createGroup as { group: { id: string } }).group.id),
  ),
  GroupActions: asAlice(() => ({ id: found.groupId })),
  KickMembers: asAlice(() => ({ groupId: found.groupId, userIds: [idOf(1)] })),
  UploadChatFile: {
    variables: () => ({ to: idOf(1) }),
    send: byUpload,
    keep: (data) => (found.fileKey = (data.uploadChatFile as { file: { fileKey: string } }).file.fileKey),
  },
  ChatFileDownload: asAlice(() => ({ fileKey: found.fileKey })),
  Users: { variables: () => ({ first: 10 }), send: (d, v) => byPost(d, v, admin()) },
  // Bob answers the text: the event after it (replayed), and an unread conversation for Alice.
  ConversationEvents: {
    variables: () => ({ with: idOf(1), after: found.messageId }),
    send: async (documentId, variables) => {
      const body = { content_type: 0, content: 'an answer', attachment: '', targets: [demo.users[0]!.id], type: 1 };
      await stack.emu.ok('PUT', '/message/send', { token: stack.emu.adminToken, userId: demo.users[1]!.id, body });
      return firstEvent(documentId, variables);
    },
  },
  UnreadCounts: { variables: () => ({}), send: firstEvent },
  ContactsScreen: asAlice(() => ({})),
  FindUserByName: asAlice(() => ({ username: demo.users[2]!.username })),
  AddFriend: asAlice(() => ({ userId: idOf(2), message: 'added by documentId' })),
  FriendRequestsScreen: asAlice(() => ({})),
  // Alice reviews requests herself now; a new user asks, and she accepts.
  AcceptFriendRequest: {
    variables: () => ({}),
    send: async (documentId, variables) => {
      const newcomer = await stack.emu.user();
      await stack.emu.ok('PUT', '/user/authmode', { token: demo.token, query: { value: 1 } });
      await stack.emu.ok('POST', '/roster/apply', { token: newcomer.token, body: { user_id: demo.users[0]!.id } });
      return byPost(documentId, { ...variables, fromId: String(newcomer.id) }, alice());
    },
  },
  // Alice reviews requests (since AcceptFriendRequest): one arrives while she listens.
  FriendRequestArrived: {
    variables: () => ({}),
    send: (documentId, variables) =>
      firstEvent(documentId, variables, {
        polled: 'GET /roster/apply/list',
        act: async () => {
          const asker = await stack.emu.user();
          await stack.emu.ok('POST', '/roster/apply', { token: asker.token, body: { user_id: demo.users[0]!.id } });
        },
      }),
  },
  // A friend of Alice's leaves while she listens.
  ContactsChanged: {
    variables: () => ({}),
    send: (documentId, variables) =>
      firstEvent(documentId, variables, {
        polled: 'GET /roster/list',
        act: () => stack.emu.ok('DELETE', '/roster/delete', { token: demo.token, query: { user_id: demo.users[2]!.id } }),
      }),
  },
  DisableUsers: { variables: () => ({ userIds: [idOf(2)] }), send: (d, v) => byPost(d, v, admin()) },
};

// The operation's name: fragments the document uses come before it.
const operationName = (document: string) => /(?:^|\s)(?:query|mutation|subscription) (\w+)/.exec(document)?.[1];

beforeAll(async () => {
  stack = await startStack({ POLL_INTERVAL_MS: '200' }, { serviceCredential: true });
  demo = await seedDemo(stack.emu.url, stack.emu.appId, stack.emu.adminToken);
});
afterAll(() => stack.stop());

describe('examples/ through documentId', () => {
  it('has a way to run every operation of the manifest, and the manifest holds every example', () => {
    expect(Object.values(manifest).map(operationName).sort()).toEqual(Object.keys(RUNS).sort());
  });

  it('runs each one without an error', async () => {
    const ids = new Map(Object.entries(manifest).map(([id, document]) => [operationName(document)!, id]));
    for (const [name, run] of Object.entries(RUNS)) {
      const reply = await run.send(ids.get(name)!, run.variables()).catch((err: Error): Reply => ({ errors: [`${name}: ${err.message}`] }));
      expect({ name, errors: reply.errors }).toEqual({ name, errors: undefined });
      expect(reply.data, name).toBeTruthy();
      run.keep?.(reply.data!);
    }
  });
});
