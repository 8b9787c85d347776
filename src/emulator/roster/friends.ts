// Friendships: symmetric (both sides list each other), each side with its own notes on the
// other; a pair whose friendship ended is remembered as former friends on both sides.
import type { FriendNotes } from './model';

const pair = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);

export class Friendships {
  /** user → friend → the user's notes on that friend. */
  private readonly byUser = new Map<number, Map<number, FriendNotes>>();
  private readonly former = new Set<string>();

  areFriends(a: number, b: number): boolean {
    return this.byUser.get(a)?.has(b) ?? false;
  }

  wereFriends(a: number, b: number): boolean {
    return this.former.has(pair(a, b));
  }

  notes(owner: number, friend: number): FriendNotes | undefined {
    return this.byUser.get(owner)?.get(friend);
  }

  /** The user's friends, ascending by ID. */
  idsOf(owner: number): number[] {
    return [...(this.byUser.get(owner)?.keys() ?? [])].sort((x, y) => x - y);
  }

  /** `aliasOfB` is the remark name a gives b, `aliasOfA` the one b gives a. */
  befriend(a: number, b: number, aliasOfB: string, aliasOfA: string): void {
    this.side(a).set(b, { alias: aliasOfB, ext: '', mute: false });
    this.side(b).set(a, { alias: aliasOfA, ext: '', mute: false });
  }

  /** Ends the friendship on both sides, notes included; answers whether there was one. */
  end(a: number, b: number): boolean {
    if (!this.areFriends(a, b)) return false;
    this.byUser.get(a)?.delete(b);
    this.byUser.get(b)?.delete(a);
    this.former.add(pair(a, b));
    return true;
  }

  private side(owner: number): Map<number, FriendNotes> {
    let friends = this.byUser.get(owner);
    if (!friends) this.byUser.set(owner, (friends = new Map()));
    return friends;
  }
}
