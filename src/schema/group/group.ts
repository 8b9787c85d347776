// The Group type: its summary fields (one POST /group/info/batch for every group of the request,
// which also tells `group(id:)` whether the group exists) and its record fields (GET /group/info,
// once per group), the group queries, and the mutations on the group as a whole: create,
// dissolve, and its name, avatar, description and ext.
// Members, requests, moderation, announcements, files and settings add their fields elsewhere.
import type { Int64 } from '../../rest/json';
import { builder, reaches } from '../core/builder';
import { restFor } from '../core/profile';
import { connectionOf } from '../core/connection';
import { wholeListField } from '../core/keyset';
import { ApplyApproval, GroupStatus, GroupType, MsgMuteMode, MsgPushMode } from './enums';
import { mutation } from '../core/mutation';
import { code, GROUP_ID, GroupPayloadRef, idList, MAX_IDS, okOf } from './common';
import { groupById } from './existence';
import { fromRecord, fromSummary, groupSummary, primeGroup } from './loaders';
import { GroupRef, type GroupParent, UserRef, NodeRef } from '../core/refs';
import { idInput, idListInput } from '../core/id-kinds';

// Summary fields may also read GET /group/info: for a group the batch left out (unknown ones).
const SUMMARY = reaches('POST /group/info/batch', 'GET /group/info');
const INFO = reaches('GET /group/info');

const fromInfo = fromRecord('GET /group/info');

GroupRef.implement({
  description: 'A group: a private group or a chatroom.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.field({ type: 'ID', nullable: false, description: 'Group ID.', resolve: (g) => g.id }),
    name: t.string({ description: 'Name.', extensions: SUMMARY, resolve: fromSummary((s) => s.name) }),
    avatar: t.string({ description: 'Avatar URL.', extensions: SUMMARY, resolve: fromSummary((s) => s.avatar) }),
    ownerId: t.field({ type: 'ID', description: 'Owner ID.', extensions: SUMMARY, resolve: fromSummary((s) => s.owner) }),
    owner: t.field({ type: UserRef, description: 'The owner.', extensions: SUMMARY, resolve: fromSummary((s) => ({ id: s.owner })) }),
    capacity: t.field({
      type: 'SafeInt',
      description: 'How many members the group may hold.',
      extensions: SUMMARY,
      resolve: fromSummary((s) => s.capacity),
    }),
    memberCount: t.field({
      type: 'SafeInt',
      description: 'Current member count.',
      extensions: SUMMARY,
      resolve: fromSummary((s) => s.count),
    }),
    type: t.field({
      type: GroupType,
      description: 'Private group or chatroom.',
      extensions: SUMMARY,
      resolve: fromSummary((s) => code(GroupType, s.type)),
    }),
    status: t.field({
      type: GroupStatus,
      description: 'Normal or dissolved.',
      extensions: SUMMARY,
      resolve: fromSummary((s) => code(GroupStatus, s.status)),
    }),
    applyApproval: t.field({
      type: ApplyApproval,
      description: 'How membership applications are handled.',
      extensions: SUMMARY,
      resolve: fromSummary((s) => code(ApplyApproval, s.apply_approval)),
    }),
    msgMuteMode: t.field({
      type: MsgMuteMode,
      description: "How the acting user blocks this group's messages (the acting member's own setting).",
      extensions: SUMMARY,
      resolve: fromSummary((s) => code(MsgMuteMode, s.msg_mute_mode)),
    }),
    msgPushMode: t.field({
      type: MsgPushMode,
      description: "Which of this group's messages are pushed to the acting user (the acting member's own setting).",
      extensions: SUMMARY,
      resolve: fromSummary((s) => code(MsgPushMode, s.msg_push_mode)),
    }),
    description: t.string({ description: 'Description.', extensions: INFO, resolve: fromInfo((r) => r.description) }),
    ext: t.string({ description: 'Extension information.', extensions: INFO, resolve: fromInfo((r) => r.ext) }),
    createdAt: t.field({ type: 'DateTime', description: 'Creation time.', extensions: INFO, resolve: fromInfo((r) => r.created_at) }),
    updatedAt: t.field({
      type: 'DateTime',
      description: 'Time of the last update.',
      extensions: INFO,
      resolve: fromInfo((r) => r.updated_at),
    }),
  }),
});

const asGroups = (ids: readonly Int64[]): GroupParent[] => ids.map((id) => ({ id }));

builder.queryFields((t) => ({
  group: t.field({
    type: GroupRef,
    description:
      'The group with this ID; null when there is none. Its existence and summary fields (name, memberCount, ...) ' +
      'take one POST /group/info/batch for every group of the request (when only its members are asked, their list ' +
      'says whether it exists instead); its other fields read the service only when selected.',
    extensions: reaches('POST /group/info/batch'),
    args: { id: t.arg(idInput({ for: 'Group', required: true, description: 'Group ID.' })) },
    resolve: (_root, args, ctx, info) => groupById(args.id, ctx, info),
  }),
  groups: t.field({
    type: [GroupRef],
    nullable: { list: false, items: true },
    description:
      `Several groups, in the order given (at most ${MAX_IDS}); their summaries take one call for all of them. ` +
      'A missing group is null, with one NOT_FOUND error at its index.',
    extensions: SUMMARY,
    args: { ids: t.arg(idListInput({ for: 'Group', required: true, description: 'Group IDs.' })) },
    resolve: (_root, args, ctx) =>
      args.ids.length === 0 ? [] : idList('ids', args.ids).map((id) => groupSummary(id, ctx).then((summary) => ({ id, summary }))),
  }),
  publicGroups: t.field({
    type: [GroupRef],
    description: 'Public groups.',
    deprecationReason: 'Deprecated by the IM service (GET /group/public_list).',
    extensions: reaches('GET /group/public_list'),
    resolve: async (_root, _args, ctx) => asGroups((await ctx.rest.call('GET /group/public_list', {})).data),
  }),
}));

const GroupConnectionRef = connectionOf('Group', GroupRef, 'group');
const JOINED_PAGE = 100;

builder.objectField(UserRef, 'joinedGroups', (t) =>
  wholeListField(t, {
    type: GroupConnectionRef,
    description: "Groups the user has joined, in the service's order. Read as that user; the groups' fields are read as the caller.",
    endpoint: 'GET /group/user_joined',
    defaultFirst: JOINED_PAGE,
    // The service gives IDs alone: no time to sort by, so a cursor names the group.
    key: (g) => ({ sort: null, id: String(g.id) }),
    order: 'ascending',
    read: async (u, ctx) => {
      return asGroups((await restFor(u, ctx).call('GET /group/user_joined', {})).data);
    },
  }),
);

// ---- mutations on the group as a whole ----

const CreateGroupInput = builder.inputType('CreateGroupInput', {
  description: 'A new group; every field is optional.',
  fields: (t) => ({
    name: t.string({ required: false, description: 'Name.' }),
    avatar: t.string({ required: false, description: 'Avatar URL.' }),
    description: t.string({ required: false, description: 'Description.' }),
    type: t.field({ type: GroupType, required: false, description: 'Private group (default) or chatroom.' }),
    userIds: t.field(
      idListInput({
        for: 'User',
        required: false,
        description: 'Users invited at once: each joins, or receives an invitation when their settings ask to confirm.',
      }),
    ),
  }),
});

mutation('createGroup', {
  description: 'Create a group owned by the acting user.',
  endpoints: ['POST /group/create'],
  payload: GroupPayloadRef,
  input: CreateGroupInput,
  resolve: async (input, ctx) => {
    const userList = input.userIds ? idList('input.userIds', input.userIds) : undefined;
    const reply = await ctx.rest.call('POST /group/create', {
      name: input.name ?? undefined,
      avatar: input.avatar ?? undefined,
      description: input.description ?? undefined,
      type: input.type ?? undefined,
      user_list: userList,
    });
    // The answer is the whole record: later reads of the new group in this request use it.
    primeGroup(ctx, reply.data);
    return { ok: true, groupId: reply.data.group_id };
  },
});

mutation('dissolveGroup', {
  description: 'Dissolve a group (owner). It stays readable with status DISSOLVED.',
  endpoints: ['DELETE /group/destroy'],
  payload: GroupPayloadRef,
  id: { name: 'groupId', for: 'Group', description: GROUP_ID },
  resolve: async (groupId, ctx) => ({ ok: okOf((await ctx.rest.call('DELETE /group/destroy', { group_id: groupId })).data), groupId }),
});
