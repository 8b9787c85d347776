// What the group files share: the payloads of group mutations, the per-user operation result,
// input checks, time conversions, and the two table helpers most group mutations are made with.
import type { ArgBuilder, InputFieldMap, InputShapeFromFields } from '@pothos/core';
import type { Int64 } from '../../rest/json';
import type { EndpointName } from '../../rest/endpoints';
import type * as R from '../../rest/records';
import type { RequestClient } from '../../rest/request-client';
import { builder, reaches, type SchemaTypes } from '../core/builder';
import { badUserInput } from '../core/inputs';
import { GroupRef, type UserParent, UserRef } from '../core/refs';

type Types = SchemaTypes;

// ---- input checks (before any REST call) ----

/** The gateway's bound on ID lists (the spec gives none); keeps one request's fan-out sane. */
export const MAX_IDS = 1000;

export function idList<T>(field: string, ids: readonly T[]): T[] {
  if (ids.length === 0) throw badUserInput(field, 'must list at least one ID');
  if (ids.length > MAX_IDS) throw badUserInput(field, `must list at most ${MAX_IDS} IDs`);
  return [...ids];
}

// ---- conversions ----

/** A millisecond time of the service; 0 (or below) means none. */
export const msOrNull = (ms: Int64): Int64 | null => (ms > 0 ? ms : null);

/** Times the spec types as strings (blacklist created_at, invitation updated_at): ms digits or ISO 8601. */
export function timeFromString(text: string): number | null {
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  return Number.isFinite(ms) && ms > 0 ? ms : null;
}

/** The group-wide ban of a group (ban_expire_time, in seconds; -1 permanent; 0 or past: none). */
export function groupBan(banExpireTime: Int64, nowMs = Date.now()): { active: boolean; expiresAt: number | null } {
  const seconds = Number(banExpireTime);
  if (seconds === -1) return { active: true, expiresAt: null };
  const expiresAt = seconds * 1000;
  return seconds > 0 && expiresAt > nowMs ? { active: true, expiresAt } : { active: false, expiresAt: null };
}

/**
 * A code of the service as a value of its enum. The enum's values are the codes; a code outside
 * them (a newer kind of group, say) fails that field alone when it is written out.
 */
export const code = <E>(_enum: E, value: number) => value as CodeOf<E>;
type CodeOf<E> = E extends PothosSchemaTypes.EnumRef<Types, infer V> ? V : never;

/** A user the service names by ID; 0 names nobody (an action of the admin token itself). */
export const userUnlessBackend = (id: Int64): UserParent | null => (Number(id) === 0 ? null : { id });

// ---- payloads ----

export interface GroupPayloadShape {
  ok: boolean;
  groupId: Int64 | null;
}

/** The `group` field of a payload that holds the group's ID. */
export const payloadGroupField = (description = 'The group as it is now (read only when selected).') =>
  ({
    type: GroupRef,
    description,
    resolve: (p: { groupId: Int64 | null }) => (p.groupId === null ? null : { id: p.groupId }),
  }) as const;

export const GroupPayloadRef = builder.objectRef<GroupPayloadShape>('GroupPayload').implement({
  description: 'The outcome of a change to a group.',
  fields: (t) => ({
    ok: t.exposeBoolean('ok', { nullable: false, description: 'Whether the service made the change.' }),
    group: t.field(payloadGroupField()),
  }),
});

export const GroupUserResultRef = builder.objectRef<R.OperationResult>('GroupUserResult').implement({
  description: 'The outcome of a group operation for one user.',
  fields: (t) => ({
    userId: t.field({ type: 'ID', nullable: false, description: 'The user the operation concerned.', resolve: (r) => r.user_id }),
    success: t.boolean({ nullable: false, description: 'Whether it succeeded for this user.', resolve: (r) => r.result === 'success' }),
    reason: t.string({ description: 'Why it failed, or a note on the success; null when the service gives none.', resolve: (r) => r.reason || null }),
    user: t.field({ type: UserRef, description: 'The user.', resolve: (r) => ({ id: r.user_id }) }),
  }),
});

export interface GroupUsersPayloadShape {
  groupId: Int64;
  results: R.OperationResult[];
}

export const GroupUsersPayloadRef = builder.objectRef<GroupUsersPayloadShape>('GroupUsersPayload').implement({
  description: 'The outcome of a group operation on several users: one result per user listed.',
  fields: (t) => ({
    ok: t.boolean({
      nullable: false,
      description: 'Whether it succeeded for every user.',
      resolve: (p) => p.results.every((r) => r.result === 'success'),
    }),
    results: t.field({ type: [GroupUserResultRef], nullable: false, description: 'One result per user.', resolve: (p) => p.results }),
    group: t.field(payloadGroupField()),
  }),
});

export interface GroupUserPayloadShape {
  groupId: Int64;
  result: R.OperationResult;
}

export const GroupUserPayloadRef = builder.objectRef<GroupUserPayloadShape>('GroupUserPayload').implement({
  description: 'The outcome of a group operation on one user.',
  fields: (t) => ({
    ok: t.boolean({ nullable: false, description: 'Whether it succeeded.', resolve: (p) => p.result.result === 'success' }),
    result: t.field({ type: GroupUserResultRef, nullable: false, description: 'The result for the user.', resolve: (p) => p.result }),
    group: t.field(payloadGroupField()),
  }),
});

// ---- table helpers ----

type Args = ArgBuilder<Types>;

export const groupIdArg = (arg: Args, description = 'Group ID.') => arg({ type: 'ID', required: true, description });

/** The ok of a write answering boolean data; an answered object (content not shown) is a success. */
export const okOf = (data: unknown): boolean => data !== false;

/**
 * A mutation on one group that answers GroupPayload: `groupId` plus the arguments `args` adds;
 * `write` makes the one REST call (after its own checks).
 */
export function groupMutation<A extends InputFieldMap>(
  name: string,
  o: {
    description: string;
    endpoint: EndpointName;
    args: (arg: Args) => A;
    write: (rest: RequestClient, groupId: Int64, args: InputShapeFromFields<A>) => Promise<{ data: unknown }>;
  },
): void {
  builder.mutationField(name, (t) =>
    t.field({
      type: GroupPayloadRef,
      description: o.description,
      extensions: reaches(o.endpoint),
      args: { groupId: groupIdArg(t.arg), ...o.args(t.arg) },
      resolve: async (_root, args, ctx) => {
        // The args are exactly groupId plus A's, but TypeScript cannot evaluate Pothos's shape
        // of a generic argument map inside this generic function.
        const given = args as unknown as { groupId: Int64 } & InputShapeFromFields<A>;
        const reply = await o.write(ctx.rest, given.groupId, given);
        return { ok: okOf(reply.data), groupId: given.groupId };
      },
    }),
  );
}

/** A batch mutation on users of one group (body group_id + user_list) answering GroupUsersPayload. */
export function userListMutation(
  name: string,
  endpoint: Extract<
    EndpointName,
    'POST /group/admin/add' | 'DELETE /group/admin/remove' | 'DELETE /group/kick' | 'POST /group/unban' | 'POST /group/block' | 'DELETE /group/unblock'
  >,
  description: string,
  usersDescription: string,
): void {
  builder.mutationField(name, (t) =>
    t.field({
      type: GroupUsersPayloadRef,
      description,
      extensions: reaches(endpoint),
      args: {
        groupId: groupIdArg(t.arg),
        userIds: t.arg({ type: ['ID'], required: true, description: usersDescription }),
      },
      resolve: async (_root, args, ctx) => {
        const userList = idList('userIds', args.userIds);
        const reply = await ctx.rest.call(endpoint, { group_id: args.groupId, user_list: userList });
        return { groupId: args.groupId, results: reply.data };
      },
    }),
  );
}
