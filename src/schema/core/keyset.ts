// Item-anchored cursors for lists the service answers whole (a chat list, which reorders as
// messages arrive; a group's admins, announcements, files; a user's devices and groups). A cursor
// names an item and its sort key, never a position: `after` resumes at the items that sort after
// that key in the list as it is now, so an item added or removed meanwhile, or a row that moved to
// the top, is neither repeated nor skipped (`before` the first cursor reads what arrived on top).
// A list sorts by `sort`, newest first or ascending; ties keep the order given. Items with no sort
// key (null: a list with no time keeps the service's order) follow the others, and a cursor among
// them anchors on its item's identity; when that item left the list, the cursor resumes beside
// its neighbour that is still there, else at the place the item had. Lead items (pinned rows, in
// the order given) come before all others and anchor on identity the same way. Both directions:
// `first`/`after` and `last`/`before`. Cursors are opaque: base64url of a JSON array.
import type { ObjectFieldBuilder, ObjectRef } from '@pothos/core';
import type { GatewayContext } from '../../context';
import type { EndpointName } from '../../rest/endpoints';
import { builder, reaches, type SchemaTypes } from './builder';
import { type ConnectionShape, decodeCursor, edgeOf, encodeCursor, MAX_PAGE, notOurs, pageInfoOf } from './connection';
import { badUserInput, inRange } from './inputs';

/** Where an item sorts (a time, a number that grows; null when unknown) and which item it is. */
export interface SortKey {
  sort: number | null;
  /** Unique in the list; may hold any character. */
  id: string;
  /** Placed before every other item, in the order given (pinned rows), whatever its sort; anchored on its identity. */
  lead?: boolean;
}

export interface KeysetArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** `first`/`after` and `last`/`before`; `first` defaults to `defaultFirst` when neither count is given. */
export const keysetArgs = (defaultFirst: number, max = MAX_PAGE) =>
  builder.args((t) => ({
    first: t.int({
      required: false,
      description: `How many to read after \`after\` (1-${max}; ${defaultFirst} when neither count is given).`,
    }),
    after: t.string({ required: false, description: "An edge's cursor (or `pageInfo.endCursor`): read what follows it." }),
    last: t.int({ required: false, description: `How many to read before \`before\`, the nearest ones (1-${max}).` }),
    before: t.string({ required: false, description: "An edge's cursor (or `pageInfo.startCursor`): read what precedes it." }),
  }));

/** Where an item with no sort key stood among those: its place, and the items before and after it (null at an end). */
interface Around {
  place: number;
  prev: string | null;
  next: string | null;
}

/** A cursor: the item's sort key; for an item with none, also what stood around it (the fallbacks when it left). */
type Cursor = SortKey & { around?: Around };

/** Where an item's section starts in a sorted list: 0 lead items, 1 sorted ones, 2 those with no sort key. */
const rankOf = (k: SortKey) => (k.lead ? 0 : k.sort === null ? 2 : 1);
/** Lead items and those with no sort key anchor on their identity and neighbours; the others on their sort key. */
const anchored = (k: SortKey) => rankOf(k) !== 1;

/** The cursor of an item at its place in the page (encoded when read: connection.ts edgeOf). */
function encodeKey({ key, around }: { key: SortKey; around: Around }): string {
  if (!anchored(key)) return encodeCursor([key.sort, key.id]);
  return encodeCursor([key.lead ? 'lead' : null, key.id, around.place, around.prev, around.next]);
}

const idOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';

function decodeKey(arg: 'after' | 'before', cursor: string): Cursor {
  const values = decodeCursor(arg, cursor);
  const [sort, id, place, prev, next] = values;
  if (typeof id !== 'string') throw notOurs(arg);
  if (values.length === 2 && Number.isSafeInteger(sort)) return { sort: sort as number, id };
  const placed = Number.isSafeInteger(place) && (place as number) >= 0;
  if (values.length !== 5 || (sort !== null && sort !== 'lead') || !placed || !idOrNull(prev) || !idOrNull(next)) throw notOurs(arg);
  return { sort: null, id, ...(sort === 'lead' ? { lead: true } : {}), around: { place: place as number, prev, next } };
}

/** Whether `a` sorts before `b` in `order`; lead items first, unknown keys last. Ties keep the order given. */
function precedesIn(order: KeysetOrder) {
  return (a: SortKey, b: SortKey): boolean => {
    const [ra, rb] = [rankOf(a), rankOf(b)];
    if (ra !== rb) return ra < rb;
    if (a.sort === null || b.sort === null || ra !== 1) return false;
    return order === 'ascending' ? a.sort < b.sort : a.sort > b.sort;
  };
}

/** Where a section of identity-anchored items lies in the sorted list: [from, to). */
interface Section {
  from: number;
  to: number;
}

/**
 * How many items of `keys` (sorted) come before the cursor's item, and whether that item is the
 * next one. Among items of equal sort the list's order decides, so the item itself is looked for
 * there; when it left them (it moved), the ties all follow the cursor. A lead item, or one with no
 * sort key, is looked for in its section (`sectionOf`); when it is no longer there, the cursor
 * resumes beside the item after it (or before it) that still is, else at the place it had.
 */
function boundary(
  keys: readonly SortKey[],
  cursor: Cursor,
  sectionOf: (k: SortKey) => Section,
  precedes: (a: SortKey, b: SortKey) => boolean,
  arg: 'after' | 'before',
) {
  const { from, to } = sectionOf(cursor);
  let before = anchored(cursor) ? from : 0;
  if (!anchored(cursor)) while (before < keys.length && precedes(keys[before]!, cursor)) before++;
  for (let i = before; i < keys.length && !precedes(cursor, keys[i]!); i++) {
    if (keys[i]!.id === cursor.id) return { before: i, at: true };
  }
  if (!cursor.around) return { before, at: false };
  const find = (id: string | null) => (id === null ? -1 : keys.findIndex((k, i) => i >= from && i < to && k.id === id));
  const next = find(cursor.around.next);
  const prev = find(cursor.around.prev);
  // `after` reads from the item that followed it, else from right after the one that preceded it;
  // `before` reads up to the one that preceded it, else up to the one that followed it.
  const beside = arg === 'after' ? (next !== -1 ? next : prev !== -1 ? prev + 1 : -1) : prev !== -1 ? prev + 1 : next;
  return { before: beside !== -1 ? beside : Math.min(to, from + cursor.around.place), at: false };
}

/**
 * The cursor an item's edge has in a list paged by its sort key, known without reading the list;
 * null for an item anchored on its place (a lead item, or one with no sort key), whose cursor needs the list.
 */
export const sortedItemCursor = (key: SortKey): string | null =>
  anchored(key) ? null : encodeKey({ key, around: { place: 0, prev: null, next: null } });

/** Newest first (a time, descending) or in the order of the key (a number that grows, ascending). */
export type KeysetOrder = 'descending' | 'ascending';

/**
 * Checks the arguments (before any read) and answers the function that pages a whole list with
 * them. The list is sorted here (stably), so the order given only decides among equal keys.
 */
export function keysetPage<T>(
  args: KeysetArgs,
  keyOf: (item: T) => SortKey,
  defaultFirst: number,
  { order = 'descending', max = MAX_PAGE }: { order?: KeysetOrder; max?: number } = {},
) {
  if (args.first != null && args.last != null) throw badUserInput('last', 'cannot be given with first: page one way at a time');
  const count = args.last != null ? inRange('last', args.last, 1, max) : inRange('first', args.first ?? defaultFirst, 1, max);
  const after = args.after ? decodeKey('after', args.after) : undefined;
  const before = args.before ? decodeKey('before', args.before) : undefined;
  const precedes = precedesIn(order);

  return (all: readonly T[]): ConnectionShape<T> => {
    const sorted = all
      .map((node) => ({ node, key: keyOf(node) }))
      .sort((a, b) => (precedes(a.key, b.key) ? -1 : precedes(b.key, a.key) ? 1 : 0));
    const keys = sorted.map((e) => e.key);
    const firstOf = (rank: number) => {
      const i = keys.findIndex((k) => rankOf(k) >= rank);
      return i === -1 ? keys.length : i;
    };
    const lead: Section = { from: 0, to: firstOf(1) };
    const unknown: Section = { from: firstOf(2), to: keys.length };
    const sectionOf = (k: SortKey) => (k.lead ? lead : unknown);
    let lo = 0;
    let hi = sorted.length;
    if (after) {
      const b = boundary(keys, after, sectionOf, precedes, 'after');
      lo = b.before + (b.at ? 1 : 0);
    }
    if (before) hi = Math.max(lo, boundary(keys, before, sectionOf, precedes, 'before').before);
    const [start, end] = args.last != null ? [Math.max(lo, hi - count), hi] : [lo, Math.min(hi, lo + count)];
    const edges = sorted.slice(start, end).map((e, i) => {
      const at = start + i;
      const { from, to } = sectionOf(e.key);
      const idAt = (j: number) => (j >= from && j < to ? sorted[j]!.key.id : null);
      return edgeOf(e.node, encodeKey, { key: e.key, around: { place: at - from, prev: idAt(at - 1), next: idAt(at + 1) } });
    });
    return { edges, pageInfo: pageInfoOf(edges, end < sorted.length, start > 0), totalCount: all.length };
  };
}

/**
 * A connection field over a list the service answers whole, from one endpoint: the gateway pages
 * it both ways by `key` (in `order`), and the description says so.
 */
export function wholeListField<P, T>(
  t: ObjectFieldBuilder<SchemaTypes, P>,
  o: {
    type: ObjectRef<SchemaTypes, ConnectionShape<T>>;
    description: string;
    endpoint: EndpointName;
    defaultFirst: number;
    key: (item: T) => SortKey;
    order: KeysetOrder;
    read: (parent: P, ctx: GatewayContext) => Promise<readonly T[]>;
  },
) {
  return t.field({
    type: o.type,
    nullable: false,
    description: `${o.description} The service answers all of them at once; the gateway pages them, both ways: a cursor names an item, so pages neither repeat nor skip one when the list changes.`,
    // Its page size when neither count is given, for the cost estimate (gateway/execution/cost-estimate.ts).
    extensions: { ...reaches(o.endpoint), defaultPage: o.defaultFirst },
    args: keysetArgs(o.defaultFirst),
    resolve: async (parent, args, ctx) => {
      const page = keysetPage(args, o.key, o.defaultFirst, { order: o.order });
      return page(await o.read(parent, ctx));
    },
  });
}
