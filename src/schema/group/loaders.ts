// Per-request loaders of the group domain, and how Group fields reach them. Summaries come from
// one POST /group/info/batch per request (which also says which groups exist); the full record
// from GET /group/info or GET /group/settings (the same record), once per group, whichever a
// field asked for first; member records from one POST /group/members/display_name per group.
// Each answer primes the others.
import DataLoader from 'dataloader';
import type { GatewayContext } from '../../context';
import { idText, type Int64 } from '../../rest/json';
import type * as R from '../../rest/records';
import { defineLoader } from '../core/loader';
import type { GroupParent } from '../core/refs';
import { recordField } from '../core/record-field';
import { MAX_PAGE } from '../core/connection';

const idKey = idText;

/** DataLoader wants failures as Error values, one per key, not a rejected batch. */
const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

const summaryOfRecord = (g: R.Group): R.GroupSummary => ({
  apply_approval: g.apply_approval,
  capacity: g.capacity,
  count: g.count,
  group_id: g.group_id,
  msg_mute_mode: g.msg_mute_mode,
  msg_push_mode: g.msg_push_mode,
  status: g.status,
  type: g.type,
  avatar: g.avatar,
  name: g.name,
  owner: g.owner_id,
});

/** The two reads that answer the whole Group record. */
type RecordVia = 'GET /group/info' | 'GET /group/settings';

/**
 * The Group record. The cache key is the group alone, so the first field to ask decides the
 * endpoint and later ones (info or settings fields alike) share its answer.
 */
const groupRecords = defineLoader(
  (ctx) =>
    new DataLoader<{ id: Int64; via: RecordVia }, R.Group, string>(
      async (keys) => {
        const batch = groupBatch(ctx);
        return Promise.all(
          keys.map(({ id, via }) =>
            ctx.rest.call(via, { group_id: id }).then((reply) => {
              batch.prime(id, summaryOfRecord(reply.data));
              return reply.data;
            }, asError),
          ),
        );
      },
      { cacheKeyFn: (k) => idKey(k.id) },
    ),
);

/** Groups per POST /group/info/batch (the cost estimate counts calls by it). */
export const GROUP_BATCH_SIZE = 1000;

/**
 * What POST /group/info/batch answers for every group the request touches, in one call per
 * GROUP_BATCH_SIZE groups: the summary, or null for an ID the batch leaves out (no such group, or a user's ID).
 */
export const groupBatch = defineLoader(
  (ctx) =>
    new DataLoader<Int64, R.GroupSummary | null, string>(
      async (ids) => {
        const reply = await ctx.rest.call('POST /group/info/batch', { group_list: [...ids] });
        const byId = new Map(reply.data.map((s) => [idKey(s.group_id), s]));
        return ids.map((id) => byId.get(idKey(id)) ?? null);
      },
      { cacheKeyFn: idKey, maxBatchSize: GROUP_BATCH_SIZE },
    ),
);

/** The group an ID names, with its summary; null when there is no such group (one batch call for all). */
export async function existingGroup(id: Int64, ctx: GatewayContext): Promise<GroupParent | null> {
  const summary = await groupBatch(ctx).load(id);
  return summary ? { id, summary } : null;
}

/**
 * The group's summary, which the group must have: for one the batch left out, GET /group/info
 * answers, with the service's own error (20001, NOT_FOUND) when the group does not exist.
 */
export async function groupSummary(id: Int64, ctx: GatewayContext): Promise<R.GroupSummary> {
  return (await groupBatch(ctx).load(id)) ?? summaryOfRecord(await groupRecords(ctx).load({ id, via: 'GET /group/info' }));
}

interface MemberKey {
  groupId: Int64;
  userId: Int64;
}

/** Members of a group by user ID (null: not a member), one call per group per request. */
export const groupMembersById = defineLoader((ctx) => {
  const loader = new DataLoader<MemberKey, R.Member | null, string>(
    async (keys) => {
      const byGroup = new Map<string, { groupId: Int64; userIds: Map<string, Int64> }>();
      for (const { groupId, userId } of keys) {
        const entry = byGroup.get(idKey(groupId)) ?? { groupId, userIds: new Map<string, Int64>() };
        entry.userIds.set(idKey(userId), userId);
        byGroup.set(idKey(groupId), entry);
      }
      const answers = new Map<string, Promise<Map<string, R.Member> | Error>>();
      for (const [key, { groupId, userIds }] of byGroup) {
        const call = ctx.rest.call('POST /group/members/display_name', { group_id: groupId, user_list: [...userIds.values()] });
        answers.set(
          key,
          call.then((reply) => new Map(reply.data.map((m) => [idKey(m.user_id), m])), asError),
        );
      }
      return Promise.all(
        keys.map(async ({ groupId, userId }) => {
          const members = await answers.get(idKey(groupId));
          if (members instanceof Error) return members;
          return members?.get(idKey(userId)) ?? null;
        }),
      );
    },
    { cacheKeyFn: (k) => `${idKey(k.groupId)}:${idKey(k.userId)}` },
  );
  const listed = ctx.loaders.get(LISTED) as Listed[] | undefined;
  if (listed) for (const [groupId, members] of listed) primeWith(loader, groupId, members);
  return loader;
});

/** Member lists the request read before it made its loader of members (beside its loaders: forgotten with them). */
type Listed = readonly [groupId: Int64, members: readonly R.Member[]];
const LISTED = Symbol('listed members');

function primeWith(loader: DataLoader<MemberKey, R.Member | null, string>, groupId: Int64, members: readonly R.Member[]): void {
  for (const m of members) loader.prime({ groupId, userId: m.user_id }, m);
}

/**
 * Member records a list already returned answer later look-ups of the same members. Most lists
 * are read for themselves alone: the records are kept as the list, and put into the loader only
 * if the request makes one.
 */
export function primeMembers(ctx: GatewayContext, groupId: Int64, members: readonly R.Member[]): void {
  const loader = groupMembersById.made(ctx);
  if (loader) return primeWith(loader, groupId, members);
  const listed = ctx.loaders.get(LISTED) as Listed[] | undefined;
  if (listed) listed.push([groupId, members]);
  else ctx.loaders.set(LISTED, [[groupId, members]]);
}

/** A record a write answered (create) serves the request's later reads of that group. */
export function primeGroup(ctx: GatewayContext, record: R.Group): void {
  groupRecords(ctx).prime({ id: record.group_id, via: 'GET /group/info' }, record);
  groupBatch(ctx).prime(record.group_id, summaryOfRecord(record));
}

export async function summaryOf(g: GroupParent, ctx: GatewayContext): Promise<R.GroupSummary> {
  if (g.summary) return g.summary;
  if (g.info) return summaryOfRecord(g.info);
  return groupSummary(g.id, ctx);
}

export async function recordOf(g: GroupParent, ctx: GatewayContext, via: RecordVia): Promise<R.Group> {
  return g.info ?? groupRecords(ctx).load({ id: g.id, via });
}

// Resolver factories of Group fields: the summary, or the record by the endpoint named.
export const fromSummary = recordField(summaryOf);

export const fromRecord = (via: RecordVia) => recordField((g: GroupParent, ctx: GatewayContext) => recordOf(g, ctx, via));

/** How far node(id:) reads a list the service pages to find one entry: entries beyond are answered as missing (null). */
export const SCAN_PAGES = 5;

/** Reads a page of a list the service pages (the blacklist, applications, invitations). */
export type ServicePageRead<T> = (paging: { limit: number; cursor?: string }) => Promise<{ data: T[]; cursor?: string }>;

/**
 * The entry of a list the service pages that `match` picks, read page after page (MAX_PAGE entries
 * each, at most SCAN_PAGES pages: 5,000 entries); `last` picks the last match (the newest of an
 * oldest-first list) and reads to the end; null when none of those entries matches.
 */
export async function findListed<T>(
  read: ServicePageRead<T>,
  match: (entry: T) => boolean,
  which: 'first' | 'last' = 'first',
): Promise<T | null> {
  let found: T | null = null;
  let cursor: string | undefined;
  for (let n = 0; n < SCAN_PAGES; n++) {
    const page = await read({ limit: MAX_PAGE, ...(cursor ? { cursor } : {}) });
    for (const entry of page.data) {
      if (!match(entry)) continue;
      found = entry;
      if (which === 'first') return found;
    }
    cursor = page.cursor || undefined;
    if (!cursor) break;
  }
  return found;
}
