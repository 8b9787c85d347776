// What the group files share: the payloads of group mutations, the per-user operation result,
// input checks and time conversions.
import type { Int64 } from '../../rest/json';
import type * as R from '../../rest/records';
import { builder, type SchemaTypes } from '../core/builder';
import { fromResult, payloadType } from '../core/mutation';
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

/** The `group` field of a payload whose result holds the group's ID. */
export const payloadGroupField = <T extends { groupId: Int64 | null }>(description = 'The group as it is now (read only when selected).') =>
  ({
    type: GroupRef,
    description,
    resolve: fromResult((p: T) => (p.groupId === null ? null : { id: p.groupId })),
  }) as const;

export interface GroupChange {
  ok: boolean;
  groupId: Int64 | null;
}

export const GroupPayloadRef = payloadType<GroupChange>('GroupPayload', {
  description: 'The outcome of a change to a group.',
  ok: (c) => c.ok,
  fields: (t) => ({ group: t.field(payloadGroupField()) }),
});

const GroupUserResultRef = builder.objectRef<R.OperationResult>('GroupUserResult').implement({
  description: 'The outcome of a group operation for one user.',
  fields: (t) => ({
    userId: t.field({ type: 'ID', nullable: false, description: 'The user the operation concerned.', resolve: (r) => r.user_id }),
    success: t.boolean({ nullable: false, description: 'Whether it succeeded for this user.', resolve: (r) => r.result === 'success' }),
    reason: t.string({
      description: 'Why it failed, or a note on the success; null when the service gives none.',
      resolve: (r) => r.reason || null,
    }),
    user: t.field({ type: UserRef, description: 'The user.', resolve: (r) => ({ id: r.user_id }) }),
  }),
});

interface GroupUsersChange {
  groupId: Int64;
  results: R.OperationResult[];
}

export const GroupUsersPayloadRef = payloadType<GroupUsersChange>('GroupUsersPayload', {
  description: 'The outcome of a group operation on several users: one result per user listed; ok when it succeeded for every user.',
  ok: (c) => c.results.every((r) => r.result === 'success'),
  fields: (t) => ({
    results: t.field({ type: [GroupUserResultRef], description: 'One result per user.', resolve: fromResult((c) => c.results) }),
    group: t.field(payloadGroupField()),
  }),
});

interface GroupUserChange {
  groupId: Int64;
  result: R.OperationResult;
}

export const GroupUserPayloadRef = payloadType<GroupUserChange>('GroupUserPayload', {
  description: 'The outcome of a group operation on one user.',
  ok: (c) => c.result.result === 'success',
  fields: (t) => ({
    result: t.field({ type: GroupUserResultRef, description: 'The result for the user.', resolve: fromResult((c) => c.result) }),
    group: t.field(payloadGroupField()),
  }),
});

/** The ok of a write answering boolean data; an answered object (content not shown) is a success. */
export const okOf = (data: unknown): boolean => data !== false;

export const GROUP_ID = 'Group ID.';
