// GET /user/list (admin token): pages by number, no total, no look-up by ID. Shared by the users
// connection (admin.ts) and User.status (status.ts), which scans it for the users it wants.
import type { UserListElement } from '../../rest/records';
import type { RequestClient } from '../../rest/request-client';

/** The service's maximum page_size (upstream notes; the emulator refuses more). */
export const MAX_USERS_PAGE = 200;

export const readUsersPage = async (rest: RequestClient, pageNum: number, pageSize: number): Promise<UserListElement[]> =>
  (await rest.call('GET /user/list', { page_num: pageNum, page_size: pageSize })).data;

/** Reads page `n` (from 1) of MAX_USERS_PAGE entries. */
export type UsersPageRead = (n: number) => Promise<UserListElement[]>;

/**
 * The list entries of `wanted` (user IDs as text), read page after page until all are found, a
 * short page ends the list, or `maxPages` were read. Users not found are left out.
 */
export async function scanUsers(wanted: readonly string[], read: UsersPageRead, maxPages: number): Promise<Map<string, UserListElement>> {
  const missing = new Set(wanted);
  const found = new Map<string, UserListElement>();
  for (let n = 1; n <= maxPages && missing.size > 0; n++) {
    const page = await read(n);
    for (const entry of page) {
      const id = String(entry.user_id);
      if (missing.delete(id)) found.set(id, entry);
    }
    if (page.length < MAX_USERS_PAGE) break;
  }
  return found;
}
