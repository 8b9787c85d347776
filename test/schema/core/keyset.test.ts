// Item-anchored cursors over whole lists: pages resume at an item's sort key, not a position, so a
// list that moves between two reads neither repeats nor loses a row; unknown keys anchor on the item.
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

  it('refuses a foreign cursor, an anchor that left the list, and first with last', () => {
    const list = rows(['a', null]);
    const cursor = keysetPage({}, keyOf, 50)(list).pageInfo.endCursor!;
    expect(() => keysetPage({ after: 'abc' }, keyOf, 50)).toThrow(/^after: /);
    expect(() => keysetPage({ before: cursor }, keyOf, 50)([])).toThrow(/^before: .*no longer/);
    expect(() => keysetPage({ first: 1, last: 1 }, keyOf, 50)).toThrow(/^last: /);
  });
});
