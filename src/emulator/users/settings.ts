// 1.35, 1.36 and the single-setting endpoints (1.1, 1.10, 1.22, 1.25, 1.26, 1.27, 1.37, 1.41).
// Every write here is visible in GET /user/settings.
//
// Choices where the spec is silent (1.36):
// - Body user_id must be the acting user's ID (else 10010). Only the admin token without a
//   user_id header may name any user there (10000 if unknown).
// - `id` is the settings record's ID, read-only: sending another record's ID is 10002; sending
//   the record's own (a read-modify-write client) is fine.
import { actingUser } from '../auth/actor';
import { Code, ImError, invalidParam } from '../errors';
import type { Ctx, HandlerMap } from '../handler';
import { type SettingsFields, settingsOf, type UserRecord } from './model';

/** Applies the given fields only; absent ones keep their value. */
function applySettings(user: UserRecord, patch: Partial<SettingsFields>): true {
  const given = Object.entries(patch).filter(([, value]) => value !== undefined);
  Object.assign(user.settings, Object.fromEntries(given));
  return true;
}

/** A handler that sets one setting of the acting user from the query parameter `value`. */
function setsOne<K extends keyof SettingsFields>(field: K) {
  return (p: { value: SettingsFields[K] }, ctx: Ctx): true => {
    actingUser(ctx.state, ctx.actor).settings[field] = p.value;
    return true;
  };
}

export const settingHandlers: HandlerMap = {
  'GET /user/settings': (_p, ctx) => settingsOf(actingUser(ctx.state, ctx.actor)),

  'PUT /user/settings': (p, ctx) => {
    const { user_id, id, ...patch } = p;
    const byAdmin = ctx.actor.admin && ctx.actor.userId === undefined;
    const user = byAdmin ? ctx.state.users.require(user_id) : actingUser(ctx.state, ctx.actor);
    if (user_id !== user.id) throw new ImError(Code.NO_PERMISSION, `user_id ${user_id} is not the acting user`);
    if (id !== undefined && id !== user.settingsId) throw invalidParam('id', `is not the settings record of user ${user.id}`);
    return applySettings(user, patch);
  },

  'PUT /user/authmode': setsOne('auth_mode'),
  'PUT /user/download': setsOne('auto_download'),
  'PUT /user/push': setsOne('no_push'),
  'PUT /user/push/detail': setsOne('no_push_detail'),
  'PUT /user/push/nickname': setsOne('push_nick_name'),
  'PUT /user/sounds': setsOne('no_sounds'),
  'PUT /user/vibratory': setsOne('vibratory'),

  'PUT /user/push/limit': (p, ctx) =>
    applySettings(actingUser(ctx.state, ctx.actor), {
      no_push_start_hour: p.no_push_start_hour,
      no_push_end_hour: p.no_push_end_hour,
    }),
};
