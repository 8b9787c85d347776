// Push preferences of a user: User.pushTags, and the writes of alias, badge and tags.
import { builder, reaches } from '../core/builder';
import { inRange, nonBlank, nonEmptyList } from '../core/inputs';
import { UserRef } from '../core/refs';
import { restFor } from '../core/profile';
import { mutation } from '../core/mutation';
import { byActingUser, orUndefined, UserPayloadRef } from '../user/writes';

builder.objectField(UserRef, 'pushTags', (t) =>
  t.field({
    type: ['String'],
    description: "The user's push tags (pushes may target users by tag).",
    extensions: reaches('GET /user/push/tag'),
    resolve: async (u, _a, ctx) => (await restFor(u, ctx).call('GET /user/push/tag', {})).data,
  }),
);

/** A non-empty list of non-empty tags: the service refuses both an empty list and an empty tag. */
function checkTags(tags: readonly string[], field: string): void {
  nonEmptyList(field, tags);
  tags.forEach((tag, i) => nonBlank(`${field}[${i}]`, tag));
}

mutation('setPushBadge', {
  description: "Set the acting user's push badge (the count shown on the app icon).",
  endpoints: ['POST /user/push/badge'],
  payload: UserPayloadRef,
  inputDescription: 'The badge number.',
  input: (t) => ({ badge: t.int({ required: true, description: 'The badge number, 0 or more.' }) }),
  resolve: (input, ctx) =>
    byActingUser(ctx, ctx.rest.call('POST /user/push/badge', { badge: inRange('input.badge', input.badge, 0, 2 ** 31 - 1) })),
});

mutation('addPushTags', {
  description: 'Add push tags to the acting user.',
  endpoints: ['POST /user/push/tag'],
  payload: UserPayloadRef,
  inputDescription: 'The tags to add.',
  input: (t) => ({ tags: t.stringList({ required: true, description: 'The tags to add (at least one, none empty).' }) }),
  resolve: (input, ctx) => {
    checkTags(input.tags, 'input.tags');
    return byActingUser(ctx, ctx.rest.call('POST /user/push/tag', { tags: input.tags }));
  },
});

mutation('removePushTags', {
  description: 'Remove push tags from the acting user (tags it does not have are ignored).',
  endpoints: ['DELETE /user/push/tag'],
  payload: UserPayloadRef,
  inputDescription: 'The tags to remove.',
  input: (t) => ({ tags: t.stringList({ required: true, description: 'The tags to remove (at least one, none empty).' }) }),
  resolve: (input, ctx) => {
    checkTags(input.tags, 'input.tags');
    return byActingUser(ctx, ctx.rest.call('DELETE /user/push/tag', { tags: input.tags }));
  },
});

mutation('clearPushTags', {
  description: 'Remove all push tags of the acting user.',
  endpoints: ['DELETE /user/push/tag/all'],
  payload: UserPayloadRef,
  resolve: (_none, ctx) => byActingUser(ctx, ctx.rest.call('DELETE /user/push/tag/all', {})),
});

mutation('setPushAlias', {
  description: "Set the acting user's push alias.",
  endpoints: ['POST /user/push/alias'],
  payload: UserPayloadRef,
  inputDescription: 'A push alias, and optionally the push token it goes with.',
  input: (t) => ({
    alias: t.string({ required: true, description: 'The push alias (pushes may target users by alias).' }),
    pushToken: t.string({ required: false, description: 'Push token.' }),
  }),
  resolve: (input, ctx) =>
    byActingUser(ctx, ctx.rest.call('POST /user/push/alias', { alias: input.alias, push_token: orUndefined(input.pushToken) })),
});
