// Registration (no access-token needed). A registration answers the new user; the service's
// answer, the new user's settings record, is there too.
import type { GraphQLResolveInfo } from 'graphql';
import type { GatewayContext } from '../../context';
import { selectsBeyond } from '../core/selection';
import type { UserSettings } from '../../rest/records';
import { builder, reaches } from '../core/builder';
import { nonBlank, nonEmptyList } from '../core/inputs';
import { fromResult, mutation, payloadType } from '../core/mutation';
import { type UserParent, UserRef } from '../core/refs';
import { UserBatchPayloadRef } from './admin';
import { orUndefined } from './writes';
import { UserSettingsRef } from './settings';
import { listLength } from '../core/fan-out';

const RegisterUserInput = builder.inputType('RegisterUserInput', {
  description: 'The credentials of a new user.',
  fields: (t) => ({
    username: t.string({ required: true, description: 'User name (unique; usable as login name).' }),
    password: t.string({ required: true, description: 'Password.' }),
  }),
});

const RegisterUserWithPushInput = builder.inputType('RegisterUserWithPushInput', {
  description: 'The credentials of a new user, with its push information.',
  fields: (t) => ({
    username: t.string({ required: true, description: 'User name (unique; usable as login name).' }),
    password: t.string({ required: true, description: 'Password.' }),
    alias: t.string({ required: false, description: 'Push alias.' }),
    deviceGuid: t.string({ required: false, description: 'Device ID: registers the device.' }),
    pushToken: t.string({ required: false, description: 'Push token.' }),
    sign: t.string({ required: false, description: 'Signature.' }),
  }),
});

/** The service refuses an empty user name or password. */
function credentials(input: { username: string; password: string }, field: string) {
  return { username: nonBlank(`${field}.username`, input.username), password: nonBlank(`${field}.password`, input.password) };
}

/** A new user's settings record, as the registrations answer it (its user_id names the user), and the credentials given. */
interface Registered extends UserSettings {
  credentials: { username: string; password: string };
}

/**
 * The new user, readable by whoever registered it: a caller with a token reads it as before (an
 * admin token acts as it); a caller without one (a sign-up screen) reads it with a token issued
 * for the new credentials (POST /token/user), made only when a field of `user` besides its id is selected.
 */
async function registeredUser(r: Registered, ctx: GatewayContext, info: GraphQLResolveInfo): Promise<UserParent> {
  if (ctx.caller.token !== undefined || !selectsBeyond(info, ['id', '__typename'])) return { id: r.user_id };
  const { data } = await ctx.rest.call('POST /token/user', { name: r.credentials.username, password: r.credentials.password });
  return { id: r.user_id, as: ctx.signedIn(r.user_id, data.token) };
}

const RegisterUserPayloadRef = payloadType<Registered>('RegisterUserPayload', {
  description: 'The answer to a registration: the new user, and its settings as the service answered them.',
  fields: (t) => ({
    user: t.field({
      type: UserRef,
      description:
        'The new user, its fields read lazily: as the caller when it sent a token (an admin token reads them), else with a token ' +
        'issued for the new credentials (one POST /token/user when a field besides id is selected).',
      extensions: reaches('POST /token/user'),
      resolve: (p, _a, ctx, info) => (p.result === null ? null : registeredUser(p.result, ctx, info)),
    }),
    settings: t.field({ type: UserSettingsRef, description: "The new user's settings (no extra call).", resolve: fromResult((s) => s) }),
  }),
});

const nameTaken = { 10004: { field: ['input', 'username'] } } as const;

mutation('registerUser', {
  description: 'Register a user; answers the new user. A taken name is a userError NAME_TAKEN.',
  endpoints: ['POST /user/register/v2'],
  payload: RegisterUserPayloadRef,
  refusals: nameTaken,
  fanOut: { registers: () => 1 },
  input: RegisterUserInput,
  resolve: async (input, ctx) => {
    const given = credentials(input, 'input');
    return { ...(await ctx.rest.call('POST /user/register/v2', given)).data, credentials: given };
  },
});

mutation('registerUserWithPush', {
  description: 'Register a user with push information; answers the new user. A taken name is a userError NAME_TAKEN.',
  endpoints: ['POST /user/register/push'],
  payload: RegisterUserPayloadRef,
  refusals: nameTaken,
  fanOut: { registers: () => 1 },
  input: RegisterUserWithPushInput,
  resolve: async (input, ctx) => {
    const given = credentials(input, 'input');
    const params = {
      ...given,
      alias: orUndefined(input.alias),
      device_guid: orUndefined(input.deviceGuid),
      push_token: orUndefined(input.pushToken),
      sign: orUndefined(input.sign),
    };
    return { ...(await ctx.rest.call('POST /user/register/push', params)).data, credentials: given };
  },
});

mutation('registerUsers', {
  description: 'Register several users; one result per entry, in order (a taken name fails that entry alone).',
  endpoints: ['POST /user/register/batch'],
  payload: UserBatchPayloadRef,
  // Each name registered counts against the address (a registration guesses no password: no sign-in bucket).
  fanOut: { registers: (input) => listLength(input.users) },
  inputDescription: 'The users to register.',
  input: (t) => ({
    users: t.field({ type: [RegisterUserInput], required: true, description: 'User names and passwords (at least one).' }),
  }),
  resolve: async (input, ctx) => {
    const list = nonEmptyList('input.users', input.users).map((u, i) => credentials(u, `input.users[${i}]`));
    return (await ctx.rest.call('POST /user/register/batch', { list })).data;
  },
});
