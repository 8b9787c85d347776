// The User type and the reads of the acting user. Fields are lazy: each resolves through the
// request's REST client, and the profile GET is made once however many of its fields are chosen.
import type { GatewayContext } from '../context';
import type { UserProfile } from '../rest/records';
import { builder, reaches } from './builder';
import { type UserParent, UserRef } from './refs';

/** The profile of the user: the acting user's own, or (admin token) another user's. */
export async function profileOf(user: UserParent, ctx: GatewayContext): Promise<UserProfile> {
  const rest = user.id === undefined ? ctx.rest : ctx.restAs(user.id);
  return (await rest.call('GET /user/profile', {})).data;
}

UserRef.implement({
  description: 'A user of the IM service.',
  fields: (t) => ({
    id: t.field({
      type: 'ID',
      nullable: false,
      description: 'User ID.',
      resolve: async (u, _a, ctx) => u.id ?? (await profileOf(u, ctx)).user_id,
    }),
    username: t.string({ description: 'User name (unique; usable as login name).', extensions: reaches('GET /user/profile'), resolve: async (u, _a, ctx) => (await profileOf(u, ctx)).username }),
    nickName: t.string({ description: 'Nickname.', extensions: reaches('GET /user/profile'), resolve: async (u, _a, ctx) => (await profileOf(u, ctx)).nick_name }),
    avatar: t.string({ description: 'Avatar URL.', extensions: reaches('GET /user/profile'), resolve: async (u, _a, ctx) => (await profileOf(u, ctx)).avatar }),
    description: t.string({ description: 'Self description.', extensions: reaches('GET /user/profile'), resolve: async (u, _a, ctx) => (await profileOf(u, ctx)).description }),
    email: t.string({ description: 'E-mail address.', extensions: reaches('GET /user/profile'), resolve: async (u, _a, ctx) => (await profileOf(u, ctx)).email }),
    mobile: t.string({ description: 'Mobile number.', extensions: reaches('GET /user/profile'), resolve: async (u, _a, ctx) => (await profileOf(u, ctx)).mobile }),
    publicInfo: t.string({
      description: 'Public extension information, visible to friends and strangers.',
      extensions: reaches('GET /user/profile'),
      resolve: async (u, _a, ctx) => (await profileOf(u, ctx)).public_info,
    }),
    privateInfo: t.string({
      description: 'Private extension information, visible only to the user.',
      extensions: reaches('GET /user/profile'),
      resolve: async (u, _a, ctx) => (await profileOf(u, ctx)).private_info,
    }),
  }),
});

builder.queryField('me', (t) =>
  t.field({
    type: UserRef,
    description: 'The acting user: the owner of the access-token, or the user named by the user_id header with an admin token.',
    resolve: () => ({}),
  }),
);
