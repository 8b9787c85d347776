// Moderation: member bans, the group-wide ban and the blacklist. The banned and blocked lists,
// and the mutations that change them (admins; only the owner acts on admins).
import type { Int64 } from '../../rest/json';
import type * as R from '../../rest/records';
import { builder, reaches } from '../core/builder';
import { connectionOf, pageArgs } from '../core/connection';
import { toConnection, toPaging } from '../core/service-paging';
import { fromResult, mutation, payloadType } from '../core/mutation';
import {
  GROUP_ID,
  GroupPayloadRef,
  GroupUsersPayloadRef,
  groupBan,
  idList,
  okOf,
  payloadGroupField,
  timeFromString,
  withFields,
} from './common';
import { inRange } from '../core/inputs';
import { defineUserListMutations, MemberConnectionRef, memberPage } from './member';
import { GroupRef, NodeRef, UserRef } from '../core/refs';
import { cacheIdField } from '../core/cache-id';
import { fetchableNode } from '../core/node-kinds';
import { sameId } from '../../rest/json';
import { findListed } from './loaders';
import { idInput, idListInput } from '../core/id-kinds';

const PAGE = 100;

const BlockedMemberRef = builder.objectRef<R.BlacklistEntry>('BlockedMember').implement({
  description: "A user on a group's blacklist: kept out of the group.",
  interfaces: [NodeRef],
  fields: (t) => ({
    id: cacheIdField(t, 'BlockedMember', 'group ID and user ID', (e) => [e.group_id, e.user_id]),
    userId: t.field({ type: 'ID', nullable: false, description: 'User ID.', resolve: (e) => e.user_id }),
    user: t.field({ type: UserRef, description: 'The user.', resolve: (e) => ({ id: e.user_id }) }),
    blockedAt: t.field({
      type: 'DateTime',
      description: 'When the user was put on the blacklist.',
      resolve: (e) => timeFromString(e.created_at),
    }),
  }),
});

// node(id:): the user's entry of the blacklist (admins), as Group.blockedUsers lists it; null once unblocked.
fetchableNode('BlockedMember', ([groupId, userId], ctx) =>
  findListed(
    (paging) => ctx.rest.call('GET /group/blocked_list', { group_id: groupId!, ...paging }),
    (e) => sameId(e.user_id, userId!),
  ),
);

const BlockedMemberConnectionRef = connectionOf('BlockedMember', BlockedMemberRef, 'blocked user');

builder.objectFields(GroupRef, (t) => ({
  bannedMembers: t.field({
    type: MemberConnectionRef,
    nullable: false,
    description: 'Members banned from sending, with bannedUntil.',
    extensions: reaches('GET /group/banned_list'),
    args: pageArgs(PAGE),
    resolve: (g, args, ctx) => memberPage(ctx, 'GET /group/banned_list', g, args),
  }),
  blockedUsers: t.field({
    type: BlockedMemberConnectionRef,
    nullable: false,
    description: 'The blacklist of the group (admins).',
    extensions: reaches('GET /group/blocked_list'),
    args: pageArgs(PAGE),
    resolve: async (g, args, ctx) =>
      toConnection(await ctx.rest.call('GET /group/blocked_list', { group_id: g.id, ...toPaging(args, PAGE) }), args, {
        defaultFirst: PAGE,
        id: (e) => String(e.user_id),
        map: (e) => e,
      }),
  }),
}));

// ---- mutations ----

/** Ban durations are whole minutes; an Int bounds them (about 4,000 years). */
const minutes = (value: number) => inRange('input.durationMinutes', value, 1, 2 ** 31 - 1);

const DURATION = 'How long the ban lasts, in minutes (at least 1).';

const BanAllGroupMembersPayloadRef = payloadType<{ groupId: Int64; banExpireTime: Int64 }>('BanAllGroupMembersPayload', {
  description: 'The outcome of a group-wide ban.',
  fields: (t) => ({
    bannedForAll: t.boolean({
      description: 'Whether only admins may send now.',
      resolve: fromResult((p) => groupBan(p.banExpireTime).active),
    }),
    banExpiresAt: t.field({
      type: 'DateTime',
      description: 'When the ban ends; null when it is permanent.',
      resolve: fromResult((p) => groupBan(p.banExpireTime).expiresAt),
    }),
    group: t.field(payloadGroupField()),
  }),
});

mutation('banGroupMembers', {
  description: 'Ban members from sending for a number of minutes (admins; only the owner bans admins).',
  endpoints: ['POST /group/ban'],
  payload: GroupUsersPayloadRef,
  inputDescription: 'Members to ban from sending, and for how long.',
  input: (t) => ({
    groupId: t.field(idInput({ for: 'Group', required: true, description: GROUP_ID })),
    userIds: t.field(idListInput({ for: 'User', required: true, description: 'Members to ban.' })),
    durationMinutes: t.int({ required: true, description: DURATION }),
  }),
  resolve: async (input, ctx) => {
    const userList = idList('input.userIds', input.userIds);
    const duration = minutes(input.durationMinutes);
    const reply = await ctx.rest.call('POST /group/ban', { group_id: input.groupId, user_list: userList, duration });
    return { groupId: input.groupId, results: withFields(reply.data, userList, ['input', 'userIds']) };
  },
});

mutation('banAllGroupMembers', {
  description: 'Let only admins send in the group for a number of minutes.',
  endpoints: ['POST /group/settings/ban_all'],
  payload: BanAllGroupMembersPayloadRef,
  inputDescription: 'The group and how long the ban lasts.',
  input: (t) => ({
    groupId: t.field(idInput({ for: 'Group', required: true, description: GROUP_ID })),
    durationMinutes: t.int({ required: true, description: DURATION }),
  }),
  resolve: async (input, ctx) => {
    const duration = minutes(input.durationMinutes);
    const reply = await ctx.rest.call('POST /group/settings/ban_all', { group_id: input.groupId, duration });
    return { groupId: input.groupId, banExpireTime: reply.data.ban_expire_time };
  },
});

defineUserListMutations([
  ['unbanGroupMembers', 'POST /group/unban', 'Lift the bans of members (admins).', 'Members to unban.'],
  [
    'blockGroupUsers',
    'POST /group/block',
    'Put users on the group blacklist (admins): members among them are removed, and none can join again until unblocked.',
    'Users to block.',
    'removes',
  ],
  [
    'unblockGroupUsers',
    'DELETE /group/unblock',
    'Take users off the group blacklist (admins). The payload names the entries removed in removedBlockedMemberIds.',
    'Users to unblock.',
    'unblocks',
  ],
]);

mutation('unbanAllGroupMembers', {
  description: 'End the group-wide ban (admins).',
  endpoints: ['POST /group/settings/unban_all'],
  payload: GroupPayloadRef,
  id: { name: 'groupId', for: 'Group', description: GROUP_ID },
  resolve: async (groupId, ctx) => ({
    ok: okOf((await ctx.rest.call('POST /group/settings/unban_all', { group_id: groupId })).data),
    groupId,
  }),
});
