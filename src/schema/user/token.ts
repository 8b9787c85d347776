// Tokens: logging in by user ID, user name or login name. The token record of the service.
import type { GatewayContext } from '../../context';
import type { TokenRecord } from '../../rest/records';
import type { InputFieldBuilder } from '@pothos/core';
import { builder, type SchemaTypes } from '../core/builder';
import { fromResult, mutation, payloadType } from '../core/mutation';
import { UserRef } from '../core/refs';
import { orUndefined } from './writes';
import { idInput } from '../core/id-kinds';
import { loginName } from '../core/sign-in';

const TokenRef = builder.objectRef<TokenRecord>('Token').implement({
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

const LoginPayloadRef = payloadType<TokenRecord>('LoginPayload', {
  description: 'The answer to a login: the token, and the user it acts as.',
  fields: (t) => ({
    token: t.field({ type: TokenRef, description: 'The token and the credentials issued beside it.', resolve: fromResult((r) => r) }),
    user: t.field({
      type: UserRef,
      description:
        'The user logged in, read with the token just issued. A request sent without a token reads everything under it (its ' +
        "groups, conversations, messages) as this user; one sent with a token reads only the user's own fields so.",
      resolve: fromResult((r, ctx) => ({ id: r.user_id, as: ctx.signedIn(r.user_id, r.token) })),
    }),
  }),
});

// The service answers 10000 both for an unknown user and for a wrong password.
const wrongCredentials = { 10000: { code: 'UNAUTHENTICATED' } } as const;

/** The password and device of every login. */
const credentials = (t: InputFieldBuilder<SchemaTypes, 'InputObject'>) => ({
  password: t.string({ required: true, description: 'Password.' }),
  deviceGuid: t.string({ required: false, description: 'Device ID; when given, the device is registered and its pushToken returned.' }),
});

const LOGIN =
  'A wrong name or password is a userError UNAUTHENTICATED. A request sent without a token acts as the user logged in from ' +
  'then on (the payload and the later fields of the operation).';

/** A login's answer; a request that came without a token acts as its user from now on (GatewayContext.signedIn). */
function signIn(ctx: GatewayContext, reply: { data: TokenRecord }): TokenRecord {
  ctx.signedIn(reply.data.user_id, reply.data.token);
  return reply.data;
}

mutation('loginById', {
  description: `Get a token for a user by user ID and password. ${LOGIN}`,
  endpoints: ['POST /token/id'],
  payload: LoginPayloadRef,
  refusals: wrongCredentials,
  signIn: (input) => [`id:${String(input.userId)}`],
  inputDescription: 'User ID and password.',
  input: (t) => ({ userId: t.field(idInput({ for: 'User', required: true, description: 'User ID.' })), ...credentials(t) }),
  resolve: async (input, ctx) =>
    signIn(
      ctx,
      await ctx.rest.call('POST /token/id', {
        user_id: input.userId,
        password: input.password,
        device_guid: orUndefined(input.deviceGuid),
      }),
    ),
});

mutation('loginByName', {
  description: `Get a token for a user by user name and password. ${LOGIN}`,
  endpoints: ['POST /token/user'],
  payload: LoginPayloadRef,
  refusals: wrongCredentials,
  signIn: (input) => [loginName(input.username)],
  inputDescription: 'User name and password.',
  input: (t) => ({ username: t.string({ required: true, description: 'User name.' }), ...credentials(t) }),
  resolve: async (input, ctx) =>
    signIn(
      ctx,
      await ctx.rest.call('POST /token/user', {
        name: input.username,
        password: input.password,
        device_guid: orUndefined(input.deviceGuid),
      }),
    ),
});

mutation('loginByLoginName', {
  description: `Get a token for a user by login name (user name, mobile number or e-mail) and password. ${LOGIN}`,
  endpoints: ['POST /token/login'],
  payload: LoginPayloadRef,
  refusals: wrongCredentials,
  signIn: (input) => [loginName(input.loginName)],
  inputDescription: 'Login name and password.',
  input: (t) => ({ loginName: t.string({ required: true, description: 'User name, mobile number or e-mail.' }), ...credentials(t) }),
  resolve: async (input, ctx) =>
    signIn(
      ctx,
      await ctx.rest.call('POST /token/login', {
        login_name: input.loginName,
        password: input.password,
        device_guid: orUndefined(input.deviceGuid),
      }),
    ),
});
