// What hide_member_info (4.54) hides, and from whom (NOTES.md, "hide_member_info").
//
// When it is on, a viewer ranked below admin sees the other members' user IDs (chat needs them)
// but not their details: display_name '' and join_time 0. The viewer's own entry stays whole, and
// so does expired_time (a ban is moderation, which every member may see: 4.13). The owner, admins
// and the admin token ranked as owner (bare, or with this group's group_id header) see everything.
import type { Int64 } from '../../rest/json';
import type { Member } from '../../rest/records';
import type { Actor } from '../auth/actor';
import type { Ctx } from '../handler';
import { type GroupRecord, type MemberRecord, memberView } from './model';
import { Rank, requireRank } from './roles';

type MemberView = (m: MemberRecord) => Member;

/** The wire shape of a member as this actor, of this rank, may see it. */
function memberViewFor(g: GroupRecord, actor: Actor, rank: Rank): MemberView {
  if (!g.hideMemberInfo || rank >= Rank.ADMIN) return memberView;
  return (m) => (m.userId === actor.userId ? memberView(m) : { ...memberView(m), display_name: '', join_time: 0 });
}

/** A live group whose members the actor may list (members and up: 20011 otherwise), and how it sees them. */
export function membersSeenBy(ctx: Ctx, groupId: Int64): { g: GroupRecord; view: MemberView } {
  const g = ctx.state.groups.live(groupId);
  return { g, view: memberViewFor(g, ctx.actor, requireRank(g, ctx.actor, Rank.MEMBER)) };
}
