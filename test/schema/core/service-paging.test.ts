// Item cursors over a list the service pages with cursors that are positions (as the emulator's
// offsets are): however items are added and removed before the anchor between two reads (up to a
// few a page), paging on with endCursor reads every item that stayed exactly once, and resuming
// from any edge reads what follows that edge in the list as it now is.
import { describe, expect, it } from 'vitest';
import { toConnection, toPaging } from '../../../src/schema/core/service-paging';

/** A service paging `list` by offset, its cursor opaque (what the emulator answers). */
function serve(list: readonly string[], params: { limit: number; cursor?: string }) {
  const start = params.cursor ? Number(Buffer.from(params.cursor, 'base64url').toString().slice(2)) : 0;
  const end = start + params.limit;
  const cursor = end < list.length ? Buffer.from(`o:${end}`).toString('base64url') : '';
  return { data: list.slice(start, end), cursor, total: list.length };
}

const ITEMS = { defaultFirst: 5, id: (s: string) => s, map: (s: string) => s };

function read(list: readonly string[], args: { first: number; after?: string | null }) {
  return toConnection(serve(list, toPaging(args, 5)), args, ITEMS);
}

/** A small deterministic generator (mulberry32), so a failure repeats. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

describe('toConnection over a service whose cursors are positions', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('reads every item that stayed once while items come and go before the anchor (seed %i)', (seed) => {
    const next = random(seed);
    let list = Array.from({ length: 40 }, (_, i) => `i${i}`);
    const removed = new Set<string>();
    const seen: string[] = [];
    let after: string | null = null;
    let added = 0;
    for (let pages = 0; pages < 40; pages++) {
      const page = read(list, { first: 5, after });
      seen.push(...page.edges.map((e) => e.node));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
      // Up to two removals and two additions, all before the anchor (the last item seen).
      const anchor = list.indexOf(seen[seen.length - 1]!);
      for (let n = Math.floor(next() * 3); n > 0 && anchor > 0; n--) {
        const [gone] = list.splice(Math.floor(next() * anchor), 1);
        removed.add(gone!);
      }
      for (let n = Math.floor(next() * 3); n > 0; n--)
        list.splice(Math.floor(next() * list.indexOf(seen[seen.length - 1]!)), 0, `new${added++}`);
      list = [...list];
    }
    expect(new Set(seen).size).toBe(seen.length);
    const stayed = Array.from({ length: 40 }, (_, i) => `i${i}`).filter((id) => !removed.has(id));
    expect(seen.filter((id) => id.startsWith('i') && !removed.has(id))).toEqual(stayed);
  });

  it('resumes from any edge of a page read after the list changed at what follows that edge now', () => {
    let list = Array.from({ length: 20 }, (_, i) => `i${i}`);
    const one = read(list, { first: 5 });
    const two = read(list, { first: 5, after: one.pageInfo.endCursor });
    list = list.filter((id) => id !== 'i1' && id !== 'i6'); // one before the second page, one inside it
    const three = read(list, { first: 5, after: two.pageInfo.endCursor });
    expect(three.edges.map((e) => e.node)).toEqual(['i10', 'i11', 'i12', 'i13', 'i14']);
    list = ['i0', 'x', ...list.slice(1)];
    // One added before them all: each page holds what follows its edge, one less at most (then said to have more).
    for (const edge of three.edges) {
      const page = read(list, { first: 3, after: edge.cursor });
      const from = page.edges.map((e) => e.node);
      const at = list.indexOf(edge.node);
      expect(from.length).toBeGreaterThanOrEqual(2);
      expect(from).toEqual(list.slice(at + 1, at + 1 + from.length));
      if (from.length < 3) expect(page.pageInfo.hasNextPage).toBe(true);
    }
  });

  it('resumes after the item before a gone anchor, by the count when both are gone, and refuses cursors that are not its own', () => {
    const list = Array.from({ length: 10 }, (_, i) => `i${i}`);
    const one = read(list, { first: 3 });
    const after = one.pageInfo.endCursor;
    const gone = list.filter((id) => id !== 'i2');
    expect(read(gone, { first: 3, after }).edges.map((e) => e.node)).toEqual(['i3', 'i4', 'i5']);
    const bothGone = list.filter((id) => id !== 'i2' && id !== 'i1');
    expect(read(bothGone, { first: 3, after }).edges.map((e) => e.node)).toEqual(['i5', 'i6', 'i7']);
    const positional = Buffer.from('3:b86xMDA').toString('base64url');
    expect(() => toPaging({ after: positional }, 5)).toThrow(/^after: is a positional cursor of an earlier version/);
    const keyset = Buffer.from(JSON.stringify([12, 'i1'])).toString('base64url');
    expect(() => toPaging({ after: keyset }, 5)).toThrow(/^after: is not a cursor of this list/);
    const greedy = Buffer.from(JSON.stringify(['', 10 ** 6, 'i1', null, '', 0])).toString('base64url');
    expect(() => toPaging({ after: greedy }, 5)).toThrow(/^after: is not a cursor of this list/);
  });
});
