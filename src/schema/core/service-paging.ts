// Lists the service pages itself (cursor/limit/total: members, banned members, applications,
// invitations, the blacklist). The service pages forward only, so these take `first`/`after`. Its
// cursor is opaque and may be a position (the emulator's is an offset): an item added or removed
// before it moves what it points at. So a cursor of ours names an item: a service cursor that lies
// before the item, how many items lead from there up to the item, and the identities of the item
// and of the one before it. A read asks for those items and `first` more, finds the item among
// them and goes on right after it, wherever it now is; when the item is gone, right after the one
// before it; only when both are gone does the count decide.
//
// The service cursor kept is the one the page before ended at, a page behind the item, so that
// items removed before the item (up to a page of them) leave it among what is read. Reads are
// that much longer (about `first` items more), in the same single call.
import type { Int64 } from '../../rest/json';
import {
  type ConnectionShape,
  decodeCursor,
  edgeOf,
  encodeCursor,
  firstOf,
  MAX_PAGE,
  notOurs,
  type PageArgs,
  pageInfoOf,
} from './connection';

interface Anchor {
  /** The service cursor to read from ('': the start). */
  from: string;
  /** How many items of that read lead up to the item, the item included. */
  skip: number;
  /** The item's identity ('' before the first page), and the one's before it (null: none read). */
  id: string;
  prev: string | null;
  /** Where the page after the item starts: a service cursor and how many items follow it first. */
  base: string;
  offset: number;
}

const START: Anchor = { from: '', skip: 0, id: '', prev: null, base: '', offset: 0 };

/** A bound on the items a cursor leads a read over, so that no cursor asks the service for a huge page. */
const MAX_LEAD = 10 * MAX_PAGE;

const isLead = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= MAX_LEAD;

function anchorOf(after: string | null | undefined): Anchor {
  if (!after) return START;
  const [from, skip, id, prev, base, offset, ...rest] = decodeCursor('after', after);
  if (rest.length > 0 || typeof from !== 'string' || typeof id !== 'string' || typeof base !== 'string') throw notOurs('after');
  if (!isLead(skip) || !isLead(offset) || (prev !== null && typeof prev !== 'string')) throw notOurs('after');
  return { from, skip, id, prev, base, offset };
}

/** The REST paging parameters that read `first` items after `after`: the items leading up to it are read too. */
export function toPaging(args: PageArgs, defaultFirst: number) {
  const first = firstOf(args, defaultFirst);
  const at = anchorOf(args.after);
  return { limit: at.skip + first, ...(at.from ? { cursor: at.from } : {}) };
}

/**
 * The cursor the list's first item has when read from the start (an item that just arrived on top
 * of a newest-first list), known without reading the list: a read after it finds the item among
 * the first `first` + 1 and goes on right after it, wherever it then is.
 */
export const firstItemCursor = (id: string): string => encodeCursor(['', 1, id, null, '', 1]);

/** How the items of a list are told apart and shown. */
export interface ServiceItems<R, T> {
  defaultFirst: number;
  /** Unique in the list. */
  id: (item: R) => string;
  map: (item: R) => T;
}

/** A connection from a REST list reply (top-level cursor and total) read with toPaging(args). */
export function toConnection<R, T>(
  reply: { data: R[]; cursor?: string; total?: Int64 },
  args: PageArgs,
  items: ServiceItems<R, T>,
): ConnectionShape<T> {
  const first = firstOf(args, items.defaultFirst);
  const at = anchorOf(args.after);
  const indexOf = (id: string | null) => (id === null || id === '' ? -1 : reply.data.findIndex((r) => items.id(r) === id));
  const found = indexOf(at.id);
  const prev = found === -1 ? indexOf(at.prev) : -1;
  const start = found !== -1 ? found + 1 : prev !== -1 ? prev + 1 : at.skip;
  const shown = reply.data.slice(start, start + first);
  const next = reply.cursor || undefined;
  // The service cursor the shown items' cursors read from: a page behind (the base the anchor
  // named) when the anchor is where it was left; else this read's own, which lies before them
  // whatever moved. The other one when the first would lead over too many items.
  const lagging = { from: at.base, lead: at.offset };
  const own = { from: at.from, lead: start };
  const preferred = found === at.skip - 1 ? lagging : own;
  const where = preferred.lead + first <= MAX_LEAD ? preferred : preferred === own ? lagging : own;
  // The cursor of the i-th edge shown, made only when read (a page selected for its nodes makes none).
  const cursorAt = (i: number) => {
    const skip = where.lead + i + 1;
    const at = start + i;
    // After the read's last item, the page after starts right at the service's next cursor.
    const endOfRead = at === reply.data.length - 1 && next !== undefined;
    const before = at > 0 ? items.id(reply.data[at - 1]!) : null;
    return encodeCursor([where.from, skip, items.id(reply.data[at]!), before, endOfRead ? next : where.from, endOfRead ? 0 : skip]);
  };
  const edges = shown.map((record, i) => edgeOf(items.map(record), cursorAt, i));
  return {
    edges,
    pageInfo: pageInfoOf(edges, next !== undefined || start + shown.length < reply.data.length, at !== START),
    totalCount: reply.total ?? null,
  };
}
