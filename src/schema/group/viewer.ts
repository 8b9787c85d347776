// What the caller may do to a group (Group.viewerCan…), so a UI offers only what the service
// will accept. Each flag follows the service's rank rules (spec/upstream-notes.md: 20011-20013):
// the caller's rank from the owner (group summary), its joined groups and the admin list, plus
// the memberInvite/memberModify switches for a plain member. The reads are shared by every flag
// and group of a request (the request's memo of identical GETs and the group batch).
import { type Int64, sameId } from '../../rest/json';
import type { GatewayContext } from '../../context';
import { builder, reaches } from '../core/builder';
import { type GroupParent, GroupRef } from '../core/refs';
import { provenCaller } from '../core/caller-proof';
import { recordOf, summaryOf } from './loaders';
import { startedRead, startsAhead } from '../core/speculative';

const Rank = { NONE: 0, MEMBER: 1, ADMIN: 2, OWNER: 3 } as const;
type Rank = (typeof Rank)[keyof typeof Rank];

const DISSOLVED = 1;

/**
 * The caller's rank in the group, as the service ranks it: a user's own rank; with an admin token
 * a group_id header naming this group adds admin rights, and the token acting as no user (no
 * user_id header, whose profile read the service refuses) is the app's backend, which may do
 * what the owner may unless the group_id header names another group.
 */
async function viewerRank(g: GroupParent, ctx: GatewayContext): Promise<Rank> {
  const reads = startRankReads(g.id, ctx);
  const summary = await summaryOf(g, ctx);
  if (summary.status === DISSOLVED) return Rank.NONE;
  const viaHeader = ctx.caller.groupId !== undefined && sameId(ctx.caller.groupId, g.id);
  const viewer = await reads.viewer;
  if (viewer === null) return viaHeader ? Rank.ADMIN : ctx.caller.groupId === undefined ? Rank.OWNER : Rank.NONE;
  const own = await ownRank(g, summary.owner, viewer, reads);
  // A user_id header is honoured only with an admin token, and so is the group_id header beside it.
  return ctx.caller.userId !== undefined && viaHeader ? (Math.max(own, Rank.ADMIN) as Rank) : own;
}

/**
 * The reads a rank may need, all started at once beside the summary: each needs only the group ID
 * and the caller. Needless for the owner and a backend token (the joined groups, the admin list):
 * speculative calls the cost estimate counts already (RANK), made once per request and group.
 */
function startRankReads(id: Int64, ctx: GatewayContext) {
  return {
    viewer: startedRead(ctx, provenCaller(ctx)),
    joined: startedRead(ctx, ctx.rest.call('GET /group/user_joined', {})),
    admins: startedRead(ctx, ctx.rest.call('GET /group/admin_list', { group_id: id })),
  };
}

async function ownRank(g: GroupParent, owner: Int64, viewer: Int64, reads: ReturnType<typeof startRankReads>): Promise<Rank> {
  if (sameId(owner, viewer)) return Rank.OWNER;
  if (!(await reads.joined).data.some((id) => sameId(id, g.id))) return Rank.NONE;
  return (await reads.admins).data.some((a) => sameId(a.user_id, viewer)) ? Rank.ADMIN : Rank.MEMBER;
}

/** The group's settings record, started beside the rank (needless for an admin or a non-member). */
const startSettings = (g: GroupParent, ctx: GatewayContext) => startedRead(ctx, recordOf(g, ctx, 'GET /group/settings'));

/** A member's right that a switch of the group (GET /group/settings) may give plain members. */
async function memberMay(g: GroupParent, ctx: GatewayContext, switched: 'member_invite' | 'member_modify') {
  const settings = startSettings(g, ctx);
  const rank = await viewerRank(g, ctx);
  if (rank >= Rank.ADMIN) return true;
  return rank === Rank.MEMBER && (await settings)[switched];
}

// group(id:) starts them beside the group's existence check.
for (const flag of ['viewerCanAdminister', 'viewerCanKick'])
  startsAhead<Int64>(GroupRef, flag, (id, ctx) => startRankReads(id, ctx).viewer);
for (const flag of ['viewerCanUpdate', 'viewerCanInvite']) {
  startsAhead<Int64>(GroupRef, flag, (id, ctx) => {
    startRankReads(id, ctx);
    return startSettings({ id }, ctx);
  });
}

const RANK = reaches('POST /group/info/batch', 'GET /user/profile', 'GET /group/user_joined', 'GET /group/admin_list');
const RANK_AND_SETTINGS = reaches(
  'POST /group/info/batch',
  'GET /user/profile',
  'GET /group/user_joined',
  'GET /group/admin_list',
  'GET /group/settings',
);
const COST =
  "Reads the group summary, the caller's profile and joined groups, and (for a member) the admin list: each once per request, " +
  'shared by all flags and groups.';

builder.objectFields(GroupRef, (t) => ({
  viewerCanAdminister: t.boolean({
    nullable: false,
    description: `Whether the caller is the owner or an admin: may change the settings, handle applications, ban and unban. ${COST}`,
    extensions: RANK,
    resolve: async (g, _a, ctx) => (await viewerRank(g, ctx)) >= Rank.ADMIN,
  }),
  viewerCanKick: t.boolean({
    nullable: false,
    description:
      'Whether the caller may remove members (kickGroupMembers, blockGroupUsers): admins remove members, the owner admins too; ' +
      `nobody removes the owner. ${COST}`,
    extensions: RANK,
    resolve: async (g, _a, ctx) => (await viewerRank(g, ctx)) >= Rank.ADMIN,
  }),
  viewerCanUpdate: t.boolean({
    nullable: false,
    description:
      "Whether the caller may change the group's name, avatar, description and ext (updateGroup): the owner and admins, or a " +
      `member when memberModify is on (the other settings need viewerCanAdminister). ${COST} A member's flag also reads GET /group/settings.`,
    extensions: RANK_AND_SETTINGS,
    resolve: (g, _a, ctx) => memberMay(g, ctx, 'member_modify'),
  }),
  viewerCanInvite: t.boolean({
    nullable: false,
    description: `Whether the caller may invite users (inviteToGroup): the owner and admins, or a member when memberInvite is on. ${COST} A member's flag also reads GET /group/settings.`,
    extensions: RANK_AND_SETTINGS,
    resolve: (g, _a, ctx) => memberMay(g, ctx, 'member_invite'),
  }),
}));
