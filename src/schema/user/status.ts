// User.status: whether the user is banned. The service tells it only in the admin user list (GET
// /user/list: pages by number, no look-up by ID), so the users a request wants are batched (a
// DataLoader) and found by one scan of the list, page after page. Who reads it:
// - a caller holding an admin token, with its own token (the scan made per request);
// - any other signed-in caller of the app through the gateway's service credential (peers.ts):
//   ban status is public, since anyone a banned user can no longer talk to learns it anyway; the
//   credential's pages are shared by the app's requests for PEER_TTL_MS, and forgotten when a
//   ban or unban goes through this gateway;
// - without either, null without an error.
import DataLoader from 'dataloader';
import type { GatewayContext } from '../../context';
import { PEER_TTL_MS, remembered } from '../../peers/service-credential';
import type { Int64 } from '../../rest/json';
import { builder, reaches } from '../core/builder';
import { defineLoader } from '../core/loader';
import { type UserParent, UserRef } from '../core/refs';
import { UserStatus } from './enums';
import { provenCaller } from '../core/caller-proof';
import { isForbidden } from './peers';
import { userIdOf } from '../core/profile';
import { MAX_USERS_PAGE, readUsersPage, scanUsers, type UsersPageRead } from './user-list';

/** How far a scan reads: users beyond the first MAX_STATUS_PAGES * MAX_USERS_PAGE of the list answer null. */
const MAX_STATUS_PAGES = 25;

/** The credential cache's space for the list's pages, keyed by page number. */
const PAGES = 'user-list';

interface Pages {
  read: UsersPageRead;
  /** Forgets the page a scan ended at when an earlier request read it; false when it was fresh. */
  refreshLast(): boolean;
}

/** The list's pages as this request may read them: the credential's shared ones, or the caller's own. */
function pagesFor(ctx: GatewayContext): Pages {
  const peers = ctx.peers;
  if (!peers) return { read: (n) => readUsersPage(ctx.rest, n, MAX_USERS_PAGE), refreshLast: () => false };
  const { credential } = peers;
  const readNow = new Set<number>();
  let last = 0;
  return {
    read(n) {
      last = n;
      return remembered(credential, PAGES, String(n), () => {
        readNow.add(n);
        return readUsersPage(peers.service(), n, MAX_USERS_PAGE);
      });
    },
    refreshLast() {
      if (last === 0 || readNow.has(last)) return false;
      credential.cache.delete(PAGES, String(last));
      return true;
    },
  };
}

/** The wanted users' status codes, one scan per request batch; null for users not in the list. */
const statusLoader = defineLoader(
  (ctx) =>
    new DataLoader<Int64, number | null, string>(
      async (ids) => {
        const wanted = ids.map(String);
        const pages = pagesFor(ctx);
        const found = await scanUsers(wanted, pages.read, MAX_STATUS_PAGES);
        // Users registered since a remembered page was read show up on the list's last page.
        const missing = wanted.filter((id) => !found.has(id));
        if (missing.length > 0 && pages.refreshLast()) {
          for (const [id, entry] of await scanUsers(missing, pages.read, MAX_STATUS_PAGES)) found.set(id, entry);
        }
        return wanted.map((id) => found.get(id)?.status ?? null);
      },
      { cacheKeyFn: String },
    ),
);

/** Forgets the app's shared list pages: called after a ban or unban (admin.ts). */
export function forgetUserStatuses(ctx: GatewayContext): void {
  const credential = ctx.peers?.credential;
  for (let n = 1; credential && n <= MAX_STATUS_PAGES; n++) credential.cache.delete(PAGES, String(n));
}

async function statusOf(u: UserParent, ctx: GatewayContext): Promise<number | null> {
  // The caller's own profile proves its token before the credential serves it.
  if (ctx.peers?.callerIsService === false) await provenCaller(ctx);
  const id = await userIdOf(u, ctx);
  try {
    return await statusLoader(ctx).load(id);
  } catch (err) {
    // A user token without the credential may not read the list.
    if (!ctx.peers && isForbidden(err)) return null;
    throw err;
  }
}

builder.objectField(UserRef, 'status', (t) =>
  t.field({
    type: UserStatus,
    description:
      'Whether an administrator banned the user. Public: read with an admin token, or by any signed-in user of the app ' +
      'when the gateway holds a service credential (IM_ADMIN_TOKEN); otherwise null. Found in the admin user list ' +
      `(one scan per request for all users asked, ${MAX_USERS_PAGE} users per call); null for users not in its first ` +
      `${MAX_STATUS_PAGES * MAX_USERS_PAGE} entries. Through the credential it may be up to ${PEER_TTL_MS / 1000} s old, ` +
      'except after disableUsers/enableUsers on this gateway.',
    extensions: reaches('GET /user/list'),
    resolve: async (u, _a, ctx) => (await statusOf(u, ctx)) as 0 | 1 | null,
  }),
);
