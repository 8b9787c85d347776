// unreadCounts: GET /message/unread, emitted whenever its answer changes (and at once to a new
// subscriber). Only what the schema shows counts as a change: the conversations, their order and
// their counts. Only conversations with unread messages are listed (the service lists recent read
// ones too, with 0); a result names one that was read once more, with 0, after the others, so
// that clients can clear its badge.
import { parseJson, stringifyJson, toInt64 } from '../rest/json';
import type { UnreadEntry } from '../rest/records';
import type { Source } from './source';

/** The entries reduced to what subscribers see: those with news, without conversation_id's other fields. */
function essential(entries: readonly UnreadEntry[]): UnreadEntry[] {
  return entries.filter((e) => e.num > 0).map((e) => ({ conversation_id: { uid: e.conversation_id.uid }, num: e.num }));
}

export const unreadSource: Source<UnreadEntry[]> = {
  name: 'unread',
  replay: true,
  async poll(rest, caller, state, signal) {
    const { data } = await rest.call('GET /message/unread', {}, caller, { signal });
    // The state is every conversation listed, read ones too (a callback for a group the list
    // names concerns the identity: live-source.ts); only those with news count as a change.
    const listed: Pair[] = data.map((e) => [String(e.conversation_id.uid), e.num]);
    const canonical = stringifyJson(listed);
    if (canonical === state) return { state };
    const before = state === undefined ? undefined : shown(parseJson(state) as Pair[]);
    if (before !== undefined && stringifyJson(before) === stringifyJson(shown(listed))) return { state: canonical };
    const entries = essential(data);
    return { state: canonical, payload: [...entries, ...readSince(before, entries)] };
  },
};

type Pair = [string, number];
const shown = (pairs: readonly Pair[]): Pair[] => pairs.filter(([, num]) => num > 0);

/** The conversations an unread state lists (read ones too): where a group message concerns the identity. */
export const listedIn = (state: string): string[] => (parseJson(state) as Pair[]).map(([id]) => id);

/** Zero entries for the conversations of the previous result that are no longer listed with news. */
function readSince(before: readonly Pair[] | undefined, entries: readonly UnreadEntry[]): UnreadEntry[] {
  if (before === undefined) return [];
  const listed = new Set(entries.map((e) => String(e.conversation_id.uid)));
  return before.filter(([id]) => !listed.has(id)).map(([id]) => ({ conversation_id: { uid: toInt64(id) }, num: 0 }));
}
