// Push preferences of a user: User.pushTags, and the writes of alias, badge and tags.
import { builder, reaches } from '../core/builder';
import { inRange, nonBlank, nonEmptyList } from '../core/inputs';
import { UserRef } from '../core/refs';
import { restFor } from '../user/user';
import { actingUser, changed, defineSetters, orUndefined, setter, UserPayloadRef } from '../user/writes';

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

defineSetters([
  setter({
    name: 'setPushBadge',
    endpoint: 'POST /user/push/badge',
    description: "Set the acting user's push badge (the count shown on the app icon).",
    arg: { name: 'badge', type: 'Int', description: 'The badge number, 0 or more.' },
    params: (v) => ({ badge: v }),
    check: (v, field) => void inRange(field, v, 0, 2 ** 31 - 1),
  }),
  setter({
    name: 'addPushTags',
    endpoint: 'POST /user/push/tag',
    description: 'Add push tags to the acting user.',
    arg: { name: 'tags', type: ['String'], description: 'The tags to add (at least one, none empty).' },
    params: (v) => ({ tags: v }),
    check: checkTags,
  }),
  setter({
    name: 'removePushTags',
    endpoint: 'DELETE /user/push/tag',
    description: 'Remove push tags from the acting user (tags it does not have are ignored).',
    arg: { name: 'tags', type: ['String'], description: 'The tags to remove (at least one, none empty).' },
    params: (v) => ({ tags: v }),
    check: checkTags,
  }),
]);

builder.mutationField('clearPushTags', (t) =>
  t.field({
    type: UserPayloadRef,
    description: 'Remove all push tags of the acting user.',
    extensions: reaches('DELETE /user/push/tag/all'),
    resolve: async (_root, _a, ctx) => changed((await ctx.rest.call('DELETE /user/push/tag/all', {})).data, actingUser(ctx)),
  }),
);

const SetPushAliasInput = builder.inputType('SetPushAliasInput', {
  description: 'A push alias, and optionally the push token it goes with.',
  fields: (t) => ({
    alias: t.string({ required: true, description: 'The push alias (pushes may target users by alias).' }),
    pushToken: t.string({ required: false, description: 'Push token.' }),
  }),
});

builder.mutationField('setPushAlias', (t) =>
  t.field({
    type: UserPayloadRef,
    description: "Set the acting user's push alias.",
    extensions: reaches('POST /user/push/alias'),
    args: { input: t.arg({ type: SetPushAliasInput, required: true, description: 'The alias and push token.' }) },
    resolve: async (_root, { input }, ctx) => {
      const params = { alias: input.alias, push_token: orUndefined(input.pushToken) };
      return changed((await ctx.rest.call('POST /user/push/alias', params)).data, actingUser(ctx));
    },
  }),
);
