// Members and roles: member lists and display names (4.35, 4.36, 4.18), the acting member's
// notification preferences (4.37, 4.38), admins (4.1-4.3) and ownership (4.50).
import type { Int64 } from '../../rest/json';
import { actingUser } from '../auth/actor';
import { Code, ImError, invalidParam } from '../errors';
import type { Ctx, HandlerMap } from '../handler';
import { perUser } from './batch';
import { idOf, type MemberRecord, uniqueIds } from './model';
import { page } from './paging';
import { Rank, requireMember, requireRank } from './roles';
import { membersSeenBy } from './visibility';

const DEFAULT_LIMIT = 1000; // not documented; as the banned list, another list of one group's users

/** The acting user's own membership of a live group (20001, then 20002). */
function ownMembership(ctx: Ctx, groupId: Int64): MemberRecord {
  const g = ctx.state.groups.live(groupId);
  return requireMember(g, actingUser(ctx.state, ctx.actor).id);
}

export const memberHandlers: HandlerMap = {
  // Join order: the owner first.
  'GET /group/member_list': (p, ctx) => {
    const { g, view } = membersSeenBy(ctx, p.group_id);
    return page(ctx, [...g.members.values()].map(view), p, DEFAULT_LIMIT);
  },

  // Listed users who are members, each once; non-members are left out.
  'POST /group/members/display_name': (p, ctx) => {
    const { g, view } = membersSeenBy(ctx, p.group_id);
    return uniqueIds(p.user_list).flatMap((id) => {
      const member = g.members.get(id);
      return member ? [view(member)] : [];
    });
  },

  'PUT /group/display_name': (p, ctx) => {
    ownMembership(ctx, p.group_id).displayName = p.value;
    return true;
  },

  // Per-member preferences: they show in the Group record and summary read by that member.
  'PUT /group/msg/mute_mode': (p, ctx) => {
    const member = ownMembership(ctx, p.group_id);
    member.muteMode = p.msg_mute_mode;
    return { group_id: p.group_id, user_id: member.userId, msg_mute_mode: member.muteMode };
  },

  'PUT /group/msg/push_mode': (p, ctx) => {
    const member = ownMembership(ctx, p.group_id);
    member.pushMode = p.msg_push_mode;
    return { group_id: p.group_id, user_id: member.userId, msg_push_mode: member.pushMode };
  },

  'POST /group/admin/add': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.OWNER);
    return perUser(p.user_list, (id) => {
      requireMember(g, id);
      if (g.ownerId === id) throw invalidParam('user_list', `user ${id} is the owner`);
      if (g.admins.has(id)) throw invalidParam('user_list', `user ${id} is already an admin`);
      g.admins.add(id);
      ctx.state.groups.touch(g, ctx.now);
    });
  },

  'DELETE /group/admin/remove': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.OWNER);
    return perUser(p.user_list, (id) => {
      if (!g.admins.delete(id)) throw invalidParam('user_list', `user ${id} is not an admin`);
      ctx.state.groups.touch(g, ctx.now);
    });
  },

  // The admins besides the owner (owner_id of the Group record names the owner).
  'GET /group/admin_list': (p, ctx) => {
    const { g, view } = membersSeenBy(ctx, p.group_id);
    return [...g.members.values()].filter((m) => g.admins.has(m.userId)).map(view);
  },

  // The old owner stays on as a plain member; a new owner who was an admin leaves the admin set.
  'PUT /group/transfer': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.OWNER);
    const to = idOf(p.new_owner);
    if (!g.members.has(to)) throw new ImError(Code.TRANSFER_TARGET_NOT_MEMBER, `user ${to} is not a member of group ${g.id}`);
    if (g.ownerId === to) throw invalidParam('new_owner', `user ${to} already owns group ${g.id}`);
    g.admins.delete(to);
    g.ownerId = to;
    ctx.state.groups.touch(g, ctx.now);
    return { user_id: to, result: 'success', reason: '' };
  },
};
