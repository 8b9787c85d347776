// unreadCounts: GET /message/unread, emitted whenever its answer changes (and at once to a new
// subscriber). Only what the schema shows counts as a change: the conversations, their order and
// their counts.
import { stringifyJson } from '../rest/json';
import type { UnreadEntry } from '../rest/records';
import type { Source } from './source';

/** The entries reduced to what subscribers see (the service may add fields to conversation_id). */
function essential(entries: readonly UnreadEntry[]): UnreadEntry[] {
  return entries.map((e) => ({ conversation_id: { uid: e.conversation_id.uid }, num: e.num }));
}

export const unreadSource: Source<UnreadEntry[]> = {
  name: 'unread',
  replay: true,
  async poll(rest, caller, state, signal) {
    const { data } = await rest.call('GET /message/unread', {}, caller, { signal });
    const entries = essential(data);
    // The canonical text of what subscribers see: equal text, nothing to send.
    const canonical = stringifyJson(entries.map((e) => [String(e.conversation_id.uid), e.num]));
    return canonical === state ? { state } : { state: canonical, payload: entries };
  },
};
