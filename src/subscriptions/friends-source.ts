// friendEvents: the caller's friends coming and going, found by polling the friend IDs (GET
// /roster/list, every page) and comparing them with the round before. The roster is symmetric and
// says nothing of who acted, so a new friend is one whichever way the two became friends (the
// viewer's request accepted, the viewer accepting, an application admitted at once), and a friend
// gone is one whichever side removed or blocked the other. The state is the sorted friend IDs.
// The first round only sets it: a subscriber gets the changes from subscribing on.
import { parseJson, stringifyJson, toInt64, type Int64 } from '../rest/json';
import type { Source } from './source';

export type FriendEvent = { kind: 'added' | 'removed'; userId: Int64 };

/** The service's largest page of friend IDs (8.11). */
const PAGE = 5_000;
/** Pages one round reads at most: a roster beyond that is compared on its first PAGES pages. */
const PAGES = 4;

export const friendsSource: Source<FriendEvent[]> = {
  name: 'friends',
  replay: false,
  async poll(rest, caller, state, signal) {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < PAGES; pages++) {
      const reply = await rest.call('GET /roster/list', { limit: PAGE, ...(cursor ? { cursor } : {}) }, caller, { signal });
      ids.push(...reply.data.map(String));
      cursor = reply.cursor;
      if (!cursor || reply.data.length === 0) break;
    }
    ids.sort();
    const now = stringifyJson(ids);
    if (state === undefined || now === state) return { state: now };
    const before = new Set(parseJson(state) as string[]);
    const current = new Set(ids);
    const events: FriendEvent[] = [
      ...ids.filter((id) => !before.has(id)).map((id) => ({ kind: 'added' as const, userId: toInt64(id) })),
      ...[...before].filter((id) => !current.has(id)).map((id) => ({ kind: 'removed' as const, userId: toInt64(id) })),
    ];
    return { state: now, payload: events };
  },
};
