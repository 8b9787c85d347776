// Group settings: the fields GET /group/settings answers for (the same record as GET
// /group/info; whichever a request reads first serves both), and their setters, including the
// acting member's own mute and push modes.
import { builder, reaches } from '../core/builder';
import { ApplyApproval, MsgMuteMode, MsgPushMode } from './enums';
import { groupBan, groupMutation } from './common';
import { fromRecord } from './loaders';
import { GroupRef } from '../core/refs';

const SETTINGS = reaches('GET /group/settings');

const fromSettings = fromRecord('GET /group/settings');

builder.objectFields(GroupRef, (t) => ({
  historyVisible: t.boolean({ description: 'Whether new members see the history.', extensions: SETTINGS, resolve: fromSettings((r) => r.history_visible) }),
  memberInvite: t.boolean({ description: 'Whether members may invite others.', extensions: SETTINGS, resolve: fromSettings((r) => r.member_invite) }),
  memberModify: t.boolean({
    description: 'Whether members may modify the group information.',
    extensions: SETTINGS,
    resolve: fromSettings((r) => r.member_modify),
  }),
  readAck: t.boolean({ description: 'Whether read receipts of group messages are enabled.', extensions: SETTINGS, resolve: fromSettings((r) => r.read_ack) }),
  bannedForAll: t.boolean({
    description: 'Whether a group-wide ban is in force: only admins may send (permanently when banExpiresAt is null).',
    extensions: SETTINGS,
    resolve: fromSettings((r) => groupBan(r.ban_expire_time).active),
  }),
  banExpiresAt: t.field({
    type: 'DateTime',
    description: 'When the group-wide ban ends; null when there is none or it is permanent.',
    extensions: SETTINGS,
    resolve: fromSettings((r) => groupBan(r.ban_expire_time).expiresAt),
  }),
}));

// ---- setters (owner and admins) ----

const switches = [
  ['setGroupMemberInvite', 'PUT /group/settings/allow_member_invitation', 'memberInvite', 'Allow members to invite others, or not.', 'true: members may invite.'],
  ['setGroupMemberModify', 'PUT /group/settings/allow_member_modify', 'memberModify', 'Allow members to modify the group information, or not.', 'true: members may modify it.'],
  ['setGroupReadAck', 'PUT /group/settings/enable_read_ack', 'readAck', 'Enable read receipts of group messages, or not.', 'true: enabled.'],
  ['setGroupHistoryVisible', 'PUT /group/settings/history_visible', 'historyVisible', 'Let new members see the history, or not.', 'true: new members see it.'],
] as const;

for (const [name, endpoint, argName, description, argDescription] of switches) {
  groupMutation(name, {
    description,
    endpoint,
    args: (arg) => ({ [argName]: arg.boolean({ required: true, description: argDescription }) }),
    write: (rest, groupId, args) => rest.call(endpoint, { group_id: groupId, value: args[argName] as boolean }),
  });
}

groupMutation('setGroupApplyApproval', {
  description: 'Set how membership applications are handled.',
  endpoint: 'PUT /group/settings/require_admin_approval',
  args: (arg) => ({ applyApproval: arg({ type: ApplyApproval, required: true, description: 'The policy.' }) }),
  write: (rest, groupId, args) => rest.call('PUT /group/settings/require_admin_approval', { group_id: groupId, apply_approval: args.applyApproval }),
});

groupMutation('setGroupMuteMode', {
  description: "Set how the acting member blocks the group's messages.",
  endpoint: 'PUT /group/msg/mute_mode',
  args: (arg) => ({ msgMuteMode: arg({ type: MsgMuteMode, required: true, description: 'The blocking mode.' }) }),
  write: (rest, groupId, args) => rest.call('PUT /group/msg/mute_mode', { group_id: groupId, msg_mute_mode: args.msgMuteMode }),
});

groupMutation('setGroupPushMode', {
  description: "Set which of the group's messages are pushed to the acting member.",
  endpoint: 'PUT /group/msg/push_mode',
  args: (arg) => ({ msgPushMode: arg({ type: MsgPushMode, required: true, description: 'The push mode.' }) }),
  write: (rest, groupId, args) => rest.call('PUT /group/msg/push_mode', { group_id: groupId, msg_push_mode: args.msgPushMode }),
});
