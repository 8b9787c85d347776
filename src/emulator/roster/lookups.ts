// Reading other users through the roster: by ID, user name or mobile (8.10, 8.15, 8.14), a set
// of IDs (8.12), and whether one user may message another (8.13).
import { type Actor, actingUser } from '../auth/actor';
import { Code, ImError } from '../errors';
import type { Ctx, HandlerMap } from '../handler';
import { mobileNumber, nonEmpty } from '../users/checks';
import type { UserRecord } from '../users/model';
import { rosterItem } from './items';

const itemFor = (ctx: Ctx, user: UserRecord) => rosterItem(ctx.state, actingUser(ctx.state, ctx.actor).id, user);

const notFound = (what: string) => new ImError(Code.USER_NOT_FOUND, `no user with ${what}`);

/** A user token may ask only about pairs it belongs to: the answer shows the other's blacklist. */
function assertMayAsk(actor: Actor, pair: UserRecord[]): void {
  if (actor.admin || pair.some((u) => u.id === actor.userId)) return;
  throw new ImError(Code.NO_PERMISSION, 'a user token may ask only about messages it sends or receives');
}

export const lookupHandlers: HandlerMap = {
  'GET /roster/id': (p, ctx) => itemFor(ctx, ctx.state.users.require(p.user_id)),

  'GET /roster/name': (p, ctx) => {
    const user = ctx.state.users.byUsername(nonEmpty('username', p.username));
    if (!user) throw notFound(`user name ${p.username}`);
    return itemFor(ctx, user);
  },

  // A mobile number is a login name: the directory finds it among names, mobiles and e-mails.
  'GET /roster/mobile': (p, ctx) => {
    const mobile = mobileNumber('mobile', nonEmpty('mobile', p.mobile));
    const user = ctx.state.users.byLoginName(mobile);
    if (user?.profile.mobile !== mobile) throw notFound(`mobile ${mobile}`);
    return itemFor(ctx, user);
  },

  // Exactly the IDs asked for, in that order and once each; unknown IDs are left out.
  'POST /roster/list': (p, ctx) => {
    const viewer = actingUser(ctx.state, ctx.actor).id;
    const users = [...new Set(p.list)].map((id) => ctx.state.users.find(id));
    return users.filter((u) => u !== undefined).map((u) => rosterItem(ctx.state, viewer, u));
  },

  // user_id sends, roster_id receives.
  'GET /roster/may_message': (p, ctx) => {
    const sender = ctx.state.users.require(p.user_id);
    const receiver = ctx.state.users.require(p.roster_id);
    assertMayAsk(ctx.actor, [sender, receiver]);
    return ctx.state.roster.mayMessage(sender.id, receiver.id);
  },
};
