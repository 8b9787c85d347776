// Registration (no access-token needed). A registration answers the new user's settings record,
// as the service does: its userId (and user, for admin callers) names the new user.
import { builder, reaches } from '../core/builder';
import { nonBlank, nonEmptyList } from '../core/inputs';
import { UserBatchResultRef } from './admin';
import { orUndefined } from './writes';
import { UserSettingsRef } from './settings';

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

builder.mutationFields((t) => ({
  registerUser: t.field({
    type: UserSettingsRef,
    description: "Register a user; answers the new user's settings (userId names the user).",
    extensions: reaches('POST /user/register/v2'),
    args: { input: t.arg({ type: RegisterUserInput, required: true, description: 'User name and password.' }) },
    resolve: async (_root, { input }, ctx) => (await ctx.rest.call('POST /user/register/v2', credentials(input, 'input'))).data,
  }),
  registerUserWithPush: t.field({
    type: UserSettingsRef,
    description: "Register a user with push information; answers the new user's settings (userId names the user).",
    extensions: reaches('POST /user/register/push'),
    args: { input: t.arg({ type: RegisterUserWithPushInput, required: true, description: 'Credentials and push information.' }) },
    resolve: async (_root, { input }, ctx) => {
      const params = {
        ...credentials(input, 'input'),
        alias: orUndefined(input.alias),
        device_guid: orUndefined(input.deviceGuid),
        push_token: orUndefined(input.pushToken),
        sign: orUndefined(input.sign),
      };
      return (await ctx.rest.call('POST /user/register/push', params)).data;
    },
  }),
  registerUsers: t.field({
    type: [UserBatchResultRef],
    description: 'Register several users; one result per entry, in order (a taken name fails that entry alone).',
    extensions: reaches('POST /user/register/batch'),
    args: { users: t.arg({ type: [RegisterUserInput], required: true, description: 'User names and passwords (at least one).' }) },
    resolve: async (_root, a, ctx) => {
      const list = nonEmptyList('users', a.users).map((u, i) => credentials(u, `users[${i}]`));
      return (await ctx.rest.call('POST /user/register/batch', { list })).data;
    },
  }),
}));
