// 1.23, 1.24, 1.28–1.31: push alias, badge and tags of the acting user. The push domain reads
// them (UserRecord.pushAlias, badge, tags) to resolve audiences.
//
// Choices where the spec is silent: tags are a set kept in insertion order; an empty tag and a
// negative badge are 10002; removing a tag the user does not have is not an error; alias ''
// clears the alias (there is no other way to drop one).
import { actingUser } from '../auth/actor';
import { invalidParam } from '../errors';
import type { HandlerMap } from '../handler';
import { nonEmpty } from './checks';

function checkTags(tags: string[]): string[] {
  tags.forEach((tag, i) => nonEmpty(`tags[${i}]`, tag));
  return tags;
}

export const pushPrefHandlers: HandlerMap = {
  // push_token, when given, is the user's push token as GET /user/settings shows it.
  'POST /user/push/alias': (p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    user.pushAlias = p.alias;
    if (p.push_token !== undefined) user.settings.push_token = p.push_token;
    return true;
  },

  'POST /user/push/badge': (p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    if (p.badge < 0) throw invalidParam('badge', 'must not be negative');
    user.badge = p.badge;
    return true;
  },

  'GET /user/push/tag': (_p, ctx) => [...actingUser(ctx.state, ctx.actor).tags],

  'POST /user/push/tag': (p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    for (const tag of checkTags(p.tags)) user.tags.add(tag);
    return true;
  },

  'DELETE /user/push/tag': (p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    for (const tag of checkTags(p.tags)) user.tags.delete(tag);
    return true;
  },

  'DELETE /user/push/tag/all': (_p, ctx) => {
    actingUser(ctx.state, ctx.actor).tags.clear();
    return true;
  },
};
