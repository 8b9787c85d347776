// What the group files share: the payloads of group mutations, the per-user operation result,
// input checks, time conversions, and the IDs and fetches of the group's Nodes.
import type { ObjectFieldBuilder } from '@pothos/core';
import type { GatewayContext } from '../../context';
import type { Int64 } from '../../rest/json';
import type * as R from '../../rest/records';
import { builder, reaches, type SchemaTypes } from '../core/builder';
import { fromResult, payloadType } from '../core/mutation';
import { entryRefusal, UserErrorCode, type UserErrorShape } from '../core/user-errors';
import { badUserInput } from '../core/inputs';
import { cacheIdOf } from '../core/cache-id';
import { deprecatedFor, REMOVAL_2027_07 } from '../core/deprecation';
import { nodeId } from '../core/global-id';
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

// ---- Nodes (node(id:)) ----

/** The `id` of a group object the service names by one ID within its group (groupObjectIdFields), in the request's ID format. */
export const groupObjectId = (ctx: GatewayContext, kind: 'Announcement' | 'SharedFile', groupId: Int64, id: Int64) =>
  nodeId(ctx, kind, [groupId, id], id);

/**
 * `id` and the service's own ID field (`announcementId`, `fileId`) of a group object the service
 * names by one ID within its group. `id` keeps answering the service's ID until the client asks for
 * global IDs; the service field answers it in either format, for clients that read it from `id`.
 */
export function groupObjectIdFields<P>(
  t: ObjectFieldBuilder<SchemaTypes, P>,
  kind: 'Announcement' | 'SharedFile',
  serviceField: 'announcementId' | 'fileId',
  noun: string,
  ids: (parent: P) => readonly [groupId: Int64, id: Int64],
) {
  return {
    id: t.field({
      type: 'ID',
      nullable: false,
      description:
        `Its ID for node(id:) and client caches: a global ID with X-ID-Format: global; otherwise the ${noun} ID ` +
        `(read the service's ID from ${serviceField}).`,
      resolve: (p, _args, ctx) => groupObjectId(ctx, kind, ...ids(p)),
    }),
    [serviceField]: t.field({
      type: 'ID',
      nullable: false,
      description: `The ${noun} ID of the service, in either ID format: read service IDs here (id is a global ID with X-ID-Format: global).`,
      resolve: (p) => ids(p)[1],
    }),
  };
}

// ---- payloads ----

/** The `group` field of a payload whose result holds the group's ID. */
export const payloadGroupField = <T extends { groupId: Int64 | null }>(description = 'The group as it is now (read only when selected).') =>
  ({
    type: GroupRef,
    description,
    resolve: fromResult((p: T) => (p.groupId === null ? null : { id: p.groupId })),
  }) as const;

/**
 * Users a change removed from the group (kicked, blocked, or the acting user who left): the
 * payload names them so a client drops them from its member lists. Member IDs are the cache IDs
 * of Member (member.ts), here built the same way.
 */
export interface Removal {
  /** The removed users; a promise when the ID is read only if selected (the acting user's own). */
  removed?: () => Promise<readonly Int64[]> | readonly Int64[];
}

export interface GroupChange extends Removal {
  ok: boolean;
  groupId: Int64 | null;
  /** The announcement deleteAnnouncement deleted. */
  deletedAnnouncement?: Int64;
}

type Fields = PothosSchemaTypes.ObjectFieldBuilder<Types, { result: (Removal & { groupId: Int64 | null }) | null }>;

/** removedUserIds and removedMemberIds, shared by the group payloads. */
function removalFields(t: Fields) {
  const removed = async (p: { result: (Removal & { groupId: Int64 | null }) | null }) =>
    p.result?.removed ? await p.result.removed() : [];
  // The removed users' Member IDs in the change's group (cache-id.ts builds them as Member.id does).
  const removedMembers = async (p: { result: (Removal & { groupId: Int64 | null }) | null }, _args: object, ctx: GatewayContext) => {
    const groupId = p.result?.groupId;
    if (groupId == null) return [];
    return (await removed(p)).map((userId) => cacheIdOf(ctx, 'Member', [groupId, userId]));
  };
  return {
    removedUserIds: t.field({
      type: ['ID'],
      nullable: false,
      description:
        'Users this change removed from the group (kicked, blocked, or the acting user who left: its ID is read from its ' +
        'profile); empty for other changes.',
      extensions: reaches('GET /user/profile'),
      resolve: removed,
    }),
    removedMemberIds: t.field({
      type: ['String'],
      nullable: false,
      description:
        "The Member IDs (Member.id, in the request's ID format) of those users in this group, for a normalized cache; " +
        'empty for other changes.',
      deprecationReason: deprecatedFor('`removedMemberNodeIds` (the same IDs, typed ID as Member.id is)', REMOVAL_2027_07),
      extensions: reaches('GET /user/profile'),
      resolve: removedMembers,
    }),
    removedMemberNodeIds: t.field({
      type: ['ID'],
      nullable: false,
      description:
        "The removed Members' IDs, as Member.id answers them (the request's ID format), typed ID: the IDs a normalized cache " +
        "keys them by (Apollo: cache.identify({ __typename: 'Member', id })), for eviction or Relay's @deleteEdge; " +
        'empty for other changes.',
      extensions: reaches('GET /user/profile'),
      resolve: removedMembers,
    }),
  };
}

export const GroupPayloadRef = payloadType<GroupChange>('GroupPayload', {
  description: 'The outcome of a change to a group.',
  ok: (c) => c.ok,
  fields: (t) => ({
    group: t.field(payloadGroupField()),
    ...removalFields(t),
    deletedAnnouncementId: t.field({
      type: 'ID',
      description:
        "The announcement deleteAnnouncement deleted, as its `id` answers (the request's ID format), for Relay's @deleteEdge or " +
        "a client cache's eviction; null for other changes, or when the service refused.",
      resolve: (p, _args, ctx) => {
        const c = p.result;
        if (!c?.ok || c.groupId === null || c.deletedAnnouncement === undefined) return null;
        return groupObjectId(ctx, 'Announcement', c.groupId, c.deletedAnnouncement);
      },
    }),
  }),
});

/** The per-user result, with the input path of its user (for its userError). */
export interface EntryResult extends R.OperationResult {
  field: readonly string[];
}

const failed = (r: R.OperationResult) => r.result !== 'success';

const GroupUserResultRef = builder.objectRef<EntryResult>('GroupUserResult').implement({
  description: 'The outcome of a group operation for one user.',
  fields: (t) => ({
    userId: t.field({ type: 'ID', nullable: false, description: 'The user the operation concerned.', resolve: (r) => r.user_id }),
    success: t.boolean({ nullable: false, description: 'Whether it succeeded for this user.', resolve: (r) => !failed(r) }),
    code: t.field({
      type: UserErrorCode,
      description: "Why it failed for this user (the code of this entry's userError); null on success.",
      resolve: (r) => (failed(r) ? entryRefusal(r.reason, r.field).code : null),
    }),
    reason: t.string({
      description: "Why it failed, or a note on the success, in the service's words; null when the service gives none.",
      resolve: (r) => r.reason || null,
    }),
    user: t.field({ type: UserRef, description: 'The user.', resolve: (r) => ({ id: r.user_id }) }),
  }),
});

/** The userErrors of the failed entries. */
const entryErrors = (results: readonly EntryResult[]): UserErrorShape[] =>
  results.filter(failed).map((r) => entryRefusal(r.reason, r.field));

/**
 * The service's results, each with the input path of its user: the first input entry of the same
 * ID not matched yet (the service answers one result per listed user, in order).
 */
export function withFields(results: readonly R.OperationResult[], userIds: readonly Int64[], field: readonly string[]): EntryResult[] {
  const taken = new Set<number>();
  return results.map((r, i) => {
    let at = userIds.findIndex((id, j) => !taken.has(j) && String(id) === String(r.user_id));
    if (at < 0) at = i;
    taken.add(at);
    return { ...r, field: [...field, String(at)] };
  });
}

interface GroupUsersChange extends Removal {
  groupId: Int64;
  results: EntryResult[];
  /** Users taken off the blacklist (unblockGroupUsers): their entries are gone. */
  unblocked?: readonly Int64[];
}

export const GroupUsersPayloadRef = payloadType<GroupUsersChange>('GroupUsersPayload', {
  description:
    'The outcome of a group operation on several users: one result per user listed; ok when it succeeded for every user. ' +
    'Each failed entry is also a userError whose field is its input path (["input", "userIds", "3"]).',
  entryErrors: (c) => entryErrors(c.results),
  fields: (t) => ({
    results: t.field({ type: [GroupUserResultRef], description: 'One result per user.', resolve: fromResult((c) => c.results) }),
    group: t.field(payloadGroupField()),
    ...removalFields(t),
    removedBlockedMemberIds: t.field({
      type: ['ID'],
      nullable: false,
      description:
        "The blacklist entries unblockGroupUsers removed, as BlockedMember.id answers them (the request's ID format), for " +
        "Relay's @deleteEdge or a client cache's eviction: those of the users it succeeded for; empty for other changes.",
      resolve: (p, _args, ctx) => {
        const c = p.result;
        return c === null ? [] : (c.unblocked ?? []).map((userId) => cacheIdOf(ctx, 'BlockedMember', [c.groupId, userId]));
      },
    }),
  }),
});

interface GroupUserChange {
  groupId: Int64;
  result: EntryResult;
}

export const GroupUserPayloadRef = payloadType<GroupUserChange>('GroupUserPayload', {
  description: 'The outcome of a group operation on one user; a failure is also a userError naming the input field of the user.',
  entryErrors: (c) => entryErrors([c.result]),
  fields: (t) => ({
    result: t.field({ type: GroupUserResultRef, description: 'The result for the user.', resolve: fromResult((c) => c.result) }),
    group: t.field(payloadGroupField()),
  }),
});

/** The ok of a write answering boolean data; an answered object (content not shown) is a success. */
export const okOf = (data: unknown): boolean => data !== false;

export const GROUP_ID = 'Group ID.';
