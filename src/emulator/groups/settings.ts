// Setters of the group's information (4.25, 4.27-4.29: owner/admins, or members when
// member_modify) and settings (4.43, 4.44, 4.46-4.48, 4.54: owner/admins). Each moves updated_at.
import type { Int64 } from '../../rest/json';
import type { Ctx, HandlerMap } from '../handler';
import type { GroupRecord } from './model';
import { Rank, requireRank } from './roles';

type Info = 'name' | 'avatar' | 'description' | 'ext';
type Setting = 'memberInvite' | 'memberModify' | 'readAck' | 'historyVisible' | 'applyApproval' | 'hideMemberInfo';

function change(ctx: Ctx, groupId: Int64, apply: (g: GroupRecord) => void, who: 'info' | 'settings'): true {
  const g = ctx.state.groups.live(groupId);
  if (who === 'info') ctx.state.groups.assertCanModifyInfo(g.id, ctx.actor);
  else requireRank(g, ctx.actor, Rank.ADMIN);
  apply(g);
  ctx.state.groups.touch(g, ctx.now);
  return true;
}

const setInfo = (field: Info) => (p: { group_id: Int64; value: string }, ctx: Ctx) =>
  change(ctx, p.group_id, (g) => (g[field] = p.value), 'info');

const setSetting =
  <F extends Setting>(field: F) =>
  (p: { group_id: Int64; value: GroupRecord[F] }, ctx: Ctx) =>
    change(ctx, p.group_id, (g) => (g[field] = p.value), 'settings');

export const settingsHandlers: HandlerMap = {
  'PUT /group/info/name': setInfo('name'),
  'PUT /group/info/avatar': setInfo('avatar'),
  'PUT /group/info/description': setInfo('description'),
  'PUT /group/info/ext': setInfo('ext'),
  'PUT /group/settings/allow_member_invitation': setSetting('memberInvite'),
  'PUT /group/settings/allow_member_modify': setSetting('memberModify'),
  'PUT /group/settings/enable_read_ack': setSetting('readAck'),
  'PUT /group/settings/history_visible': setSetting('historyVisible'),
  'PUT /group/settings/hide_member_info': setSetting('hideMemberInfo'),
  'PUT /group/settings/require_admin_approval': (p, ctx) =>
    setSetting('applyApproval')({ group_id: p.group_id, value: p.apply_approval }, ctx),
};
