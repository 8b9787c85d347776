// Tokens: logging in by user ID, user name or login name. The token record of the service.
import type { TokenRecord } from '../../rest/records';
import { builder, reaches } from '../core/builder';

export const TokenRef = builder.objectRef<TokenRecord>('Token').implement({
  description: 'A user access token, with the file and push credentials issued beside it.',
  fields: (t) => ({
    token: t.exposeString('token', { nullable: false, description: 'The access token: send it as the access-token header.' }),
    userId: t.field({ type: 'ID', nullable: false, description: 'The user the token acts as.', resolve: (r) => r.user_id }),
    expiresAt: t.field({ type: 'DateTime', nullable: false, description: 'When the token expires.', resolve: (r) => r.expire }),
    storeToken: t.exposeString('store_token', { description: 'File token, passed as store_token to file downloads.' }),
    accessKeySecret: t.exposeString('access_key_secret', { description: 'File secret key.' }),
    encrypted: t.boolean({ description: 'Whether an encrypted connection is enabled.', resolve: (r) => r.encrypt_type === 1 }),
    publicKey: t.exposeString('public_key', { description: 'Public key.' }),
    pushToken: t.string({
      description: 'Push token of the device; only when a deviceGuid was given.',
      resolve: (r) => r.push_token ?? null,
    }),
  }),
});

const credentials = builder.args((t) => ({
  password: t.string({ required: true, description: 'Password.' }),
  deviceGuid: t.string({ required: false, description: 'Device ID; when given, the device is registered and its pushToken returned.' }),
}));

builder.mutationFields((t) => ({
  loginById: t.field({
    type: TokenRef,
    description: 'Get a token for a user by user ID and password.',
    extensions: reaches('POST /token/id'),
    args: { userId: t.arg({ type: 'ID', required: true, description: 'User ID.' }), ...credentials },
    resolve: async (_root, a, ctx) =>
      (await ctx.rest.call('POST /token/id', { user_id: a.userId, password: a.password, device_guid: a.deviceGuid ?? undefined })).data,
  }),
  loginByName: t.field({
    type: TokenRef,
    description: 'Get a token for a user by user name and password.',
    extensions: reaches('POST /token/user'),
    args: { username: t.arg.string({ required: true, description: 'User name.' }), ...credentials },
    resolve: async (_root, a, ctx) =>
      (await ctx.rest.call('POST /token/user', { name: a.username, password: a.password, device_guid: a.deviceGuid ?? undefined })).data,
  }),
  loginByLoginName: t.field({
    type: TokenRef,
    description: 'Get a token for a user by login name (user name, mobile number or e-mail) and password.',
    extensions: reaches('POST /token/login'),
    args: { loginName: t.arg.string({ required: true, description: 'User name, mobile number or e-mail.' }), ...credentials },
    resolve: async (_root, a, ctx) =>
      (await ctx.rest.call('POST /token/login', { login_name: a.loginName, password: a.password, device_guid: a.deviceGuid ?? undefined }))
        .data,
  }),
}));
