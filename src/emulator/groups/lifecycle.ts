// Groups as wholes: create (4.16), dissolve (4.17), read (4.24, 4.42, 4.26), list (4.39, 4.53).
//
// Reading: a group's record (4.24, 4.42, 4.26) is readable by any caller with a valid token, as
// a user needs it to decide to apply; dissolved groups stay readable there (status 1) and
// refuse everything else with 20001. Members, announcements and files need membership.
import type { Int64 } from '../../rest/json';
import { actingUser } from '../auth/actor';
import { Code, ImError } from '../errors';
import type { Ctx, HandlerMap } from '../handler';
import { capacityOf, GROUP_TYPE, groupView, summaryView, uniqueIds } from './model';
import { inviteUser } from './membership';
import { Rank, requireRank } from './roles';

const readGroup = (p: { group_id: Int64 }, ctx: Ctx) => groupView(ctx.state.groups.existing(p.group_id), ctx.actor.userId);

export const lifecycleHandlers: HandlerMap = {
  // The creator owns the group; invitees join at once or get an invitation, by their group_confirm.
  'POST /group/create': (p, ctx) => {
    const { state, now } = ctx;
    const creator = actingUser(state, ctx.actor);
    const invitees = uniqueIds(p.user_list ?? [])
      .filter((id) => id !== creator.id)
      .map((id) => state.users.require(id));
    const type = p.type ?? GROUP_TYPE.PRIVATE;
    const joining = invitees.filter((u) => !u.settings.group_confirm).length;
    if (1 + joining > capacityOf(type)) {
      throw new ImError(Code.GROUP_FULL, `a new group holds at most ${capacityOf(type)} members; ${1 + joining} would join`);
    }
    const g = state.groups.create({
      ownerId: creator.id,
      name: p.name ?? '',
      avatar: p.avatar ?? '',
      description: p.description ?? '',
      type,
      now,
    });
    for (const user of invitees) inviteUser(state, g, creator.id, user.id, '', now);
    return groupView(g, creator.id);
  },

  'DELETE /group/destroy': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.OWNER);
    g.status = 1;
    ctx.state.groups.touch(g, ctx.now);
    return true;
  },

  'GET /group/info': readGroup,
  'GET /group/settings': readGroup,

  // Unknown IDs are omitted; dissolved groups appear with status 1; each group once, in order.
  'POST /group/info/batch': (p, ctx) =>
    uniqueIds(p.group_list).flatMap((id) => {
      const g = ctx.state.groups.get(id);
      return g ? [summaryView(g, ctx.actor.userId)] : [];
    }),

  'GET /group/user_joined': (_p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    return [...ctx.state.groups.all()].filter((g) => g.status === 0 && g.members.has(user.id)).map((g) => g.id);
  },

  // Deprecated upstream; here: every chatroom (type 2) that is not dissolved, as chatrooms are
  // the public kind of group.
  'GET /group/public_list': (_p, ctx) =>
    [...ctx.state.groups.all()].filter((g) => g.status === 0 && g.type === GROUP_TYPE.CHATROOM).map((g) => g.id),
};
