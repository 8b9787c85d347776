// Members of a group: the Member type, the group's member and admin lists, members by user ID
// (POST /group/members/display_name, one call per group per request), and the mutations on
// members and roles: display name, admins, kick, leave, transfer.
import type { GatewayContext } from '../../context';
import { idText, type Int64 } from '../../rest/json';
import type * as R from '../../rest/records';
import { builder, reaches } from '../core/builder';
import { connectionOf, type PageArgs, pageArgs } from '../core/connection';
import { wholeListField } from '../core/keyset';
import { toConnection, toPaging } from '../core/service-paging';
import {
  GroupUserPayloadRef,
  idList,
  msOrNull,
  okOf,
  payloadGroupField,
  type GroupChange,
  GROUP_ID,
  GroupPayloadRef,
  GroupUsersPayloadRef,
  withFields,
} from './common';
import type { EndpointName } from '../../rest/endpoints';
import { fromResult, mutation, payloadType } from '../core/mutation';
import { groupMembersById, groupSummary, primeMembers, summaryOf } from './loaders';
import { MemberRole } from './enums';
import { GroupRef, type GroupParent, NodeRef, UserRef } from '../core/refs';
import { userIdOf } from '../core/profile';
import { cacheIdField } from '../core/cache-id';
import { fetchableNode } from '../core/node-kinds';
import { selectsDeep } from '../core/selection';
import { startedRead, startNestedReads, startsAhead } from '../core/speculative';
import { idInput, idListInput } from '../core/id-kinds';

/** A member record with the group it was read through: the record itself does not name its group. */
interface MemberParent {
  group: GroupParent;
  record: R.Member;
}

const memberOf =
  (group: GroupParent) =>
  (record: R.Member): MemberParent => ({ group, record });

/**
 * Whether the service blanked the member's details for the caller (hide_member_info): join_time 0,
 * which no real member has, with display_name '' (NOTES.md, 4.54). No read of the setting needed.
 */
const detailsHidden = (r: R.Member) => Number(r.join_time ?? 0) <= 0 && !r.display_name;

const MemberRef = builder.objectRef<MemberParent>('Member').implement({
  description: 'A member of a group.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: cacheIdField(t, 'Member', 'group ID and user ID', (m) => [m.group.id, m.record.user_id]),
    userId: t.field({ type: 'ID', nullable: false, description: 'User ID of the member.', resolve: (m) => m.record.user_id }),
    user: t.field({ type: UserRef, description: 'The member as a user.', resolve: (m) => ({ id: m.record.user_id }) }),
    role: t.field({
      type: MemberRole,
      description:
        'Owner, admin or member: from the group summary (owner) and the admin list, each read once per request. Null when ' +
        "the group hides members' details from the caller (Group.hideMemberInfo, for members below admin): a rank is a detail.",
      extensions: reaches('POST /group/info/batch', 'GET /group/admin_list'),
      resolve: async ({ group, record }, _a, ctx) => {
        if (detailsHidden(record)) return null;
        const userId = idText(record.user_id);
        // Beside the summary, not after it: needless only for the owner, and read once per request.
        const admins = startedAdmins(group.id, ctx);
        if (idText((await summaryOf(group, ctx)).owner) === userId) return 'OWNER' as const;
        return (await admins).data.some((a) => idText(a.user_id) === userId) ? ('ADMIN' as const) : ('MEMBER' as const);
      },
    }),
    displayName: t.string({
      description:
        "The member's display name in the group (member profile); null when the group hides members' details from the caller " +
        '(Group.hideMemberInfo, for members below admin).',
      resolve: (m) => (detailsHidden(m.record) ? null : m.record.display_name),
    }),
    joinedAt: t.field({
      type: 'DateTime',
      description: "When the member joined; null when the group hides members' details from the caller (Group.hideMemberInfo).",
      resolve: (m) => msOrNull(m.record.join_time),
    }),
    bannedUntil: t.field({
      type: 'DateTime',
      description: 'When the ban on sending ends; null when never banned or unbanned. A past time: the ban is over.',
      resolve: (m) => msOrNull(m.record.expired_time),
    }),
  }),
});

/** The group's admin list (the request's memo shares it), started now. */
const startedAdmins = (id: Int64, ctx: GatewayContext) => startedRead(ctx, ctx.rest.call('GET /group/admin_list', { group_id: id }));

/** The member of the group with this user ID; null when the user is not a member. */
async function memberByUserId(ctx: GatewayContext, group: GroupParent, userId: Int64): Promise<MemberParent | null> {
  const record = await groupMembersById(ctx).load({ groupId: group.id, userId });
  return record && { group, record };
}

// node(id:): as Group.member(userId:) reads it; null for a user who is not a member, or a missing group.
fetchableNode('Member', ([groupId, userId], ctx) => memberByUserId(ctx, { id: groupId! }, userId!));
// The reads of the member's role, when asked (summary, admin list), start beside the member's
// record: needless only for a user who is not a member.
startsAhead<readonly Int64[]>(MemberRef, 'role', ([groupId], ctx) => {
  void startedRead(ctx, groupSummary(groupId!, ctx));
  return startedAdmins(groupId!, ctx);
});

// The member's user's reads, when its fields ask (its public profile: user/peers.ts says when),
// start beside the member's record too, as the global ID names the user: needless only for a user
// who is not a member.
startsAhead<readonly Int64[]>(MemberRef, 'user', ([, userId], ctx, field) => {
  startNestedReads(UserRef, { id: userId! }, ctx, field);
  return undefined;
});

export const MemberConnectionRef = connectionOf('Member', MemberRef, 'member');

const PAGE = 100;

/** The page of members `args` ask for, as read by the service (the request remembers the answer). */
export const readMemberPage = (
  ctx: GatewayContext,
  endpoint: 'GET /group/member_list' | 'GET /group/banned_list',
  groupId: Int64,
  args: PageArgs,
) => ctx.rest.call(endpoint, { group_id: groupId, ...toPaging(args, PAGE) });

const sameArgs = (a: PageArgs, b: PageArgs) => (a.first ?? null) === (b.first ?? null) && (a.after ?? null) === (b.after ?? null);

/** A page of members (member or banned list); the records answer later look-ups by user ID. */
export async function memberPage(
  ctx: GatewayContext,
  endpoint: 'GET /group/member_list' | 'GET /group/banned_list',
  group: GroupParent,
  args: PageArgs,
) {
  const handed = endpoint === 'GET /group/member_list' ? group.memberPage : undefined;
  const reply = handed && sameArgs(handed.args, args) ? handed.reply : await readMemberPage(ctx, endpoint, group.id, args);
  primeMembers(ctx, group.id, reply.data);
  return toConnection(reply, args, { defaultFirst: PAGE, id: (m) => idText(m.user_id), map: memberOf(group) });
}

// group(id:) starts the page beside the group's existence check, and the admin list when the page shows roles.
startsAhead<Int64>(GroupRef, 'members', (id, ctx, { args, node, info }) => {
  if (selectsDeep(info, node, 'role')) void startedAdmins(id, ctx);
  return readMemberPage(ctx, 'GET /group/member_list', id, args);
});

builder.objectFields(GroupRef, (t) => ({
  members: t.field({
    type: MemberConnectionRef,
    nullable: false,
    description: 'Members of the group, the owner first.',
    extensions: reaches('GET /group/member_list'),
    args: pageArgs(PAGE),
    resolve: (g, args, ctx) => memberPage(ctx, 'GET /group/member_list', g, args),
  }),
  admins: wholeListField(t, {
    type: MemberConnectionRef,
    description: 'Admins of the group (the owner is ownerId), in the order they joined the group.',
    endpoint: 'GET /group/admin_list',
    defaultFirst: PAGE,
    // In the order they joined the group (the service's); a cursor names an admin and that time.
    key: (m) => ({ sort: Number(m.record.join_time), id: idText(m.record.user_id) }),
    order: 'ascending',
    read: async (g, ctx) => {
      const admins = (await ctx.rest.call('GET /group/admin_list', { group_id: g.id })).data;
      primeMembers(ctx, g.id, admins);
      return admins.map(memberOf(g));
    },
  }),
  member: t.field({
    type: MemberRef,
    description: 'The member with this user ID; null when the user is not a member.',
    extensions: reaches('POST /group/members/display_name'),
    args: { userId: t.arg(idInput({ for: 'User', required: true, description: 'User ID.' })) },
    resolve: (g, args, ctx) => memberByUserId(ctx, g, args.userId),
  }),
  membersByIds: t.field({
    type: [MemberRef],
    description: 'The members among these users, in the order given; users who are not members are left out.',
    extensions: reaches('POST /group/members/display_name'),
    args: { userIds: t.arg(idListInput({ for: 'User', required: true, description: 'User IDs.' })) },
    resolve: async (g, args, ctx) => {
      if (args.userIds.length === 0) return [];
      const ids = idList('userIds', args.userIds);
      const found = await groupMembersById(ctx).loadMany(ids.map((userId) => ({ groupId: g.id, userId })));
      const failed = found.find((m) => m instanceof Error);
      if (failed) throw failed;
      return found.filter((m): m is R.Member => m !== null && !(m instanceof Error)).map(memberOf(g));
    },
  }),
}));

// ---- mutations ----

const GroupMemberPayloadRef = payloadType<GroupChange & { groupId: Int64 }>('GroupMemberPayload', {
  description: "The outcome of a change to the acting user's own membership.",
  ok: (c) => c.ok,
  fields: (t) => ({
    group: t.field(payloadGroupField()),
    member: t.field({
      type: MemberRef,
      description: 'The acting member as it is now (read only when selected).',
      extensions: reaches('GET /user/profile', 'POST /group/members/display_name'),
      resolve: fromResult(async (c, ctx) => {
        // A user_id header counts only with an admin token, so the profile says who is acting.
        return memberByUserId(ctx, { id: c.groupId }, await userIdOf({}, ctx));
      }),
    }),
  }),
});

mutation('setGroupDisplayName', {
  description: "Set the acting member's display name in the group (member profile).",
  endpoints: ['PUT /group/display_name'],
  payload: GroupMemberPayloadRef,
  inputDescription: 'The group and the display name.',
  input: (t) => ({
    groupId: t.field(idInput({ for: 'Group', required: true, description: GROUP_ID })),
    displayName: t.string({ required: true, description: 'The display name.' }),
  }),
  resolve: async (input, ctx) => {
    const reply = await ctx.rest.call('PUT /group/display_name', { group_id: input.groupId, value: input.displayName });
    return { ok: okOf(reply.data), groupId: input.groupId };
  },
});

/** The batch writes on users of one group (body group_id + user_list), here and in moderation.ts. */
export function defineUserListMutations(
  list: readonly (readonly [
    name: string,
    endpoint: UserListEndpoint,
    description: string,
    usersDescription: string,
    /**
     * What happens to the users it succeeded for: they leave the group (kick, block: removedUserIds),
     * or their blacklist entries go (unblock: removedBlockedMemberIds).
     */
    effect?: 'removes' | 'unblocks',
  ])[],
): void {
  for (const [name, endpoint, description, usersDescription, effect] of list) {
    mutation(name, {
      description,
      endpoints: [endpoint],
      payload: GroupUsersPayloadRef,
      inputDescription: 'The group and the users.',
      input: (t) => ({
        groupId: t.field(idInput({ for: 'Group', required: true, description: GROUP_ID })),
        userIds: t.field(idListInput({ for: 'User', required: true, description: usersDescription })),
      }),
      resolve: async (input, ctx) => {
        const userList = idList('input.userIds', input.userIds);
        const reply = await ctx.rest.call(endpoint, { group_id: input.groupId, user_list: userList });
        const results = withFields(reply.data, userList, ['input', 'userIds']);
        const succeeded = results.filter((r) => r.result === 'success').map((r) => r.user_id);
        const removed = effect === 'removes' ? succeeded : [];
        return { groupId: input.groupId, results, removed: () => removed, unblocked: effect === 'unblocks' ? succeeded : [] };
      },
    });
  }
}

type UserListEndpoint = Extract<
  EndpointName,
  | 'POST /group/admin/add'
  | 'DELETE /group/admin/remove'
  | 'DELETE /group/kick'
  | 'POST /group/unban'
  | 'POST /group/block'
  | 'DELETE /group/unblock'
>;

defineUserListMutations([
  ['addGroupAdmins', 'POST /group/admin/add', 'Make members admins (owner).', 'Members to promote.'],
  ['removeGroupAdmins', 'DELETE /group/admin/remove', 'Take the admin role from admins (owner).', 'Admins to demote.'],
  [
    'kickGroupMembers',
    'DELETE /group/kick',
    'Remove members from the group (admins; only the owner removes admins).',
    'Members to remove.',
    'removes',
  ],
]);

mutation('leaveGroup', {
  description: 'Leave a group as the acting user. The owner cannot leave (userError OWNER_CANNOT_LEAVE): transfer the group first.',
  endpoints: ['DELETE /group/leave'],
  payload: GroupPayloadRef,
  id: { name: 'groupId', for: 'Group', description: GROUP_ID },
  resolve: async (groupId, ctx) => ({
    ok: okOf((await ctx.rest.call('DELETE /group/leave', { group_id: groupId })).data),
    groupId,
    // The acting user's ID, read (GET /user/profile) only when removedUserIds or removedMemberIds is selected.
    removed: async () => [await userIdOf({}, ctx)],
  }),
});

mutation('transferGroup', {
  description: 'Transfer ownership to a member (owner). A new owner who is not a member is a userError NOT_A_MEMBER.',
  endpoints: ['PUT /group/transfer'],
  payload: GroupUserPayloadRef,
  refusals: { 20005: { field: ['input', 'newOwnerId'] } },
  inputDescription: 'The group and its new owner.',
  input: (t) => ({
    groupId: t.field(idInput({ for: 'Group', required: true, description: GROUP_ID })),
    newOwnerId: t.field(idInput({ for: 'User', required: true, description: 'User ID of the new owner.' })),
  }),
  resolve: async (input, ctx) => {
    const reply = await ctx.rest.call('PUT /group/transfer', { group_id: input.groupId, new_owner: input.newOwnerId });
    return { groupId: input.groupId, result: { ...reply.data, field: ['input', 'newOwnerId'] } };
  },
});
