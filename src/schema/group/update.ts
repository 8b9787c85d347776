// updateGroup: the group's information and settings in one mutation. The service has one
// endpoint per setting, so each setting given costs one REST call and absent ones cost none.
import type { GatewayContext } from '../../context';
import type { Int64 } from '../../rest/json';
import { GraphQLError } from 'graphql';
import { builder } from '../core/builder';
import { badUserInput } from '../core/inputs';
import { fromResult, mutation, payloadType, type Refuse } from '../core/mutation';
import { graphqlErrorOf } from '../core/upstream-errors';
import { ApplyApproval, MsgMuteMode, MsgPushMode } from './enums';
import { payloadGroupField } from './common';
import { idInput } from '../core/id-kinds';

const UpdateGroupInput = builder.inputType('UpdateGroupInput', {
  description:
    'Settings of a group to change; absent ones keep their value. hideMemberInfo, the name, avatar, description, ext and ' +
    'the four switches need the owner or an admin (or a member when memberModify is on, for the name, avatar, description ' +
    "and ext); msgMuteMode and msgPushMode are the acting member's own.",
  fields: (t) => ({
    groupId: t.field(idInput({ for: 'Group', required: true, description: 'Group ID.' })),
    hideMemberInfo: t.boolean({
      required: false,
      description: "true: hide members' details (display name, join time) from members below admin; written first (see updateGroup).",
    }),
    name: t.string({ required: false, description: 'Name.' }),
    avatar: t.string({ required: false, description: 'Avatar URL.' }),
    description: t.string({ required: false, description: 'Description.' }),
    ext: t.string({ required: false, description: 'Extension information.' }),
    memberInvite: t.boolean({ required: false, description: 'true: members may invite others.' }),
    memberModify: t.boolean({ required: false, description: 'true: members may modify the group information.' }),
    readAck: t.boolean({ required: false, description: 'true: read receipts of group messages are enabled.' }),
    historyVisible: t.boolean({ required: false, description: 'true: new members see the history.' }),
    applyApproval: t.field({ type: ApplyApproval, required: false, description: 'How membership applications are handled.' }),
    msgMuteMode: t.field({ type: MsgMuteMode, required: false, description: "How the acting member blocks the group's messages." }),
    msgPushMode: t.field({
      type: MsgPushMode,
      required: false,
      description: "Which of the group's messages are pushed to the acting member.",
    }),
  }),
});

type Input = typeof UpdateGroupInput.$inferInput;
type Setting = Exclude<keyof Input, 'groupId'>;

/**
 * One REST call per setting, in this order (the order of the input type's fields). hideMemberInfo
 * goes first: it guards the members' details, so a failure that stops the writes further on never
 * leaves them shown after the client asked to hide them.
 */
const WRITES: { [K in Setting]: (ctx: GatewayContext, groupId: Int64, value: NonNullable<Input[K]>) => Promise<unknown> } = {
  hideMemberInfo: (ctx, group_id, value) => ctx.rest.call('PUT /group/settings/hide_member_info', { group_id, value }),
  name: (ctx, group_id, value) => ctx.rest.call('PUT /group/info/name', { group_id, value }),
  avatar: (ctx, group_id, value) => ctx.rest.call('PUT /group/info/avatar', { group_id, value }),
  description: (ctx, group_id, value) => ctx.rest.call('PUT /group/info/description', { group_id, value }),
  ext: (ctx, group_id, value) => ctx.rest.call('PUT /group/info/ext', { group_id, value }),
  memberInvite: (ctx, group_id, value) => ctx.rest.call('PUT /group/settings/allow_member_invitation', { group_id, value }),
  memberModify: (ctx, group_id, value) => ctx.rest.call('PUT /group/settings/allow_member_modify', { group_id, value }),
  readAck: (ctx, group_id, value) => ctx.rest.call('PUT /group/settings/enable_read_ack', { group_id, value }),
  historyVisible: (ctx, group_id, value) => ctx.rest.call('PUT /group/settings/history_visible', { group_id, value }),
  applyApproval: (ctx, group_id, apply_approval) =>
    ctx.rest.call('PUT /group/settings/require_admin_approval', { group_id, apply_approval }),
  msgMuteMode: (ctx, group_id, msg_mute_mode) => ctx.rest.call('PUT /group/msg/mute_mode', { group_id, msg_mute_mode }),
  msgPushMode: (ctx, group_id, msg_push_mode) => ctx.rest.call('PUT /group/msg/push_mode', { group_id, msg_push_mode }),
};

const ORDER = Object.keys(WRITES) as Setting[];

interface GroupUpdate {
  groupId: Int64;
  updated: Setting[];
}

const UpdateGroupPayloadRef = payloadType<GroupUpdate>('UpdateGroupPayload', {
  description: 'The outcome of updateGroup: the settings changed, and the group to read back.',
  fields: (t) => ({
    updated: t.stringList({
      description: 'The input fields that were applied, in the order they were written.',
      resolve: fromResult((u) => u.updated),
    }),
    group: t.field(payloadGroupField()),
  }),
});

/** Applies one setting; answers whether it was applied (a refusal is reported and the next setting follows). */
async function apply<K extends Setting>(ctx: GatewayContext, input: Input, key: K, refuse: Refuse, updated: Setting[]) {
  const value = input[key];
  if (value === null || value === undefined) return;
  try {
    await WRITES[key](ctx, input.groupId, value);
    updated.push(key);
  } catch (err) {
    try {
      refuse(err, ['input', key]);
    } catch (failure) {
      // Not a refusal: stop here, and say which settings were already applied, so none is silently lost.
      const before = updated.length === 0 ? 'none' : updated.join(', ');
      const message = failure instanceof Error ? failure.message : String(failure);
      const extensions = (failure instanceof GraphQLError ? failure : graphqlErrorOf(failure))?.extensions ?? {};
      throw new GraphQLError(`input.${key}: ${message} (settings applied before it: ${before}; later ones not attempted)`, {
        extensions: { ...extensions, field: `input.${key}`, updated: [...updated] },
      });
    }
  }
}

mutation('updateGroup', {
  description:
    "Change a group's information and settings: one REST call per setting given, none for absent ones, made one after " +
    "another in the order of UpdateGroupInput's fields. A refusal of one setting (a userError naming it) does not stop the " +
    'others; any other failure stops there with a GraphQL error naming the setting and those already applied. ' +
    "hideMemberInfo is written first, so that a failure further on cannot leave members' details shown.",
  endpoints: [
    'PUT /group/settings/hide_member_info',
    'PUT /group/info/name',
    'PUT /group/info/avatar',
    'PUT /group/info/description',
    'PUT /group/info/ext',
    'PUT /group/settings/allow_member_invitation',
    'PUT /group/settings/allow_member_modify',
    'PUT /group/settings/enable_read_ack',
    'PUT /group/settings/history_visible',
    'PUT /group/settings/require_admin_approval',
    'PUT /group/msg/mute_mode',
    'PUT /group/msg/push_mode',
  ],
  payload: UpdateGroupPayloadRef,
  input: UpdateGroupInput,
  resolve: async (input, ctx, refuse) => {
    if (ORDER.every((key) => input[key] == null)) throw badUserInput('input', 'must give at least one setting besides groupId');
    const updated: Setting[] = [];
    for (const key of ORDER) await apply(ctx, input, key, refuse, updated);
    return { groupId: input.groupId, updated };
  },
});
