// 1.2, 1.3, 1.14, 1.15, 1.17–1.21, 1.40: the profile, avatar, nickname, mobile, user name and
// extension information. `email` has no setter in the spec and stays ''.
//
// Choices where the spec is silent:
// - An avatar must be an http(s) URL (the spec types it so) or '' to clear it; a mobile number
//   follows the 2026 format of document 5 (or is '' to clear it).
// - A mobile number or user name that is already another user's login name (user name or
//   mobile) answers 10004.
// - 1.20: an entry without user_id applies to the user named by the user_id header, when one
//   is given; otherwise that entry fails.
import type { UserProfile } from '../../rest/records';
import { actingUser } from '../auth/actor';
import { invalidParam } from '../errors';
import type { Ctx, HandlerMap } from '../handler';
import { NO_USER, perEntry } from './batch';
import { avatarUrl, mobileNumber, nonEmpty } from './checks';
import { profileOf, type UserRecord } from './model';

const EDITABLE = ['description', 'nick_name', 'private_info', 'public_info'] as const;
type EditableProfile = Partial<Pick<UserProfile, (typeof EDITABLE)[number]>>;

/** Applies the given fields only; absent ones keep their value. */
function editProfile(user: UserRecord, fields: EditableProfile): true {
  for (const key of EDITABLE) {
    const value = fields[key];
    if (value !== undefined) user.profile[key] = value;
  }
  return true;
}

/** 1.17 / 1.21: the bare JSON string body arrives as `info`. */
function setsInfo(field: 'private_info' | 'public_info') {
  return (p: { info: string }, ctx: Ctx): true => {
    actingUser(ctx.state, ctx.actor).profile[field] = p.info;
    return true;
  };
}

export const profileHandlers: HandlerMap = {
  'GET /user/profile': (_p, ctx) => profileOf(actingUser(ctx.state, ctx.actor)),

  'PUT /user/profile': (p, ctx) => editProfile(actingUser(ctx.state, ctx.actor), p),

  'PUT /user/profile/batch': (p, ctx) =>
    (p.list ?? []).map((entry, i) => {
      const id = entry.user_id ?? ctx.actor.userId;
      return perEntry({ user_id: id ?? NO_USER }, () => {
        if (id === undefined) throw invalidParam(`list[${i}].user_id`, 'is required without a user_id header');
        editProfile(ctx.state.users.require(id), entry);
      });
    }),

  'PUT /user/avatar': (p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    user.profile.avatar = avatarUrl('avatar', p.avatar);
    return true;
  },

  'PUT /user/avatar/batch': (p, ctx) =>
    (p.list ?? []).map((entry, i) =>
      perEntry({ user_id: entry.user_id }, () => {
        const avatar = avatarUrl(`list[${i}].avatar`, entry.avatar);
        ctx.state.users.require(entry.user_id).profile.avatar = avatar;
      }),
    ),

  'PUT /user/nickname': (p, ctx) => {
    actingUser(ctx.state, ctx.actor).profile.nick_name = p.nick_name;
    return true;
  },

  'PUT /user/mobile': (p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    ctx.state.users.setMobile(user, mobileNumber('mobile', p.mobile));
    return true;
  },

  'PUT /user/username': (p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    ctx.state.users.rename(user, nonEmpty('username', p.username));
    return true;
  },

  'PUT /user/private': setsInfo('private_info'),
  'PUT /user/public': setsInfo('public_info'),
};
