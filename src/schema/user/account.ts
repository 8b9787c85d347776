// Passwords and deletion: the acting user's own (with its password), or any user's through the
// caller's admin token (userId arguments act as that user via the user_id header).
import { builder, reaches } from '../core/builder';
import { badUserInput, nonBlank } from '../core/inputs';
import { actingUser, changed, orUndefined, UserPayloadRef } from './writes';

const ChangePasswordInput = builder.inputType('ChangePasswordInput', {
  description: 'The old password and the new one.',
  fields: (t) => ({
    oldPassword: t.string({ required: true, description: 'The current password.' }),
    newPassword: t.string({ required: true, description: 'The new password.' }),
  }),
});

builder.mutationFields((t) => ({
  changePassword: t.field({
    type: UserPayloadRef,
    description: "Change the acting user's password, giving the old one.",
    extensions: reaches('POST /user/change_password'),
    args: { input: t.arg({ type: ChangePasswordInput, required: true, description: 'The old and new passwords.' }) },
    resolve: async (_root, { input }, ctx) => {
      const params = { old_password: input.oldPassword, new_password: nonBlank('input.newPassword', input.newPassword) };
      return changed((await ctx.rest.call('POST /user/change_password', params)).data, actingUser(ctx));
    },
  }),

  changeUserPassword: t.field({
    type: UserPayloadRef,
    description: "Set a user's password without the old one (admin token).",
    extensions: reaches('POST /user/change_password_admin'),
    args: {
      userId: t.arg({ type: 'ID', required: true, description: 'The user whose password is set.' }),
      password: t.arg.string({ required: true, description: 'The new password.' }),
    },
    resolve: async (_root, a, ctx) => {
      const password = nonBlank('password', a.password);
      const reply = await ctx.restAs(a.userId).call('POST /user/change_password_admin', { password });
      return changed(reply.data, { id: a.userId });
    },
  }),

  deleteUser: t.boolean({
    description:
      'Delete a user: the acting user with its password (user token), or the user named by userId (or by the user_id ' +
      'header) with an admin token, which needs no password. Answers whether the service reported success.',
    extensions: reaches('DELETE /user/delete'),
    args: {
      password: t.arg.string({ required: false, description: "The user's password; required with a user token." }),
      userId: t.arg({ type: 'ID', required: false, description: 'The user to delete (admin token); omitted: the acting user.' }),
    },
    resolve: async (_root, a, ctx) => {
      const acting = a.userId ?? actingUser(ctx).id;
      // Without a user to act as, the caller is a user deleting itself: the service needs its password.
      if (acting === undefined && !a.password) throw badUserInput('password', 'is required to delete the user of a user token');
      const rest = acting === undefined ? ctx.rest : ctx.restAs(acting);
      return (await rest.call('DELETE /user/delete', { password: orUndefined(a.password) })).data;
    },
  }),
}));
