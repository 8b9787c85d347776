// Who a poller polls for, as a key that is safe to show: the caller's identity (app, token, acting
// user, acting group) hashed, so that neither logs nor Redis keys ever hold a token in clear.
import { createHash } from 'node:crypto';
import type { Caller } from '../rest/caller';

/** A stable digest of the identity; `defaultAppId` stands in for a caller that names no app. */
export function identityHash(caller: Caller, defaultAppId: string | undefined): string {
  const parts = [caller.appId ?? defaultAppId ?? '', caller.token ?? '', caller.userId ?? '', caller.groupId ?? ''];
  // JSON keeps the parts apart ("a","bc" differs from "ab","c").
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}
