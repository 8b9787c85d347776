// Shared set-up of the emulator's group tests: an emulator with a frozen clock the tests move by hand, users
// (optionally asking to confirm invitations), and groups with members and admins in place.
import type { Group } from '../../src/rest/records';
import { startEmulator, type RestRequest, type TestEmulator, type TestUser } from './emulator';
import { createGroup, type GroupSetup, groupUser } from './groups';
import type { CreateEmulatorOptions } from '../../src/emulator';

export type { TestUser };

export interface GroupsWorld {
  emu: TestEmulator;
  /** The emulator's time (ms); frozen until `tick`. */
  now(): number;
  tick(ms?: number): void;
  /** A registered, logged-in user; `confirm` sets settings.group_confirm through PUT /user/settings. */
  user(opts?: { confirm?: boolean }): Promise<TestUser>;
  /** A group owned by `owner` with `members` joined and `admins` joined and promoted. */
  group(owner: TestUser, opts?: GroupSetup): Promise<number>;
  /** The Group record, read with the admin token. */
  info(groupId: number): Promise<Group>;
  /** The envelope code of a call. */
  code(method: string, path: string, req?: RestRequest): Promise<number>;
}

export async function startGroupsWorld(options: Partial<CreateEmulatorOptions> = {}): Promise<GroupsWorld> {
  let now = Date.now();
  const emu = await startEmulator({ ...options, clock: () => now });

  const world: GroupsWorld = {
    emu,
    now: () => now,
    tick: (ms = 1000) => {
      now += ms;
    },
    user: (opts) => groupUser(emu, opts),
    group: (owner, opts) => createGroup(emu, owner, opts),
    info: (groupId) => emu.ok<Group>('GET', '/group/info', { token: emu.adminToken, query: { group_id: groupId } }),
    code: async (method, path, req) => (await emu.rest(method, path, req)).code,
  };
  return world;
}

/** A request as this user. */
export const as = (u: TestUser, req: Omit<RestRequest, 'token'> = {}): RestRequest => ({ ...req, token: u.token });
