// Ways in and out of a group: applications (4.9-4.11), invitations (4.30-4.32), QR codes
// (4.40, 4.41), leaving (4.34) and kicking (4.33).
//
// Invitations: an invitee whose settings.group_confirm is false joins at once; otherwise a
// pending invitation waits for the invitee. It is identified by group + inviter + invitee, so
// 4.32 is called by the invitee with body user_id = the inviter (0 when the admin token
// invited without acting as a user). Inviting again while one is pending refreshes it.
import type { Int64 } from '../../rest/json';
import type { OperationResult } from '../../rest/records';
import { type Actor, actingUser } from '../auth/actor';
import { Code, ImError } from '../errors';
import type { HandlerMap } from '../handler';
import type { State } from '../state';
import { perUser } from './batch';
import { APPLY, applicationView, type GroupRecord, idOf, invitationView, REQUEST, uniqueIds } from './model';
import { page } from './paging';
import { readQr, signQr } from './qrcode';
import { assertOutranks, Rank, requireMember, requireRank } from './roles';

const DEFAULT_LIMIT = 100; // applications and invitations (upstream notes)

const done = (userId: Int64, reason = ''): OperationResult => ({ user_id: userId, result: 'success', reason });

/** Members may invite (and sign QR codes) only when member_invite is on; admins always. */
function assertMayInvite(g: GroupRecord, actor: Actor): void {
  requireRank(g, actor, g.memberInvite ? Rank.MEMBER : Rank.ADMIN);
}

/** Adds the invitee at once, or records a pending invitation when they asked to confirm. */
export function inviteUser(state: State, g: GroupRecord, inviterId: number, inviteeId: number, reason: string, now: number): void {
  const invitee = state.users.require(inviteeId);
  if (!invitee.settings.group_confirm) {
    state.groups.admit(g, inviteeId, now);
    return;
  }
  state.groups.assertMayJoin(g, inviteeId);
  const expiredTime = now + state.options.requestTtlMs;
  const pending = state.groups.pendingInvitation(g.id, inviterId, inviteeId);
  if (pending) Object.assign(pending, { reason, expiredTime, updatedAt: now });
  else state.groups.invitations.push({ groupId: g.id, inviterId, inviteeId, reason, status: REQUEST.PENDING, expiredTime, updatedAt: now });
}

export const membershipHandlers: HandlerMap = {
  // apply_approval 0 joins at once, 1 records a pending application (reason says so), 2 answers
  // a 'fail' result: the group's policy is an outcome, not a malformed request.
  'POST /group/apply': (p, ctx) => {
    const { state, now } = ctx;
    const g = state.groups.live(p.group_id);
    const user = actingUser(state, ctx.actor);
    state.groups.assertMayJoin(g, user.id);
    if (g.applyApproval === APPLY.REJECT_ALL) {
      return { user_id: user.id, result: 'fail', reason: `group ${g.id} does not accept applications` };
    }
    if (g.applyApproval === APPLY.AGREE_ALL) {
      state.groups.admit(g, user.id, now);
      return done(user.id);
    }
    // The latest application per applicant; re-applying replaces it and moves it to the end.
    g.applications.delete(user.id);
    g.applications.set(user.id, {
      groupId: g.id,
      applicantId: user.id,
      reason: p.reason ?? '',
      status: REQUEST.PENDING,
      expiredTime: now + state.options.requestTtlMs,
    });
    return done(user.id, 'pending: waiting for an admin to approve');
  },

  'PUT /group/apply/handle': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    requireRank(g, ctx.actor, Rank.ADMIN);
    const application = g.applications.get(idOf(p.user_id));
    if (!application || application.status !== REQUEST.PENDING || application.expiredTime <= ctx.now) {
      throw new ImError(Code.APPLICATION_HANDLED, `no pending application of user ${p.user_id} to group ${g.id}`);
    }
    if (p.approval) ctx.state.groups.admit(g, application.applicantId, ctx.now);
    application.status = p.approval ? REQUEST.AGREED : REQUEST.REJECTED;
    return done(application.applicantId);
  },

  // Every application (handled ones too) of the listed groups, each of which the actor administers.
  'POST /group/application_list': (p, ctx) => {
    const groups = uniqueIds(p.group_list).map((id) => ctx.state.groups.live(id));
    for (const g of groups) requireRank(g, ctx.actor, Rank.ADMIN);
    const items = groups.flatMap((g) => [...g.applications.values()].map(applicationView));
    return page(ctx, items, p, DEFAULT_LIMIT);
  },

  'POST /group/invite': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    assertMayInvite(g, ctx.actor);
    const inviterId = ctx.actor.userId ?? 0;
    return perUser(p.user_list, (id) => inviteUser(ctx.state, g, inviterId, id, p.reason ?? '', ctx.now));
  },

  'PUT /group/invite/handle': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    const invitee = actingUser(ctx.state, ctx.actor);
    const inviterId = idOf(p.user_id);
    const invitation = ctx.state.groups.pendingInvitation(g.id, inviterId, invitee.id);
    if (!invitation || invitation.expiredTime <= ctx.now) {
      throw new ImError(Code.INVITATION_HANDLED, `no pending invitation of user ${invitee.id} by ${inviterId} to group ${g.id}`);
    }
    if (p.approval) ctx.state.groups.admit(g, invitee.id, ctx.now);
    invitation.status = p.approval ? REQUEST.AGREED : REQUEST.REJECTED;
    invitation.updatedAt = ctx.now;
    return true;
  },

  // The invitations the acting user received (handled ones too), oldest first; dissolved groups' left out.
  'GET /group/invitation_list': (p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    const items = ctx.state.groups.invitations
      .filter((i) => i.inviteeId === user.id && ctx.state.groups.get(i.groupId)?.status === 0)
      .map(invitationView);
    return page(ctx, items, p, DEFAULT_LIMIT);
  },

  'GET /group/qrcode/sign': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    assertMayInvite(g, ctx.actor);
    const expireAt = ctx.now + ctx.state.options.qrTtlMs;
    const qrInfo = signQr(ctx.state.groups.qrKey, { groupId: g.id, inviterId: ctx.actor.userId ?? 0, createAt: ctx.now, expireAt });
    return { qr_info: qrInfo, create_at: ctx.now, expire_at: expireAt };
  },

  // A signed code is an invitation: the acting user joins without admin approval.
  'POST /group/qrcode/invite': (p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    const qr = readQr(ctx.state.groups.qrKey, p.qr_info);
    if (qr.expireAt <= ctx.now) throw new ImError(Code.QR_EXPIRED, 'group QR code expired');
    const g = ctx.state.groups.live(qr.groupId);
    ctx.state.groups.admit(g, user.id, ctx.now);
    return { group_id: g.id, user_id: user.id };
  },

  'DELETE /group/leave': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    const user = actingUser(ctx.state, ctx.actor);
    requireMember(g, user.id);
    if (g.ownerId === user.id) throw new ImError(Code.OWNER_CANNOT_LEAVE, 'the owner cannot leave the group; transfer it first');
    ctx.state.groups.expel(g, user.id, ctx.now);
    return true;
  },

  'DELETE /group/kick': (p, ctx) => {
    const g = ctx.state.groups.live(p.group_id);
    const rank = requireRank(g, ctx.actor, Rank.ADMIN);
    return perUser(p.user_list, (id) => {
      requireMember(g, id);
      assertOutranks(g, rank, id);
      ctx.state.groups.expel(g, id, ctx.now);
    });
  },
};
