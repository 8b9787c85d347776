// Groups made through raw REST, for tests that need one in place before they start, and their users.
import type { Group } from '../../src/rest/records';
import type { TestEmulator, TestUser } from './emulator';

export interface GroupSetup {
  /** Join at creation. */
  members?: TestUser[];
  /** Join at creation and are promoted to admin. */
  admins?: TestUser[];
  type?: 0 | 2;
  name?: string;
}

/** A registered, logged-in user; `confirm` sets settings.group_confirm (invitations wait for the user's answer). */
export async function groupUser(emu: TestEmulator, opts: { confirm?: boolean } = {}): Promise<TestUser> {
  const u = await emu.user();
  if (opts.confirm) await emu.ok('PUT', '/user/settings', { token: u.token, body: { user_id: u.id, group_confirm: true } });
  return u;
}

/** A group owned by `owner` with `members` joined and `admins` joined and promoted; answers its ID. */
export async function createGroup(emu: TestEmulator, owner: TestUser, opts: GroupSetup = {}): Promise<number> {
  const joining = [...(opts.members ?? []), ...(opts.admins ?? [])];
  const group = await emu.ok<Group>('POST', '/group/create', {
    token: owner.token,
    body: { name: opts.name ?? 'a group', type: opts.type ?? 0, user_list: joining.map((u) => u.id) },
  });
  const id = Number(group.group_id);
  if (opts.admins?.length) {
    await emu.ok('POST', '/group/admin/add', { token: owner.token, body: { group_id: id, user_list: opts.admins.map((u) => u.id) } });
  }
  return id;
}
