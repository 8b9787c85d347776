// The emulator's one notion of "online": a user that is not banned and holds an unexpired token
// (logged in, and not logged out by a kick, a device removal or its own deletion since). GET
// /user/online_status (1.16) answers it and online_only sends (5.4, 5.6, 9.1) deliver by it.
import type { State } from '../state';

export function isOnline(state: State, userId: number, now: number): boolean {
  const user = state.users.get(userId);
  return user !== undefined && user.status === 0 && state.tokens.hasLive(userId, now);
}
