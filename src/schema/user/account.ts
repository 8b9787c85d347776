// Passwords and deletion: the acting user's own (with its password), or any user's through the
// caller's admin token (userId inputs act as that user via the user_id header).
import type { Int64 } from '../../rest/json';
import { badUserInput, nonBlank } from '../core/inputs';
import { fromResult, mutation, payloadType } from '../core/mutation';
import { byActingUser, changed, orUndefined, UserPayloadRef } from './writes';
import { actingUser } from '../core/profile';
import { idInput } from '../core/id-kinds';
import { callerName } from '../core/sign-in';

// A wrong password answers 10002 naming the password parameter (the upstream codes have nothing
// closer); our own checks run first, so after them 10002 can only mean the password was wrong.
const wrongPassword = (field: string) => ({ 10002: { code: 'UNAUTHENTICATED', field: ['input', field] } }) as const;

mutation('changePassword', {
  description: "Change the acting user's password, giving the old one. A wrong old password is a userError UNAUTHENTICATED.",
  endpoints: ['POST /user/change_password'],
  payload: UserPayloadRef,
  refusals: wrongPassword('oldPassword'),
  signIn: (_input, caller) => [callerName(caller)],
  inputDescription: 'The old password and the new one.',
  input: (t) => ({
    oldPassword: t.string({ required: true, description: 'The current password.' }),
    newPassword: t.string({ required: true, description: 'The new password.' }),
  }),
  resolve: (input, ctx) => {
    const params = { old_password: input.oldPassword, new_password: nonBlank('input.newPassword', input.newPassword) };
    return byActingUser(ctx, ctx.rest.call('POST /user/change_password', params));
  },
});

mutation('changeUserPassword', {
  description: "Set a user's password without the old one (admin token).",
  endpoints: ['POST /user/change_password_admin'],
  payload: UserPayloadRef,
  inputDescription: 'The user and the new password.',
  input: (t) => ({
    userId: t.field(idInput({ for: 'User', required: true, description: 'The user whose password is set.' })),
    password: t.string({ required: true, description: 'The new password.' }),
  }),
  resolve: async (input, ctx) => {
    const password = nonBlank('input.password', input.password);
    const reply = await ctx.restAs(input.userId).call('POST /user/change_password_admin', { password });
    return changed(reply.data, { id: input.userId });
  },
});

const DeleteUserPayloadRef = payloadType<{ ok: boolean; userId: Int64 | null }>('DeleteUserPayload', {
  description: 'The answer to deleting a user.',
  ok: (d) => d.ok,
  fields: (t) => ({
    deletedUserId: t.field({
      type: 'ID',
      description: 'The deleted user; null when a user token deleted its own user (the gateway does not read the ID first).',
      resolve: fromResult((d) => d.userId),
    }),
  }),
});

mutation('deleteUser', {
  description:
    'Delete a user: the acting user with its password (user token), or the user named by userId (or by the user_id ' +
    'header) with an admin token, which needs no password. A wrong password is a userError UNAUTHENTICATED.',
  endpoints: ['DELETE /user/delete'],
  payload: DeleteUserPayloadRef,
  refusals: wrongPassword('password'),
  // Only a password is guessed: an admin deleting a user without one is not counted.
  signIn: (input, caller) =>
    input.password === undefined || input.password === null
      ? undefined
      : [input.userId == null ? callerName(caller) : `id:${String(input.userId)}`],
  inputDescription: 'Who to delete, and the password a user token needs.',
  input: (t) => ({
    password: t.string({ required: false, description: "The user's password; required with a user token." }),
    userId: t.field(idInput({ for: 'User', required: false, description: 'The user to delete (admin token); omitted: the acting user.' })),
  }),
  resolve: async (input, ctx) => {
    const acting = input.userId ?? actingUser(ctx).id;
    // Without a user to act as, the caller is a user deleting itself: the service needs its password.
    if (acting === undefined && !input.password) throw badUserInput('input.password', 'is required to delete the user of a user token');
    const rest = acting === undefined ? ctx.rest : ctx.restAs(acting);
    const reply = await rest.call('DELETE /user/delete', { password: orUndefined(input.password) });
    return { ok: reply.data !== false, userId: acting ?? null };
  },
});
