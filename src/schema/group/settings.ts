// Group settings: the fields GET /group/settings answers for (the same record as GET
// /group/info; whichever a request reads first serves both). updateGroup (update.ts) sets them.
import { builder, reaches } from '../core/builder';
import { groupBan } from './common';
import { fromRecord } from './loaders';
import { GroupRef } from '../core/refs';

const SETTINGS = reaches('GET /group/settings');

const fromSettings = fromRecord('GET /group/settings');

builder.objectFields(GroupRef, (t) => ({
  historyVisible: t.boolean({
    description: 'Whether new members see the history.',
    extensions: SETTINGS,
    resolve: fromSettings((r) => r.history_visible),
  }),
  memberInvite: t.boolean({
    description: 'Whether members may invite others.',
    extensions: SETTINGS,
    resolve: fromSettings((r) => r.member_invite),
  }),
  memberModify: t.boolean({
    description: 'Whether members may modify the group information.',
    extensions: SETTINGS,
    resolve: fromSettings((r) => r.member_modify),
  }),
  readAck: t.boolean({
    description: 'Whether read receipts of group messages are enabled.',
    extensions: SETTINGS,
    resolve: fromSettings((r) => r.read_ack),
  }),
  hideMemberInfo: t.boolean({
    description:
      "Whether members' details are hidden (hide_member_info): members below admin then read the other members' displayName " +
      'and joinedAt as null. null when the service does not say (before its 2026 version).',
    extensions: SETTINGS,
    resolve: fromSettings((r) => r.hide_member_info ?? null),
  }),
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
