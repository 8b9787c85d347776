// Item-anchored cursors over whole lists: pages resume at an item's sort key, not a position, so a
// list that moves between two reads neither repeats nor loses a row; unknown keys anchor on the
// item, and on its place when it left.
import { describe, expect, it } from 'vitest';
import { keysetPage, type SortKey } from '../../../src/schema/core/keyset';

interface Row {
  id: string;
  at: number | null;
}
const keyOf = (r: Row): SortKey => ({ sort: r.at, id: r.id });
const ids = (page: { edges: { node: Row }[] }) => page.edges.map((e) => e.node.id);
const rows = (...list: [string, number | null][]) => list.map(([id, at]) => ({ id, at }));

describe('keysetPage', () => {
  it('sorts newest first, keeps the given order among ties and unknown keys, and pages forward without repeats', () => {
    const list = rows(['n1', null], ['a', 10], ['b', 30], ['c', 20], ['d', 20], ['n2', null]);
    const page1 = keysetPage({ first: 2 }, keyOf, 50)(list);
    expect(ids(page1)).toEqual(['b', 'c']);
    const page2 = keysetPage({ first: 2, after: page1.pageInfo.endCursor }, keyOf, 50)(list);
    expect(ids(page2)).toEqual(['d', 'a']);
    const page3 = keysetPage({ first: 2, after: page2.pageInfo.endCursor }, keyOf, 50)(list);
    expect(ids(page3)).toEqual(['n1', 'n2']);
    expect(page3.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const tail = keysetPage({ first: 5, after: page3.edges[0]!.cursor }, keyOf, 50)(list);
    expect(ids(tail)).toEqual(['n2']);
  });

  it('resumes after an item that moved to the top at the place it left, and reads it back with before', () => {
    const before = rows(['a', 40], ['b', 30], ['c', 20], ['d', 10]);
    const page1 = keysetPage({ first: 2 }, keyOf, 50)(before);
    const moved = rows(['c', 50], ['b', 45], ['a', 40], ['d', 10]); // c and b got new messages
    expect(ids(keysetPage({ first: 2, after: page1.pageInfo.endCursor }, keyOf, 50)(moved))).toEqual(['d']);
    expect(ids(keysetPage({ last: 5, before: page1.pageInfo.startCursor }, keyOf, 50)(moved))).toEqual(['c', 'b']);
  });

  it('reads the nearest items before a cursor with last', () => {
    const list = rows(['a', 4], ['b', 3], ['c', 2], ['d', 1]);
    const end = keysetPage({ last: 2 }, keyOf, 50)(list);
    expect(ids(end)).toEqual(['c', 'd']);
    expect(end.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const start = keysetPage({ last: 2, before: end.pageInfo.startCursor }, keyOf, 50)(list);
    expect(ids(start)).toEqual(['a', 'b']);
    expect(start.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
  });

  it('finds an unknown-key item among its kind, and when it left resumes beside the neighbour still there', () => {
    const list = rows(['a', 5], ['g1', null], ['g2', null], ['g3', null], ['g4', null]);
    const page1 = keysetPage({ first: 3 }, keyOf, 50)(list);
    expect(ids(page1)).toEqual(['a', 'g1', 'g2']);
    const after = page1.pageInfo.endCursor;
    const earlierLeft = list.filter((r) => r.id !== 'g1');
    expect(ids(keysetPage({ first: 3, after }, keyOf, 50)(earlierLeft))).toEqual(['g3', 'g4']);
    const anchorLeft = list.filter((r) => r.id !== 'g2');
    expect(ids(keysetPage({ first: 3, after }, keyOf, 50)(anchorLeft))).toEqual(['g3', 'g4']);
    // The anchor and the item before it left, one was added: the item that followed is still there.
    const more = [...list.filter((r) => r.id !== 'g2' && r.id !== 'g1'), ...rows(['g5', null])];
    expect(ids(keysetPage({ first: 3, after }, keyOf, 50)(more))).toEqual(['g3', 'g4', 'g5']);
    // The anchor and the item after it left: read on after the one before it.
    const onlyBefore = list.filter((r) => r.id !== 'g2' && r.id !== 'g3');
    expect(ids(keysetPage({ first: 3, after }, keyOf, 50)(onlyBefore))).toEqual(['g4']);
    // Backwards from an anchor that left: up to the item that preceded it.
    expect(ids(keysetPage({ last: 3, before: after }, keyOf, 50)(more))).toEqual(['a']);
    expect(ids(keysetPage({ last: 3, before: after }, keyOf, 50)(anchorLeft))).toEqual(['a', 'g1']);
    const back = keysetPage({ last: 3, before: page1.edges[2]!.cursor }, keyOf, 50)(list.filter((r) => r.id !== 'g2'));
    expect(ids(back)).toEqual(['a', 'g1']);
  });

  it('sorts ascending when asked, an item added or removed before the cursor changing nothing after it', () => {
    const list = rows(['a', 1], ['b', 2], ['c', 3], ['d', 4]);
    const page1 = keysetPage({ first: 2 }, keyOf, 50, { order: 'ascending' })(list);
    expect(ids(page1)).toEqual(['a', 'b']);
    const moved = rows(['x', 0], ['c', 3], ['d', 4], ['e', 5]); // x added first, a and b removed
    expect(ids(keysetPage({ first: 5, after: page1.pageInfo.endCursor }, keyOf, 50, { order: 'ascending' })(moved))).toEqual([
      'c',
      'd',
      'e',
    ]);
    expect(ids(keysetPage({ last: 5, before: page1.pageInfo.endCursor }, keyOf, 50, { order: 'ascending' })(moved))).toEqual(['x']);
  });

  it('puts lead items first in the order given, and pages exactly while a pin is added above, or the anchor is unpinned', () => {
    interface Pinnable extends Row {
      pinned?: boolean;
    }
    const keyOrLead = (r: Pinnable): SortKey => ({ ...keyOf(r), ...(r.pinned ? { lead: true } : {}) });
    const pin = (r: Row): Pinnable => ({ ...r, pinned: true });
    const [a, b, c, d, e] = rows(['a', 50], ['b', 40], ['c', 30], ['d', 20], ['e', 10]);
    // Pins newest first: d, then b; the others by time.
    const list = [pin(d!), pin(b!), a!, c!, e!];
    const page1 = keysetPage({ first: 1 }, keyOrLead, 50)(list);
    expect(ids(page1)).toEqual(['d']);
    // e is pinned on top meanwhile: the page after d holds neither e (now above) nor d again.
    const pinnedE = [pin(e!), pin(d!), pin(b!), a!, c!];
    const page2 = keysetPage({ first: 2, after: page1.pageInfo.endCursor }, keyOrLead, 50)(pinnedE);
    expect(ids(page2)).toEqual(['b', 'a']);
    expect(ids(keysetPage({ last: 5, before: page1.pageInfo.startCursor }, keyOrLead, 50)(pinnedE))).toEqual(['e']);
    // b (page2's first, a lead item) is unpinned: it returns to its time's place; after it reads on beside its neighbour.
    const unpinnedB = [pin(e!), pin(d!), a!, b!, c!];
    expect(ids(keysetPage({ first: 5, after: page2.edges[0]!.cursor }, keyOrLead, 50)(unpinnedB))).toEqual(['a', 'b', 'c']);
    // A sorted row's cursor reads on after it whatever was pinned above.
    expect(ids(keysetPage({ first: 5, after: page2.pageInfo.endCursor }, keyOrLead, 50)(unpinnedB))).toEqual(['b', 'c']);
  });

  it('refuses a foreign cursor, a positional cursor of before, and first with last', () => {
    const positional = Buffer.from('3:', 'utf8').toString('base64url');
    expect(() => keysetPage({ after: 'abc' }, keyOf, 50)).toThrow(/^after: is not a cursor of this list/);
    expect(() => keysetPage({ before: positional }, keyOf, 50)).toThrow(/^before: is a positional cursor .* from the start/);
    const serviceCursor = Buffer.from(JSON.stringify(['', 1, 'x', '', 1]), 'utf8').toString('base64url');
    expect(() => keysetPage({ after: serviceCursor }, keyOf, 50)).toThrow(/^after: is not a cursor of this list/);
    expect(() => keysetPage({ first: 1, last: 1 }, keyOf, 50)).toThrow(/^last: /);
  });
});
