// A friend kept or let go: updateFriend (the acting user's notes on a friend, 8.9) and removeFriend (8.8).
import { badUserInput } from '../core/inputs';
import { idInput } from '../core/id-kinds';
import { mutation } from '../core/mutation';
import { contactChange, contactPayload, removedIdField } from './payloads';

mutation('updateFriend', {
  description: "Set the acting user's notes on a friend: remark name, extension string, mute. Fields left out keep their value.",
  endpoints: ['PUT /roster/ext'],
  payload: contactPayload('UpdateFriendPayload', 'The outcome of updateFriend: the friend with the new notes (User.alias, ext, muted).'),
  refusals: { 10007: { code: 'NOT_FRIENDS', field: ['input', 'userId'] } },
  inputDescription: 'The friend and the notes to set.',
  input: (t) => ({
    userId: t.field(idInput({ for: 'User', required: true, description: 'The friend.' })),
    alias: t.string({ required: false, description: 'Remark name ("" clears it).' }),
    ext: t.string({ required: false, description: 'Extension string for the app\'s own use ("" clears it).' }),
    muted: t.boolean({ required: false, description: "true: no notifications of this friend's messages." }),
  }),
  resolve: async (input, ctx) => {
    if (input.alias == null && input.ext == null && input.muted == null) {
      throw badUserInput('input', 'give at least one of alias, ext and muted');
    }
    const reply = await ctx.rest.call('PUT /roster/ext', {
      user_id: input.userId,
      alias: input.alias ?? undefined,
      ext: input.ext ?? undefined,
      mute_notification: input.muted ?? undefined,
    });
    return contactChange(reply.data, input.userId);
  },
});

mutation('removeFriend', {
  description: 'End a friendship, on both sides: each then sees the other as FORMER_FRIEND, and both lose their notes.',
  endpoints: ['DELETE /roster/delete'],
  payload: contactPayload('RemoveFriendPayload', "The outcome of removeFriend: the former friend and the acting user's lists.", (t) => ({
    removedFriendId: removedIdField(t, "The former friend's ID: it leaves the acting user's friends lists (Relay @deleteEdge)."),
  })),
  refusals: { 10007: { code: 'NOT_FRIENDS', field: ['userId'] } },
  id: { name: 'userId', for: 'User', description: 'The friend.' },
  resolve: async (userId, ctx) => contactChange((await ctx.rest.call('DELETE /roster/delete', { user_id: userId })).data, userId),
});
