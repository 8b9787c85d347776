// 1.4–1.6: passwords and deletion of the acting user.
//
// Choices where the spec is silent:
// - A wrong old password (1.4) or a wrong password on delete (1.6) answers 10002 naming the
//   field ("old_password: is wrong"); the upstream codes have nothing closer.
// - Changing a password (1.4, 1.5) keeps the user's tokens: they are bearer credentials with their
//   own expiry, and revoking them would log the caller out of the session it just used. An admin
//   who wants sessions gone kicks the user (1.12).
import { actingUser } from '../auth/actor';
import { invalidParam } from '../errors';
import type { HandlerMap } from '../handler';
import { nonEmpty } from './checks';
import { hashPassword, passwordMatches } from './model';

export const accountHandlers: HandlerMap = {
  'POST /user/change_password': (p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    const next = nonEmpty('new_password', p.new_password);
    if (!passwordMatches(user, p.old_password)) throw invalidParam('old_password', 'is wrong');
    user.password = hashPassword(next);
    return true;
  },

  // Admin only (table): sets the password of the user named by the user_id header.
  'POST /user/change_password_admin': (p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    user.password = hashPassword(nonEmpty('password', p.password));
    return true;
  },

  // A user deletes itself with its password; the admin token (+ user_id header) needs none.
  // The user's tokens die with it and its name becomes free.
  'DELETE /user/delete': (p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    if (!ctx.actor.admin) {
      if (p.password === undefined) throw invalidParam('password', 'is required with a user token');
      if (!passwordMatches(user, p.password)) throw invalidParam('password', 'is wrong');
    }
    ctx.state.users.remove(user);
    ctx.state.tokens.revoke(user.id);
    return true;
  },
};
