// Cursor paging of 8.4 and 8.11: data holds the page, the envelope a top-level cursor (absent on
// the last page) and version (reserved, 0). The cursor names the key of the page's last item,
// not a position, so items added or removed between two pages shift nothing already paged.
import { invalidParam } from '../errors';
import type { Ctx } from '../handler';

interface PageParams {
  cursor?: string | undefined;
  limit?: number | undefined;
}

export interface PageLimits {
  default: number;
  /** A larger limit is cut down to this; the cursor still says that more follow. */
  max: number;
}

const encode = (key: number) => Buffer.from(`roster:${key}`).toString('base64url');

function decode(cursor: string): number {
  const match = /^roster:(-?\d{1,16})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw invalidParam('cursor', 'not a cursor of this list');
  return Number(match[1]);
}

/** `items` in page order, their keys strictly increasing along it. */
export function pageByKey<T>(ctx: Ctx, items: readonly T[], keyOf: (item: T) => number, params: PageParams, limits: PageLimits): T[] {
  let start = 0;
  if (params.cursor) {
    const after = decode(params.cursor);
    start = items.findIndex((item) => keyOf(item) > after);
    if (start < 0) start = items.length;
  }
  const end = start + Math.min(params.limit ?? limits.default, limits.max);
  const page = items.slice(start, end);
  const last = page[page.length - 1];
  ctx.setExtras({ version: 0, ...(end < items.length && last !== undefined ? { cursor: encode(keyOf(last)) } : {}) });
  return page;
}
