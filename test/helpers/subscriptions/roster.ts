// What the roster subscription tests share: users who answer friend requests themselves, requests
// and friendships made through the emulator, the two subscriptions, and a wait for a poll's first round.
import type { TestEmulator, TestUser } from '../emulator';
import { until } from '../wait';

/** A user whose friend requests wait for an answer (auth_mode 1). */
export async function consentingUser(emu: TestEmulator): Promise<TestUser> {
  const u = await emu.user();
  await emu.ok('PUT', '/user/settings', { token: u.token, body: { user_id: u.id, auth_mode: 1 } });
  return u;
}

/** `from` asks `to` to become friends. */
export async function requestFriend(emu: TestEmulator, from: TestUser, to: TestUser, reason = ''): Promise<void> {
  await emu.ok('POST', '/roster/apply', { token: from.token, body: { user_id: to.id, reason } });
}

export const acceptRequest = (emu: TestEmulator, me: TestUser, from: TestUser) =>
  emu.ok('PUT', '/roster/accept', { token: me.token, query: { user_id: from.id } });

export const removeFriend = (emu: TestEmulator, me: TestUser, friend: TestUser) =>
  emu.ok('DELETE', '/roster/delete', { token: me.token, query: { user_id: friend.id } });

export const REQUESTS = `subscription($after: String) {
  friendRequestReceived(after: $after) { cursor request { id message status expiresAt from { id } } } }`;

export interface RequestData {
  friendRequestReceived: {
    cursor: string;
    request: { id: string; message: string; status: string; expiresAt: string; from: { id: string } };
  };
}

export const FRIEND_EVENTS = 'subscription { friendEvents { __typename id user { id } } }';

export interface FriendEventData {
  friendEvents: { __typename: 'FriendAdded' | 'FriendRemoved'; id: string; user: { id: string } };
}

/** Waits until `endpoint` was polled twice more: a new poll's first round (its baseline) is done. */
export async function polledTwice(emu: TestEmulator, endpoint: 'GET /roster/apply/list' | 'GET /roster/list'): Promise<void> {
  const rounds = () => emu.server.calls.filter((c) => c.endpoint === endpoint).length;
  const before = rounds();
  await until(`${endpoint} polled twice`, () => rounds() >= before + 2);
}
