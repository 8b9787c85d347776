// The User type and the reads of the acting user. Fields are lazy: each resolves through the
// request's REST client, and the profile GET is made once however many of its fields are chosen.
import type { GatewayContext } from '../context';
import type { UserProfile } from '../rest/records';
import { builder } from './builder';

/** A user the gateway can read as the acting user. */
export interface UserParent {
  kind: 'self';
}

const profile = async (ctx: GatewayContext): Promise<UserProfile> => (await ctx.rest.call('GET /user/profile', {})).data;

export const UserRef = builder.objectRef<UserParent>('User').implement({
  description: 'A user of the IM service.',
  fields: (t) => ({
    id: t.field({ type: 'ID', nullable: false, description: 'User ID.', resolve: async (_u, _a, ctx) => (await profile(ctx)).user_id }),
    username: t.string({ description: 'User name (unique; usable as login name).', resolve: async (_u, _a, ctx) => (await profile(ctx)).username }),
    nickName: t.string({ description: 'Nickname.', resolve: async (_u, _a, ctx) => (await profile(ctx)).nick_name }),
    avatar: t.string({ description: 'Avatar URL.', resolve: async (_u, _a, ctx) => (await profile(ctx)).avatar }),
    description: t.string({ description: 'Self description.', resolve: async (_u, _a, ctx) => (await profile(ctx)).description }),
    email: t.string({ description: 'E-mail address.', resolve: async (_u, _a, ctx) => (await profile(ctx)).email }),
    mobile: t.string({ description: 'Mobile number.', resolve: async (_u, _a, ctx) => (await profile(ctx)).mobile }),
    publicInfo: t.string({ description: 'Public extension information, visible to friends and strangers.', resolve: async (_u, _a, ctx) => (await profile(ctx)).public_info }),
    privateInfo: t.string({ description: 'Private extension information, visible only to the user.', resolve: async (_u, _a, ctx) => (await profile(ctx)).private_info }),
  }),
});

builder.queryField('me', (t) =>
  t.field({
    type: UserRef,
    description: 'The acting user: the owner of the access-token, or the user named by the user_id header with an admin token.',
    resolve: () => ({ kind: 'self' as const }),
  }),
);
