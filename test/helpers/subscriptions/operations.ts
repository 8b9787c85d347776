// What the subscription tests share: sending messages through the emulator, and the unreadCounts
// and conversationEvents operations.
import { expect } from 'vitest';
import type { TestEmulator, TestUser } from '../emulator';
import type { Feed } from './clients';

/** Sends a text from one user to another through the emulator; answers the new message's ID. */
export async function sendText(emu: TestEmulator, from: TestUser, to: TestUser, content: string): Promise<string> {
  const reply = await emu.rest('POST', '/message/send', {
    token: from.token,
    body: { content_type: 0, content, attachment: '', targets: [to.id], type: 1 },
  });
  if (reply.code !== 200) throw new Error(`send failed: ${reply.code} ${reply.message}`);
  return String(reply.msg_ids![0]);
}

export const UNREAD = 'subscription { unreadCounts { conversationId unreadCount user { id } group { id } } }';

export interface UnreadData {
  unreadCounts: { conversationId: string; unreadCount: number; user: { id: string } | null; group: { id: string } | null }[];
}

export const EVENTS = `subscription($with: ID!, $after: ID) { conversationEvents(with: $with, after: $after) {
  __typename conversationId messageId
  ... on MessageReceived { message { id content } }
  ... on MessageRead { messages { id status } } } }`;

export interface EventData {
  conversationEvents: {
    __typename: 'MessageReceived' | 'MessageRecalled' | 'MessageRead';
    conversationId: string;
    messageId: string;
    message?: { id: string; content: string };
    messages?: { id: string; status: string }[];
  };
}

/** The next `n` conversation events, failing on any error. */
export async function take(feed: Feed<EventData>, n: number) {
  const events: EventData['conversationEvents'][] = [];
  for (let i = 0; i < n; i++) {
    const result = await feed.next();
    expect(result.errors).toBeUndefined();
    events.push(result.data!.conversationEvents);
  }
  return events;
}
