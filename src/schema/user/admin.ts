// Administration of users (admin token): the user list, bans, and the batch profile and avatar
// writes with their per-user results.
import type { GatewayContext } from '../../context';
import type { Int64 } from '../../rest/json';
import type { UserBatchResult, UserListElement } from '../../rest/records';
import { builder, reaches } from '../core/builder';
import { connectionOf, firstOf, offsetConnection, offsetOf, pageArgs } from '../core/connection';
import { fromResult, mutation, payloadType } from '../core/mutation';
import { UserStatus } from './enums';
import { nonEmptyList } from '../core/inputs';
import { type UserParent, UserRef } from '../core/refs';
import { profileParams } from './user';
import { forgetPublicFaces } from './peers';
import { forgetUserStatuses } from './status';
import { MAX_USERS_PAGE, readUsersPage } from './user-list';
import { orUndefined } from './writes';
import { idInput, idListInput } from '../core/id-kinds';

// ---- per-user results of the batch endpoints ----

/** user_id 0 stands for "no user" in a failed entry (a registration that created none). */
const userIdOf = (r: UserBatchResult): Int64 | null => (Number(r.user_id) === 0 ? null : r.user_id);

const UserBatchResultRef = builder.objectRef<UserBatchResult>('UserBatchResult').implement({
  description: 'The outcome of one entry of a batch write: each entry succeeds or fails alone.',
  fields: (t) => ({
    success: t.exposeBoolean('success', { nullable: false, description: 'Whether this entry was applied.' }),
    reason: t.string({
      description: 'Cause of failure; null when the entry succeeded.',
      resolve: (r) => (r.success || !r.reason ? null : r.reason),
    }),
    userId: t.field({
      type: 'ID',
      description: 'User ID of the entry; null when there is none (a failed registration).',
      resolve: userIdOf,
    }),
    username: t.string({ description: 'User name (registrations only).', resolve: (r) => r.username ?? null }),
    user: t.field({
      type: UserRef,
      description: 'The user of the entry, read lazily (admin token); null when there is none.',
      resolve: (r): UserParent | null => {
        const id = userIdOf(r);
        return id === null ? null : { id };
      },
    }),
  }),
});

// ---- the user list ----

const UserListEntryRef = builder.objectRef<UserListElement>('UserListEntry').implement({
  description: 'A user of the app as the user list shows it.',
  fields: (t) => ({
    id: t.field({ type: 'ID', nullable: false, description: 'User ID.', resolve: (e) => e.user_id }),
    username: t.exposeString('username', { description: 'User name.' }),
    // The spec's int32 codes as the enum's values; graphql-js reports an unknown code on this field.
    status: t.field({ type: UserStatus, description: 'Account state.', resolve: (e) => e.status as 0 | 1 }),
    user: t.field({
      type: UserRef,
      nullable: false,
      description: 'The user, for its other fields (read lazily).',
      resolve: (e) => ({ id: e.user_id }),
    }),
  }),
});

const UserListConnection = connectionOf('UserListEntry', UserListEntryRef, 'user list entry');

const DEFAULT_USERS_PAGE = 50;

/**
 * GET /user/list pages by number and gives no total. The cursor is an offset (connection.ts): a
 * page that starts inside a service page reads that page and the next, and keeps `first` of them.
 * A full service page means more may follow. It is the one list whose cursor is not anchored on
 * an item: a page number cannot start at an item, and the spec states no order for the list, so
 * an anchor that moved could only be found by reading pages back one by one. (The emulator lists
 * by ID, so new users arrive at the end; only a deletion before the offset shifts a page, by one.)
 */
async function usersAt(ctx: GatewayContext, offset: number, size: number) {
  const inner = offset % size;
  const pageNum = (offset - inner) / size + 1;
  const read = (n: number) => readUsersPage(ctx.rest, n, size);
  const pages = inner === 0 ? [await read(pageNum)] : await Promise.all([read(pageNum), read(pageNum + 1)]);
  const full = pages[pages.length - 1]!.length >= size;
  return { users: pages.flat().slice(inner, inner + size), full };
}

builder.queryField('users', (t) =>
  t.field({
    type: UserListConnection,
    nullable: false,
    description: 'The users of the app, by ID (admin token). No total count is given by the service.',
    extensions: reaches('GET /user/list'),
    args: pageArgs(DEFAULT_USERS_PAGE, MAX_USERS_PAGE),
    resolve: async (_root, a, ctx) => {
      const size = firstOf(a, DEFAULT_USERS_PAGE, MAX_USERS_PAGE);
      const offset = offsetOf(a.after);
      const { users, full } = await usersAt(ctx, offset, size);
      return offsetConnection(users, offset, full);
    },
  }),
);

// ---- bans ----

interface UsersChange {
  ok: boolean;
  userIds: readonly Int64[];
}

const UsersPayloadRef = payloadType<UsersChange>('UsersPayload', {
  description: 'The answer to a change of several users: whether the service accepted it, and the users.',
  ok: (c) => c.ok,
  fields: (t) => ({
    users: t.field({
      type: [UserRef],
      description: 'The changed users (read lazily).',
      resolve: fromResult((c) => c.userIds.map((id) => ({ id }))),
    }),
  }),
});

/** The per-entry results of a batch write: `ok` when every entry succeeded. */
export const UserBatchPayloadRef = payloadType<UserBatchResult[]>('UserBatchPayload', {
  description: 'The answer to a batch write: one result per entry, in order; each entry succeeds or fails alone.',
  ok: (results) => results.every((r) => r.success),
  fields: (t) => ({
    results: t.field({ type: [UserBatchResultRef], description: 'One result per entry, in order.', resolve: fromResult((r) => r) }),
  }),
});

const BANS = [
  { name: 'disableUsers', endpoint: 'PUT /user/disable', description: 'Ban users (admin token): their status becomes BANNED.' },
  { name: 'enableUsers', endpoint: 'PUT /user/enable', description: 'Lift the ban of users (admin token): their status becomes NORMAL.' },
] as const;

for (const ban of BANS) {
  mutation(ban.name, {
    description: ban.description,
    endpoints: [ban.endpoint],
    payload: UsersPayloadRef,
    inputDescription: 'The users.',
    input: (t) => ({ userIds: t.field(idListInput({ for: 'User', required: true, description: 'The users (at least one).' })) }),
    resolve: async (input, ctx) => {
      const list = nonEmptyList('input.userIds', input.userIds);
      try {
        const reply = await ctx.rest.call(ban.endpoint, { list: [...list] });
        return { ok: reply.data !== false, userIds: list };
      } finally {
        // Statuses remembered from before the change would answer it wrong for a while.
        forgetUserStatuses(ctx);
      }
    },
  });
}

// ---- batch profile writes ----

const UserAvatarInput = builder.inputType('UserAvatarInput', {
  description: "One user's new avatar.",
  fields: (t) => ({
    userId: t.field(idInput({ for: 'User', required: true, description: 'User ID.' })),
    avatar: t.string({ required: true, description: 'Avatar URL.' }),
  }),
});

const UserProfileInput = builder.inputType('UserProfileInput', {
  description: "One user's profile fields to set; absent fields keep their value.",
  fields: (t) => ({
    userId: t.field(idInput({ for: 'User', required: false, description: 'User ID; omitted: the user named by the user_id header.' })),
    description: t.string({ required: false, description: 'Self description.' }),
    nickName: t.string({ required: false, description: 'Nickname.' }),
    privateInfo: t.string({ required: false, description: 'Private extension information, visible only to the user.' }),
    publicInfo: t.string({ required: false, description: 'Public extension information, visible to friends and strangers.' }),
  }),
});

mutation('setUserAvatars', {
  description: 'Set the avatars of several users (admin token); one result per entry, in order.',
  endpoints: ['PUT /user/avatar/batch'],
  payload: UserBatchPayloadRef,
  inputDescription: 'The users and their avatars.',
  input: (t) => ({
    avatars: t.field({ type: [UserAvatarInput], required: true, description: 'The users and their avatars (at least one).' }),
  }),
  resolve: async (input, ctx) => {
    const list = nonEmptyList('input.avatars', input.avatars).map((e) => ({ user_id: e.userId, avatar: e.avatar }));
    const { data } = await ctx.rest.call('PUT /user/avatar/batch', { list });
    forgetPublicFaces(
      ctx,
      list.map((e) => e.user_id),
    );
    return data;
  },
});

mutation('updateUserProfiles', {
  description: 'Set profile fields of several users (admin token); one result per entry, in order.',
  endpoints: ['PUT /user/profile/batch'],
  payload: UserBatchPayloadRef,
  inputDescription: 'The users and their fields.',
  input: (t) => ({
    profiles: t.field({ type: [UserProfileInput], required: true, description: 'The users and their fields (at least one).' }),
  }),
  resolve: async (input, ctx) => {
    const list = nonEmptyList('input.profiles', input.profiles).map((e) => ({ user_id: orUndefined(e.userId), ...profileParams(e) }));
    const { data } = await ctx.rest.call('PUT /user/profile/batch', { list });
    forgetPublicFaces(
      ctx,
      list.flatMap((e) => (e.user_id === undefined ? [] : [e.user_id])),
    );
    return data;
  },
});
