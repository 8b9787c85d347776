// Item-anchored cursors for lists the service answers whole and that move between two reads (a
// chat list reorders as messages arrive). A cursor names an item and its sort key (opaque:
// base64url of `<sort>:<id>`), never a position: `after` resumes at the items that sort after that
// key in the list as it is now, so a row that moved to the top is neither repeated nor pushed out
// of reach (`before` the first cursor reads it). Lists sort newest first by `sort`; ties, and the
// items whose sort key is unknown (null, after the others), keep the order given, and a cursor
// among them anchors on its item. Both directions: `first`/`after` and `last`/`before`.
import { builder } from './builder';
import { type ConnectionShape, MAX_PAGE } from './connection';
import { badUserInput, inRange } from './inputs';

/** Where an item sorts (`sort` descending: a time, say; null when unknown) and which item it is. */
export interface SortKey {
  sort: number | null;
  /** Unique in the list; may hold any character. */
  id: string;
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

function encodeKey({ sort, id }: SortKey): string {
  return Buffer.from(`${sort ?? ''}:${id}`, 'utf8').toString('base64url');
}

function decodeKey(arg: 'after' | 'before', cursor: string): SortKey {
  const text = /^[A-Za-z0-9_-]{1,1024}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^(\d{0,15}):(.+)$/s.exec(text);
  if (!match) throw badUserInput(arg, 'is not a cursor of this list');
  return { sort: match[1] === '' ? null : Number(match[1]), id: match[2]! };
}

/** Whether `a` sorts before `b`: newer first; unknown keys last. Ties keep the order given. */
function precedes(a: SortKey, b: SortKey): boolean {
  if (a.sort === null || b.sort === null) return a.sort !== null && b.sort === null;
  return a.sort > b.sort;
}

/**
 * How many items of `keys` (sorted) come before the cursor's item, and whether that item is the
 * next one. Among items of equal sort the list's order decides, so the item itself is looked for
 * there; when it left them (it moved), the ties all follow the cursor.
 */
function boundary(keys: readonly SortKey[], cursor: SortKey, arg: 'after' | 'before'): { before: number; at: boolean } {
  let before = 0;
  if (cursor.sort !== null) while (before < keys.length && precedes(keys[before]!, cursor)) before++;
  for (let i = before; i < keys.length && !precedes(cursor, keys[i]!); i++) {
    if (keys[i]!.id === cursor.id) return { before: i, at: true };
  }
  if (cursor.sort === null) throw badUserInput(arg, 'names an item that is no longer in the list');
  return { before, at: false };
}

/**
 * Checks the arguments (before any read) and answers the function that pages a whole list with
 * them. The list is sorted here (stably), so the order given only decides among equal keys.
 */
export function keysetPage<T>(args: KeysetArgs, keyOf: (item: T) => SortKey, defaultFirst: number, max = MAX_PAGE) {
  if (args.first != null && args.last != null) throw badUserInput('last', 'cannot be given with first: page one way at a time');
  const count = args.last != null ? inRange('last', args.last, 1, max) : inRange('first', args.first ?? defaultFirst, 1, max);
  const after = args.after ? decodeKey('after', args.after) : undefined;
  const before = args.before ? decodeKey('before', args.before) : undefined;

  return (all: readonly T[]): ConnectionShape<T> => {
    const sorted = all
      .map((node) => ({ node, key: keyOf(node) }))
      .sort((a, b) => (precedes(a.key, b.key) ? -1 : precedes(b.key, a.key) ? 1 : 0));
    const keys = sorted.map((e) => e.key);
    let lo = 0;
    let hi = sorted.length;
    if (after) {
      const b = boundary(keys, after, 'after');
      lo = b.before + (b.at ? 1 : 0);
    }
    if (before) hi = Math.max(lo, boundary(keys, before, 'before').before);
    const [start, end] = args.last != null ? [Math.max(lo, hi - count), hi] : [lo, Math.min(hi, lo + count)];
    const edges = sorted.slice(start, end).map((e) => ({ node: e.node, cursor: encodeKey(e.key) }));
    return {
      edges,
      pageInfo: {
        hasPreviousPage: start > 0,
        hasNextPage: end < sorted.length,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges[edges.length - 1]?.cursor ?? null,
      },
      totalCount: all.length,
    };
  };
}
