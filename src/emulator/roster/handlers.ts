// Handlers of the roster endpoints (document 4). The acting user is the token's owner, or with
// the admin token the user named by the user_id header, on every endpoint: where the query has
// its own user_id (8.1, 8.5, 8.8, 8.10, 8.16) that names the other user. Rules live in state.ts.
import type { BatchApplyResult } from '../../rest/records';
import { actingUser } from '../auth/actor';
import { ImError } from '../errors';
import type { Ctx, HandlerMap } from '../handler';
import { lookupHandlers } from './lookups';
import { applicationOf } from './model';
import { type PageLimits, pageByKey } from './paging';

const APPLICATION_PAGE: PageLimits = { default: 100, max: 1000 };
const FRIEND_PAGE: PageLimits = { default: 1000, max: 5000 };

const me = (ctx: Ctx) => actingUser(ctx.state, ctx.actor).id;

/** The answer of a write whose effect is the call inside: data true. */
const done = (_effect: void): true => true;

export const rosterHandlers: HandlerMap = {
  ...lookupHandlers,

  'POST /roster/apply': (p, ctx) => done(ctx.state.roster.apply(me(ctx), p.user_id, p, ctx.now)),

  // One result per item: a refused item fails alone, with the refusal's text as its reason; an
  // ID listed again fails, so that each ID has one outcome.
  'POST /roster/apply/batch': (p, ctx) => {
    const applicant = me(ctx);
    const result: BatchApplyResult = { success: [], fails: [] };
    const seen = new Set<string>();
    for (const item of p.applications) {
      const key = String(item.user_id);
      if (seen.has(key)) {
        result.fails.push({ user_id: item.user_id, reason: `user ${key} is listed more than once` });
        continue;
      }
      seen.add(key);
      try {
        ctx.state.roster.apply(applicant, item.user_id, item, ctx.now);
        result.success.push(item.user_id);
      } catch (err) {
        if (!(err instanceof ImError)) throw err;
        result.fails.push({ user_id: item.user_id, reason: err.message });
      }
    }
    return result;
  },

  'GET /roster/apply/list': (p, ctx) => {
    const received = ctx.state.roster.applications.receivedBy(me(ctx)).filter((a) => ctx.state.users.get(a.applicantId));
    // Newest first: the key grows along the page order.
    return pageByKey(ctx, received, (a) => -a.seq, p, APPLICATION_PAGE).map(applicationOf);
  },

  'PUT /roster/accept': (p, ctx) => done(ctx.state.roster.accept(me(ctx), p.user_id, ctx.now)),
  'PUT /roster/decline': (p, ctx) => done(ctx.state.roster.decline(me(ctx), p.user_id, ctx.now)),
  'DELETE /roster/delete': (p, ctx) => done(ctx.state.roster.remove(me(ctx), p.user_id)),
  'PUT /roster/ext': (p, ctx) =>
    done(ctx.state.roster.annotate(me(ctx), p.user_id, { alias: p.alias, ext: p.ext, mute: p.mute_notification })),

  'PUT /roster/block': (p, ctx) => done(ctx.state.roster.block(me(ctx), p.user_id, ctx.now)),
  'DELETE /roster/unblock': (p, ctx) => done(ctx.state.roster.unblock(me(ctx), p.user_id)),
  'GET /roster/blocked_list': (_p, ctx) => ctx.state.roster.existing(ctx.state.roster.blacklists.idsOf(me(ctx))),

  'GET /roster/list': (p, ctx) => {
    const roster = ctx.state.roster;
    return pageByKey(ctx, roster.existing(roster.friends.idsOf(me(ctx))), (id) => id, p, FRIEND_PAGE);
  },
};
