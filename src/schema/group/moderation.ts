// Moderation: member bans, the group-wide ban and the blacklist. The banned and blocked lists,
// and the mutations that change them (admins; only the owner acts on admins).
import type { Int64 } from '../../rest/json';
import type * as R from '../../rest/records';
import { builder, reaches } from '../core/builder';
import { connectionOf, pageArgs, toConnection, toPaging } from '../core/connection';
import {
  GroupUsersPayloadRef,
  groupBan,
  groupIdArg,
  groupMutation,
  idList,
  payloadGroupField,
  timeFromString,
  userListMutation,
} from './common';
import { inRange } from '../core/inputs';
import { MemberConnectionRef, memberPage } from './member';
import { GroupRef, UserRef } from '../core/refs';

const PAGE = 100;

const BlockedMemberRef = builder.objectRef<R.BlacklistEntry>('BlockedMember').implement({
  description: "A user on a group's blacklist: kept out of the group.",
  fields: (t) => ({
    userId: t.field({ type: 'ID', nullable: false, description: 'User ID.', resolve: (e) => e.user_id }),
    user: t.field({ type: UserRef, description: 'The user.', resolve: (e) => ({ id: e.user_id }) }),
    blockedAt: t.field({ type: 'DateTime', description: 'When the user was put on the blacklist.', resolve: (e) => timeFromString(e.created_at) }),
  }),
});

const BlockedMemberConnectionRef = connectionOf('BlockedMember', BlockedMemberRef, 'blocked user');

builder.objectFields(GroupRef, (t) => ({
  bannedMembers: t.field({
    type: MemberConnectionRef,
    description: 'Members banned from sending, with bannedUntil.',
    extensions: reaches('GET /group/banned_list'),
    args: pageArgs(PAGE),
    resolve: (g, args, ctx) => memberPage(ctx, 'GET /group/banned_list', g.id, args),
  }),
  blockedUsers: t.field({
    type: BlockedMemberConnectionRef,
    description: 'The blacklist of the group (admins).',
    extensions: reaches('GET /group/blocked_list'),
    args: pageArgs(PAGE),
    resolve: async (g, args, ctx) =>
      toConnection(await ctx.rest.call('GET /group/blocked_list', { group_id: g.id, ...toPaging(args, PAGE) }), args, (e) => e),
  }),
}));

// ---- mutations ----

/** Ban durations are whole minutes; an Int bounds them (about 4,000 years). */
const minutes = (value: number) => inRange('durationMinutes', value, 1, 2 ** 31 - 1);

const durationArg = {
  type: 'Int',
  required: true,
  description: 'How long the ban lasts, in minutes (at least 1).',
} as const;

const BanGroupMembersInput = builder.inputType('BanGroupMembersInput', {
  description: 'Members to ban from sending, and for how long.',
  fields: (t) => ({
    groupId: t.field({ type: 'ID', required: true, description: 'Group ID.' }),
    userIds: t.field({ type: ['ID'], required: true, description: 'Members to ban.' }),
    durationMinutes: t.field(durationArg),
  }),
});

const BanAllGroupMembersPayloadRef = builder
  .objectRef<{ groupId: Int64; banExpireTime: Int64 }>('BanAllGroupMembersPayload')
  .implement({
    description: 'The outcome of a group-wide ban.',
    fields: (t) => ({
      ok: t.boolean({ nullable: false, description: 'Whether the service made the change.', resolve: () => true }),
      bannedForAll: t.boolean({ description: 'Whether only admins may send now.', resolve: (p) => groupBan(p.banExpireTime).active }),
      banExpiresAt: t.field({
        type: 'DateTime',
        description: 'When the ban ends; null when it is permanent.',
        resolve: (p) => groupBan(p.banExpireTime).expiresAt,
      }),
      group: t.field(payloadGroupField()),
    }),
  });

builder.mutationFields((t) => ({
  banGroupMembers: t.field({
    type: GroupUsersPayloadRef,
    description: 'Ban members from sending for a number of minutes (admins; only the owner bans admins).',
    extensions: reaches('POST /group/ban'),
    args: { input: t.arg({ type: BanGroupMembersInput, required: true, description: 'The members and the duration.' }) },
    resolve: async (_root, { input }, ctx) => {
      const userList = idList('userIds', input.userIds);
      const duration = minutes(input.durationMinutes);
      const reply = await ctx.rest.call('POST /group/ban', { group_id: input.groupId, user_list: userList, duration });
      return { groupId: input.groupId, results: reply.data };
    },
  }),
  banAllGroupMembers: t.field({
    type: BanAllGroupMembersPayloadRef,
    description: 'Let only admins send in the group for a number of minutes.',
    extensions: reaches('POST /group/settings/ban_all'),
    args: { groupId: groupIdArg(t.arg), durationMinutes: t.arg(durationArg) },
    resolve: async (_root, args, ctx) => {
      const duration = minutes(args.durationMinutes);
      const reply = await ctx.rest.call('POST /group/settings/ban_all', { group_id: args.groupId, duration });
      return { groupId: args.groupId, banExpireTime: reply.data.ban_expire_time };
    },
  }),
}));

userListMutation('unbanGroupMembers', 'POST /group/unban', 'Lift the bans of members (admins).', 'Members to unban.');
userListMutation(
  'blockGroupUsers',
  'POST /group/block',
  'Put users on the group blacklist (admins): members among them are removed, and none can join again until unblocked.',
  'Users to block.',
);
userListMutation('unblockGroupUsers', 'DELETE /group/unblock', 'Take users off the group blacklist (admins).', 'Users to unblock.');

groupMutation('unbanAllGroupMembers', {
  description: 'End the group-wide ban (admins).',
  endpoint: 'POST /group/settings/unban_all',
  args: () => ({}),
  write: (rest, groupId) => rest.call('POST /group/settings/unban_all', { group_id: groupId }),
});
