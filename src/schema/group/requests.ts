// Ways into a group: membership applications, invitations and QR codes. Their types, the lists
// of them, and the mutations that make and answer them.
import type { GatewayContext } from '../../context';
import { type Int64, sameId } from '../../rest/json';
import type * as R from '../../rest/records';
import { builder, reaches } from '../core/builder';
import { nonBlank } from '../core/inputs';
import { mutation } from '../core/mutation';
import { recipientsIn } from '../core/fan-out';
import { connectionOf, pageArgs } from '../core/connection';
import { toConnection, toPaging } from '../core/service-paging';
import { RequestStatus } from './enums';
import {
  code,
  GroupPayloadRef,
  GroupUserPayloadRef,
  GroupUsersPayloadRef,
  GROUP_ID,
  idList,
  MAX_IDS,
  msOrNull,
  okOf,
  timeFromString,
  userUnlessBackend,
  withFields,
} from './common';
import { GroupRef, NodeRef, UserRef } from '../core/refs';
import { cacheIdField, joinedId } from '../core/cache-id';
import { fetchableNode } from '../core/node-kinds';
import { findListed } from './loaders';
import { idInput, idListInput } from '../core/id-kinds';

const PAGE = 100; // the service's default for applications and invitations (upstream notes)

const GroupApplicationRef = builder.objectRef<R.GroupApplication>('GroupApplication').implement({
  description: 'An application to join a group.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: cacheIdField(t, 'GroupApplication', 'group ID and applicant ID', (a) => [a.group_id, a.applicant_id]),
    applicantId: t.field({ type: 'ID', nullable: false, description: 'ID of the applicant.', resolve: (a) => a.applicant_id }),
    applicant: t.field({ type: UserRef, description: 'The applicant.', resolve: (a) => ({ id: a.applicant_id }) }),
    groupId: t.field({ type: 'ID', nullable: false, description: 'ID of the group.', resolve: (a) => a.group_id }),
    group: t.field({ type: GroupRef, nullable: false, description: 'The group.', resolve: (a) => ({ id: a.group_id }) }),
    reason: t.exposeString('reason', { description: 'Why the applicant wants to join.' }),
    status: t.field({ type: RequestStatus, description: 'Pending, agreed or rejected.', resolve: (a) => code(RequestStatus, a.status) }),
    expiresAt: t.field({ type: 'DateTime', description: 'When the application expires.', resolve: (a) => msOrNull(a.expired_time) }),
  }),
});

const GroupInvitationRef = builder.objectRef<R.GroupInvitation>('GroupInvitation').implement({
  description: 'An invitation to join a group.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: cacheIdField(t, 'GroupInvitation', 'group ID, inviter ID and invitee ID', (i) => [i.group_id, i.inviter_id, i.invitee_id]),
    groupId: t.field({ type: 'ID', nullable: false, description: 'ID of the group.', resolve: (i) => i.group_id }),
    group: t.field({ type: GroupRef, nullable: false, description: 'The group.', resolve: (i) => ({ id: i.group_id }) }),
    inviterId: t.field({
      type: 'ID',
      nullable: false,
      description: 'ID of the inviter (0: the app backend); pass it to handleGroupInvitation.',
      resolve: (i) => i.inviter_id,
    }),
    inviter: t.field({
      type: UserRef,
      description: 'The inviter; null when the app backend invited.',
      resolve: (i) => userUnlessBackend(i.inviter_id),
    }),
    inviteeId: t.field({ type: 'ID', nullable: false, description: 'ID of the invitee.', resolve: (i) => i.invitee_id }),
    invitee: t.field({ type: UserRef, description: 'The invitee.', resolve: (i) => ({ id: i.invitee_id }) }),
    reason: t.exposeString('reason', { description: 'Why the invitee is invited.' }),
    status: t.field({
      type: RequestStatus,
      description: 'Pending, agreed or rejected by the invitee.',
      resolve: (i) => code(RequestStatus, i.status),
    }),
    expiresAt: t.field({ type: 'DateTime', description: 'When the invitation expires.', resolve: (i) => msOrNull(i.expired_time) }),
    updatedAt: t.field({ type: 'DateTime', description: 'When it last changed.', resolve: (i) => timeFromString(i.updated_at) }),
  }),
});

// node(id:): the applicant's application as Group.applications lists it (admins), handled ones too,
// with their status; null when the service lists none.
fetchableNode('GroupApplication', ([groupId, applicantId], ctx) =>
  findListed(
    (paging) => ctx.rest.call('POST /group/application_list', { group_list: [groupId!], ...paging }),
    (a) => sameId(a.group_id, groupId!) && sameId(a.applicant_id, applicantId!),
  ),
);

// node(id:): an invitation the acting user received, as groupInvitations lists it; null for one
// the caller did not receive. A handled invitation stays listed beside a later one from the same
// inviter (the same global ID): the latest, the last of the oldest-first list, is the one meant.
fetchableNode('GroupInvitation', ([groupId, inviterId, inviteeId], ctx) =>
  findListed(
    (paging) => ctx.rest.call('GET /group/invitation_list', paging),
    (i) => sameId(i.group_id, groupId!) && sameId(i.inviter_id, inviterId!) && sameId(i.invitee_id, inviteeId!),
    'last',
  ),
);

const GroupQrCodeRef = builder.objectRef<R.GroupQrCode>('GroupQrCode').implement({
  description: 'A signed QR code invitation to a group.',
  fields: (t) => ({
    qrInfo: t.exposeString('qr_info', { nullable: false, description: 'The QR code content; pass it to joinGroupByQrCode.' }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was signed.', resolve: (q) => q.create_at }),
    expiresAt: t.field({ type: 'DateTime', description: 'When it expires.', resolve: (q) => q.expire_at }),
  }),
});

const GroupApplicationConnectionRef = connectionOf('GroupApplication', GroupApplicationRef, 'application');
const GroupInvitationConnectionRef = connectionOf('GroupInvitation', GroupInvitationRef, 'invitation');

async function applicationsOf(ctx: GatewayContext, groupIds: Int64[], args: { first?: number | null; after?: string | null }) {
  const reply = await ctx.rest.call('POST /group/application_list', { group_list: groupIds, ...toPaging(args, PAGE) });
  return toConnection(reply, args, { defaultFirst: PAGE, id: (a) => joinedId([a.group_id, a.applicant_id]), map: (a) => a });
}

builder.objectFields(GroupRef, (t) => ({
  applications: t.field({
    type: GroupApplicationConnectionRef,
    nullable: false,
    description: 'Membership applications of the group, handled ones too (admins).',
    extensions: reaches('POST /group/application_list'),
    args: pageArgs(PAGE),
    resolve: (g, args, ctx) => applicationsOf(ctx, [g.id], args),
  }),
  qrCode: t.field({
    type: GroupQrCodeRef,
    description: 'A newly signed QR code invitation to the group (admins, or members when memberInvite is on).',
    extensions: reaches('GET /group/qrcode/sign'),
    resolve: async (g, _args, ctx) => (await ctx.rest.call('GET /group/qrcode/sign', { group_id: g.id })).data,
  }),
}));

builder.queryFields((t) => ({
  groupApplications: t.field({
    type: GroupApplicationConnectionRef,
    nullable: false,
    description: 'Membership applications of several groups, each administered by the acting user.',
    extensions: reaches('POST /group/application_list'),
    args: { groupIds: t.arg(idListInput({ for: 'Group', required: true, description: 'Group IDs.' })), ...pageArgs(PAGE) },
    resolve: (_root, args, ctx) => applicationsOf(ctx, idList('groupIds', args.groupIds), args),
  }),
  groupInvitations: t.field({
    type: GroupInvitationConnectionRef,
    nullable: false,
    description: 'Group invitations the acting user received, handled ones too.',
    extensions: reaches('GET /group/invitation_list'),
    args: pageArgs(PAGE),
    resolve: async (_root, args, ctx) =>
      toConnection(await ctx.rest.call('GET /group/invitation_list', toPaging(args, PAGE)), args, {
        defaultFirst: PAGE,
        // A handled invitation stays listed beside a later one from the same inviter: the expiry tells them apart.
        id: (i) => joinedId([i.group_id, i.inviter_id, i.expired_time]),
        map: (i) => i,
      }),
  }),
}));

// ---- mutations ----

const HandleGroupApplicationInput = builder.inputType('HandleGroupApplicationInput', {
  description: 'An answer to a membership application.',
  fields: (t) => ({
    groupId: t.field(idInput({ for: 'Group', required: true, description: 'Group ID.' })),
    applicantId: t.field(idInput({ for: 'User', required: true, description: 'ID of the applicant.' })),
    approval: t.boolean({ required: true, description: 'true approves, false rejects.' }),
  }),
});

const InviteToGroupInput = builder.inputType('InviteToGroupInput', {
  description: 'Users to invite to a group.',
  fields: (t) => ({
    groupId: t.field(idInput({ for: 'Group', required: true, description: 'Group ID.' })),
    userIds: t.field(idListInput({ for: 'User', required: true, description: 'Users to invite.' })),
    reason: t.string({ required: false, description: 'Why they are invited.' }),
  }),
});

const HandleGroupInvitationInput = builder.inputType('HandleGroupInvitationInput', {
  description: "The acting user's answer to an invitation.",
  fields: (t) => ({
    groupId: t.field(idInput({ for: 'Group', required: true, description: 'Group ID.' })),
    inviterId: t.field(idInput({ for: 'User', required: true, description: 'ID of the inviter (inviterId of the invitation).' })),
    approval: t.boolean({ required: true, description: 'true accepts, false declines.' }),
  }),
});

mutation('applyToGroup', {
  description:
    "Apply to join a group as the acting user. By the group's applyApproval the user joins at once, the application waits for an admin, or it fails.",
  endpoints: ['POST /group/apply'],
  payload: GroupUserPayloadRef,
  inputDescription: 'The group and why the user wants to join.',
  input: (t) => ({
    groupId: t.field(idInput({ for: 'Group', required: true, description: GROUP_ID })),
    reason: t.string({ required: false, description: 'Why the user wants to join.' }),
  }),
  resolve: async (input, ctx) => {
    const reply = await ctx.rest.call('POST /group/apply', { group_id: input.groupId, reason: input.reason ?? undefined });
    return { groupId: input.groupId, result: { ...reply.data, field: ['input', 'groupId'] } };
  },
});

mutation('handleGroupApplication', {
  description: 'Approve or reject a pending membership application (admins).',
  endpoints: ['PUT /group/apply/handle'],
  payload: GroupUserPayloadRef,
  input: HandleGroupApplicationInput,
  resolve: async (input, ctx) => {
    const reply = await ctx.rest.call('PUT /group/apply/handle', {
      group_id: input.groupId,
      user_id: input.applicantId,
      approval: input.approval,
    });
    return { groupId: input.groupId, result: { ...reply.data, field: ['input', 'applicantId'] } };
  },
});

mutation('inviteToGroup', {
  description:
    'Invite users to a group (admins, or members when memberInvite is on). Each joins at once, or gets an invitation when their settings ask to confirm.',
  endpoints: ['POST /group/invite'],
  payload: GroupUsersPayloadRef,
  fanOut: { recipients: (input) => recipientsIn(input.userIds, MAX_IDS) },
  input: InviteToGroupInput,
  resolve: async (input, ctx) => {
    const userList = idList('input.userIds', input.userIds);
    const reply = await ctx.rest.call('POST /group/invite', {
      group_id: input.groupId,
      user_list: userList,
      reason: input.reason ?? undefined,
    });
    return { groupId: input.groupId, results: withFields(reply.data, userList, ['input', 'userIds']) };
  },
});

mutation('handleGroupInvitation', {
  description: 'Accept or decline, as the invitee, a pending invitation.',
  endpoints: ['PUT /group/invite/handle'],
  payload: GroupPayloadRef,
  input: HandleGroupInvitationInput,
  resolve: async (input, ctx) => {
    // The service names an invitation by group and inviter; the invitee is the acting user.
    const reply = await ctx.rest.call('PUT /group/invite/handle', {
      group_id: input.groupId,
      user_id: input.inviterId,
      approval: input.approval,
    });
    return { ok: okOf(reply.data), groupId: input.groupId };
  },
});

mutation('joinGroupByQrCode', {
  description: 'Join a group as the acting user with a QR code invitation (qrInfo of Group.qrCode).',
  endpoints: ['POST /group/qrcode/invite'],
  payload: GroupPayloadRef,
  refusals: { 20024: { field: ['input', 'qrInfo'] }, 20025: { field: ['input', 'qrInfo'] } },
  inputDescription: 'The QR code content.',
  input: (t) => ({ qrInfo: t.string({ required: true, description: 'The QR code content.' }) }),
  resolve: async (input, ctx) => {
    const reply = await ctx.rest.call('POST /group/qrcode/invite', { qr_info: nonBlank('input.qrInfo', input.qrInfo) });
    return { ok: true, groupId: groupIdIn(reply.data) };
  },
});

/** The spec does not show this answer's content; a group_id in it names the group joined. */
function groupIdIn(data: R.UnspecifiedObject): Int64 | null {
  const id = data.group_id;
  return typeof id === 'number' || typeof id === 'bigint' ? id : null;
}
