// Shared set-up of the roster tests: an emulator whose clock the tests move by hand, users with
// a chosen friend-verification setting, and readers of the roster over HTTP. `snapshot` reads
// everything the roster shows of a few users, so a refusal can be checked to change nothing.
import { expect } from 'vitest';
import type { FriendApplication, RosterItem } from '../../../src/rest/records';
import { type RestRequest, type TestEmulator, type TestUser, useEmulator } from '../../helpers/emulator';

export type { TestUser };

/** Lifetime of friend applications in these tests (the emulator's requestTtlMs). */
export const TTL = 60_000;

interface AuthSettings {
  auth_mode?: number;
  auth_question?: string;
  auth_answer?: string;
}

export interface RosterWorld {
  emu: TestEmulator;
  now(): number;
  tick(ms: number): void;
  /** A registered, logged-in user, with these settings applied through PUT /user/settings. */
  user(settings?: AuthSettings): Promise<TestUser>;
  /** The envelope of POST /roster/apply from `from` to `to`. */
  apply(from: TestUser, to: TestUser, more?: Record<string, unknown>): ReturnType<TestEmulator['rest']>;
  /** Two users who are friends (the second one's auth_mode is 0 while they become friends). */
  friends(): Promise<[TestUser, TestUser]>;
  friendIds(u: TestUser): Promise<number[]>;
  applications(u: TestUser): Promise<FriendApplication[]>;
  blocked(u: TestUser): Promise<number[]>;
  item(viewer: TestUser, other: TestUser): Promise<RosterItem>;
  snapshot(users: TestUser[]): Promise<unknown>;
  code(method: string, path: string, req?: RestRequest): Promise<number>;
}

/** A request as this user. */
export const as = (u: TestUser, req: Omit<RestRequest, 'token'> = {}): RestRequest => ({ ...req, token: u.token });

export function useRosterWorld(): RosterWorld {
  let now = Date.now();
  const emu = useEmulator({ clock: () => now, requestTtlMs: TTL });

  const world: RosterWorld = {
    emu,
    now: () => now,
    tick: (ms) => {
      now += ms;
    },
    user: async (settings) => {
      const u = await emu.user();
      if (settings) await emu.ok('PUT', '/user/settings', as(u, { body: { user_id: u.id, ...settings } }));
      return u;
    },
    apply: (from, to, more = {}) => emu.rest('POST', '/roster/apply', as(from, { body: { user_id: to.id, ...more } })),
    friends: async () => {
      const a = await world.user();
      const b = await world.user();
      expect((await world.apply(a, b)).code).toBe(200);
      return [a, b];
    },
    friendIds: (u) => emu.ok('GET', '/roster/list', as(u, { query: { limit: 5000 } })),
    applications: (u) => emu.ok('GET', '/roster/apply/list', as(u, { query: { limit: 1000 } })),
    blocked: (u) => emu.ok('GET', '/roster/blocked_list', as(u)),
    item: (viewer, other) => emu.ok('GET', '/roster/id', as(viewer, { query: { user_id: other.id } })),
    snapshot: async (users) =>
      Promise.all(
        users.map(async (u) => ({
          friends: await world.friendIds(u),
          applications: await world.applications(u),
          blocked: await world.blocked(u),
          items: await emu.ok('POST', '/roster/list', as(u, { body: { list: users.map((o) => o.id) } })),
        })),
      ),
    code: async (method, path, req) => (await emu.rest(method, path, req)).code,
  };
  return world;
}
