// Moderation: member bans (4.12, 4.51, 4.13), the group-wide ban (4.45, 4.49) and the
// blacklist (4.14, 4.52, 4.15). Bans and blocks reach only those ranked below the actor.
import type { Int64 } from '../../rest/json';
import { invalidParam } from '../errors';
import type { HandlerMap } from '../handler';
import { perUser } from './batch';
import { isoTime } from './model';
import { page } from './paging';
import { assertOutranks, Rank, requireMember, requireRank } from './roles';
import { membersSeenBy } from './visibility';

const BANNED_LIMIT = 1000; // upstream notes
const BLOCKED_LIMIT = 1000; // not documented; as the banned list

// A ban lasts 1 minute to 100 years; beyond that a ban_all takes -1 (permanent).
const MAX_MINUTES = 100 * 365 * 24 * 60;

/** Minutes of a ban; -1 (permanent) only where `permanent` allows it. */
function banMinutes(duration: Int64, permanent: boolean): number {
  const minutes = Number(duration);
  if (permanent && minutes === -1) return -1;
  if (minutes >= 1 && minutes <= MAX_MINUTES) return minutes;
  throw invalidParam('duration', `expected minutes from 1 to ${MAX_MINUTES}${permanent ? ', or -1 for a permanent ban' : ''}`);
}

export const moderationHandlers: HandlerMap = {
  // A member's ban: expired_time = now + duration minutes (ms). Member bans have no permanent form.
  'POST /group/ban': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    const rank = requireRank(g, ctx.actor, Rank.ADMIN);
    const until = ctx.now + banMinutes(p.duration, false) * 60_000;
    return perUser(p.user_list, (id) => {
      const member = requireMember(g, id);
      assertOutranks(g, rank, id);
      member.banExpire = until;
    });
  },

  'POST /group/unban': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    const rank = requireRank(g, ctx.actor, Rank.ADMIN);
    return perUser(p.user_list, (id) => {
      const member = requireMember(g, id);
      if (member.banExpire <= ctx.now) throw invalidParam('user_list', `user ${id} is not banned`);
      assertOutranks(g, rank, id);
      member.banExpire = 0;
    });
  },

  // Members whose ban has not expired; any member may see who is banned.
  'GET /group/banned_list': (p, ctx) => {
    const { g, view } = membersSeenBy(ctx, p.group_id);
    const banned = [...g.members.values()].filter((m) => m.banExpire > ctx.now).map(view);
    return page(ctx, banned, p, BANNED_LIMIT);
  },

  // ban_expire_time is in seconds; duration -1 bans for good (-1).
  'POST /group/settings/ban_all': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.ADMIN);
    const minutes = banMinutes(p.duration, true);
    g.banExpireTime = minutes === -1 ? -1 : Math.floor(ctx.now / 1000) + minutes * 60;
    ctx.state.groups.touch(g, ctx.now);
    return { ban_expire_time: g.banExpireTime };
  },

  'POST /group/settings/unban_all': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.ADMIN);
    g.banExpireTime = 0;
    ctx.state.groups.touch(g, ctx.now);
    return true;
  },

  // Blocking removes a member (their role and ban too) and keeps them out: no application,
  // invitation or QR join (20018). Users who are not members may be blocked ahead.
  'POST /group/block': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    const rank = requireRank(g, ctx.actor, Rank.ADMIN);
    return perUser(p.user_list, (id) => {
      ctx.state.users.require(id);
      if (g.blacklist.has(id)) throw invalidParam('user_list', `user ${id} is already on the blacklist`);
      assertOutranks(g, rank, id);
      if (g.members.has(id)) ctx.state.groups.expel(g, id, ctx.now);
      g.blacklist.set(id, ctx.now);
    });
  },

  'DELETE /group/unblock': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.ADMIN);
    return perUser(p.user_list, (id) => {
      if (!g.blacklist.delete(id)) throw invalidParam('user_list', `user ${id} is not on the blacklist`);
    });
  },

  // Admins only; created_at is an ISO 8601 string (the spec types it string).
  'GET /group/blocked_list': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.ADMIN);
    const entries = [...g.blacklist].map(([userId, at]) => ({ created_at: isoTime(at), group_id: g.id, user_id: userId }));
    return page(ctx, entries, p, BLOCKED_LIMIT);
  },
};
