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
    const entries = essential(data);
    // The canonical text of what subscribers see: equal text, nothing to send.
    const canonical = stringifyJson(entries.map((e) => [String(e.conversation_id.uid), e.num]));
    return canonical === state ? { state } : { state: canonical, payload: [...entries, ...readSince(state, entries)] };
  },
};

/** Zero entries for the conversations of the previous state that are no longer listed. */
function readSince(state: string | undefined, entries: readonly UnreadEntry[]): UnreadEntry[] {
  if (state === undefined) return [];
  const listed = new Set(entries.map((e) => String(e.conversation_id.uid)));
  const before = parseJson(state) as [string, number][];
  return before.filter(([id]) => !listed.has(id)).map(([id]) => ({ conversation_id: { uid: toInt64(id) }, num: 0 }));
}
