// GET /message/unread entries as the emulator tests compare them: the ordering time each entry
// carries is checked here (a time in ms) and left out, so expectations name sessions and counts.
import { expect } from 'vitest';
import type { UnreadEntry } from '../../../src/rest/records';

export function sessions(entries: readonly UnreadEntry[]): UnreadEntry[] {
  return entries.map(({ conversation_id: { uid, timestamp }, num }) => {
    expect(timestamp).toBeGreaterThan(0);
    return { conversation_id: { uid }, num };
  });
}
