// Cursor paging of the group lists (4.9, 4.13, 4.15, 4.30, 4.35): the page's items in data, and
// top-level cursor (opaque; '' on the last page), total (the full count) and version (reserved, 0).
import { invalidParam } from '../errors';
import type { Ctx } from '../handler';

interface PageParams {
  cursor?: string | undefined;
  limit?: number | undefined;
}

// The cursor is the next item's offset, wrapped so that clients treat it as opaque.
const encode = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');

function decode(cursor: string): number {
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw invalidParam('cursor', 'not a cursor of this list');
  return Number(match[1]);
}

export function page<T>(ctx: Ctx, items: readonly T[], params: PageParams, defaultLimit: number): T[] {
  const start = params.cursor ? decode(params.cursor) : 0;
  const end = start + (params.limit ?? defaultLimit);
  ctx.setExtras({ cursor: end < items.length ? encode(end) : '', total: items.length, version: 0 });
  return items.slice(start, end);
}
