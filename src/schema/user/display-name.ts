// `User.displayName`: a name a UI can always show. The nickname (public); else the user name, but
// only to callers the service lets read it (the user itself, an admin token): through the
// gateway's service credential it is private; else "User <id>", which tells nothing the caller
// does not already hold. It costs the public profile read `nickName` makes, nothing more.
import type { GatewayContext } from '../../context';
import { builder, reaches } from '../core/builder';
import { errorCodeOf } from '../core/upstream-errors';
import { type UserParent, UserRef } from '../core/refs';
import { provenCaller } from '../core/caller-proof';
import { publicProfileOf, startsWithPublicProfile } from './peers';
import { userIdOf } from '../core/profile';

const blankToNull = (s: string | null | undefined) => (s && s.trim() !== '' ? s : null);

/** Whether the profile the public read answers was read with the caller's own access (so its user name is the caller's to see). */
async function readWithOwnAccess(u: UserParent, ctx: GatewayContext): Promise<boolean> {
  if (u.id === undefined || !ctx.peers || ctx.peers.callerIsService) return true;
  const self = await provenCaller(ctx);
  return self === null || String(self) === String(u.id);
}

async function displayNameOf(u: UserParent, ctx: GatewayContext): Promise<string> {
  try {
    const profile = await publicProfileOf(u, ctx);
    const nick = blankToNull(profile?.nick_name);
    if (nick) return nick;
    const username = profile && (await readWithOwnAccess(u, ctx)) ? blankToNull(profile.username) : null;
    if (username) return username;
  } catch (err) {
    // A user the service does not know any more (the sender of an old message) still gets a name.
    if (errorCodeOf(err) !== 'NOT_FOUND') throw err;
  }
  return `User ${String(await userIdOf(u, ctx))}`;
}

builder.objectField(UserRef, 'displayName', (t) =>
  t.string({
    nullable: false,
    description:
      'A name to show, never null: the nickname; else the user name when the caller may read it (the user itself, an admin ' +
      'token); else "User <id>". Read from the public profile, like nickName.',
    extensions: reaches('GET /user/profile'),
    resolve: (u, _a, ctx) => displayNameOf(u, ctx),
  }),
);
startsWithPublicProfile('displayName');
