// Members of a group: the Member type, the group's member and admin lists, members by user ID
// (POST /group/members/display_name, one call per group per request), and the mutations on
// members and roles: display name, admins, kick, leave, transfer.
import type { GatewayContext } from '../../context';
import type { Int64 } from '../../rest/json';
import type * as R from '../../rest/records';
import { builder, reaches } from '../core/builder';
import { connectionOf, listConnection, pageArgs, toConnection, toPaging } from '../core/connection';
import { GroupUserPayloadRef, groupIdArg, groupMutation, idList, msOrNull, okOf, payloadGroupField, userListMutation } from './common';
import { groupMembersById, memberGroup, primeMembers, summaryOf } from './loaders';
import { MemberRole } from './enums';
import { GroupRef, UserRef } from '../core/refs';
import { profileOf } from '../user/user';

export const MemberRef = builder.objectRef<R.Member>('Member').implement({
  description: 'A member of a group.',
  fields: (t) => ({
    userId: t.field({ type: 'ID', nullable: false, description: 'User ID of the member.', resolve: (m) => m.user_id }),
    user: t.field({ type: UserRef, description: 'The member as a user.', resolve: (m) => ({ id: m.user_id }) }),
    role: t.field({
      type: MemberRole,
      description: 'Owner, admin or member: from the group summary (owner) and the admin list, each read once per request.',
      extensions: reaches('POST /group/info/batch', 'GET /group/admin_list'),
      resolve: async (m, _a, ctx) => {
        const groupId = memberGroup(m);
        if (groupId === undefined) return null;
        if (String((await summaryOf({ id: groupId }, ctx)).owner) === String(m.user_id)) return 'OWNER' as const;
        const admins = (await ctx.rest.call('GET /group/admin_list', { group_id: groupId })).data;
        return admins.some((a) => String(a.user_id) === String(m.user_id)) ? ('ADMIN' as const) : ('MEMBER' as const);
      },
    }),
    displayName: t.exposeString('display_name', { description: "The member's display name in the group (member profile)." }),
    joinedAt: t.field({ type: 'DateTime', description: 'When the member joined.', resolve: (m) => msOrNull(m.join_time) }),
    bannedUntil: t.field({
      type: 'DateTime',
      description: 'When the ban on sending ends; null when never banned or unbanned. A past time: the ban is over.',
      resolve: (m) => msOrNull(m.expired_time),
    }),
  }),
});

export const MemberConnectionRef = connectionOf('Member', MemberRef, 'member');

const PAGE = 100;

/** A page of members (member or banned list); the records answer later look-ups by user ID. */
export async function memberPage(
  ctx: GatewayContext,
  endpoint: 'GET /group/member_list' | 'GET /group/banned_list',
  groupId: Int64,
  args: { first?: number | null; after?: string | null },
) {
  const reply = await ctx.rest.call(endpoint, { group_id: groupId, ...toPaging(args, PAGE) });
  primeMembers(ctx, groupId, reply.data);
  return toConnection(reply, args, (m) => m);
}

builder.objectFields(GroupRef, (t) => ({
  members: t.field({
    type: MemberConnectionRef,
    description: 'Members of the group, the owner first.',
    extensions: reaches('GET /group/member_list'),
    args: pageArgs(PAGE),
    resolve: (g, args, ctx) => memberPage(ctx, 'GET /group/member_list', g.id, args),
  }),
  admins: t.field({
    type: MemberConnectionRef,
    description: 'Admins of the group (the owner is ownerId). The service answers all of them at once; the gateway pages them.',
    extensions: reaches('GET /group/admin_list'),
    args: pageArgs(PAGE),
    resolve: async (g, args, ctx) => {
      const admins = (await ctx.rest.call('GET /group/admin_list', { group_id: g.id })).data;
      primeMembers(ctx, g.id, admins);
      return listConnection(admins, args, PAGE);
    },
  }),
  member: t.field({
    type: MemberRef,
    description: 'The member with this user ID; null when the user is not a member.',
    extensions: reaches('POST /group/members/display_name'),
    args: { userId: t.arg({ type: 'ID', required: true, description: 'User ID.' }) },
    resolve: (g, args, ctx) => groupMembersById(ctx).load({ groupId: g.id, userId: args.userId }),
  }),
  membersByIds: t.field({
    type: [MemberRef],
    description: 'The members among these users, in the order given; users who are not members are left out.',
    extensions: reaches('POST /group/members/display_name'),
    args: { userIds: t.arg({ type: ['ID'], required: true, description: 'User IDs.' }) },
    resolve: async (g, args, ctx) => {
      if (args.userIds.length === 0) return [];
      const ids = idList('userIds', args.userIds);
      const found = await groupMembersById(ctx).loadMany(ids.map((userId) => ({ groupId: g.id, userId })));
      const failed = found.find((m) => m instanceof Error);
      if (failed) throw failed;
      return found.filter((m): m is R.Member => m !== null && !(m instanceof Error));
    },
  }),
}));

// ---- mutations ----

const GroupMemberPayloadRef = builder.objectRef<{ ok: boolean; groupId: Int64 }>('GroupMemberPayload').implement({
  description: "The outcome of a change to the acting user's own membership.",
  fields: (t) => ({
    ok: t.exposeBoolean('ok', { nullable: false, description: 'Whether the service made the change.' }),
    group: t.field(payloadGroupField()),
    member: t.field({
      type: MemberRef,
      description: 'The acting member as it is now (read only when selected).',
      extensions: reaches('GET /user/profile', 'POST /group/members/display_name'),
      resolve: async (p, _args, ctx) => {
        // A user_id header counts only with an admin token, so the profile says who is acting.
        const userId = (await profileOf({}, ctx)).user_id;
        return groupMembersById(ctx).load({ groupId: p.groupId, userId });
      },
    }),
  }),
});

builder.mutationField('setGroupDisplayName', (t) =>
  t.field({
    type: GroupMemberPayloadRef,
    description: "Set the acting member's display name in the group (member profile).",
    extensions: reaches('PUT /group/display_name'),
    args: {
      groupId: groupIdArg(t.arg),
      displayName: t.arg.string({ required: true, description: 'The display name.' }),
    },
    resolve: async (_root, args, ctx) => {
      const reply = await ctx.rest.call('PUT /group/display_name', { group_id: args.groupId, value: args.displayName });
      return { ok: okOf(reply.data), groupId: args.groupId };
    },
  }),
);

userListMutation('addGroupAdmins', 'POST /group/admin/add', 'Make members admins (owner).', 'Members to promote.');
userListMutation('removeGroupAdmins', 'DELETE /group/admin/remove', 'Take the admin role from admins (owner).', 'Admins to demote.');
userListMutation('kickGroupMembers', 'DELETE /group/kick', 'Remove members from the group (admins; only the owner removes admins).', 'Members to remove.');

groupMutation('leaveGroup', {
  description: 'Leave a group as the acting user (the owner must transfer it first).',
  endpoint: 'DELETE /group/leave',
  args: () => ({}),
  write: (rest, groupId) => rest.call('DELETE /group/leave', { group_id: groupId }),
});

builder.mutationField('transferGroup', (t) =>
  t.field({
    type: GroupUserPayloadRef,
    description: 'Transfer ownership to a member (owner).',
    extensions: reaches('PUT /group/transfer'),
    args: {
      groupId: groupIdArg(t.arg),
      newOwnerId: t.arg({ type: 'ID', required: true, description: 'User ID of the new owner.' }),
    },
    resolve: async (_root, args, ctx) => {
      const reply = await ctx.rest.call('PUT /group/transfer', { group_id: args.groupId, new_owner: args.newOwnerId });
      return { groupId: args.groupId, result: reply.data };
    },
  }),
);
