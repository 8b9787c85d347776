// Relation and notes are the viewer's own: two viewers asking about the same user at the same
// moment, through a gateway holding the service credential (whose app-wide cache serves public
// profiles), each get their own relation and alias, never the other's.
import { describe, expect, it } from 'vitest';
import { befriend } from '../../helpers/roster';
import { startStack } from '../../helpers/stack';

describe('viewer-dependent roster fields', () => {
  it('answers each of two simultaneous viewers of one user their own relation and alias', async () => {
    const stack = await startStack({}, { serviceCredential: true });
    try {
      const [friendOf, stranger, target] = [await stack.emu.user(), await stack.emu.user(), await stack.emu.user()];
      await befriend(stack.emu, friendOf, target, 'My Target');
      // The same document, the same variables: only the identity tells the two apart.
      const query = 'query($id: ID!) { user(id: $id) { id nickName relation alias } }';
      const ask = (token: string) =>
        stack.gql<{ user: { relation: string; alias: string | null } }>(query, { id: String(target.id) }, { 'access-token': token });
      const rounds = await Promise.all(Array.from({ length: 4 }, () => Promise.all([ask(friendOf.token), ask(stranger.token)])));
      for (const [a, b] of rounds) {
        expect(a.data?.user).toMatchObject({ relation: 'FRIEND', alias: 'My Target' });
        expect(b.data?.user).toMatchObject({ relation: 'STRANGER', alias: null });
      }
      // The roster reads went with each viewer's own token (no user_id header), never the service credential (which acts by one).
      const rosterCalls = stack.emu.server.calls.filter((c) => c.endpoint === 'POST /roster/list');
      expect(rosterCalls.length).toBeGreaterThanOrEqual(2);
      expect(rosterCalls.map((c) => c.headers.user_id ?? null)).toEqual(rosterCalls.map(() => null));
      expect(stack.emu.server.calls.some((c) => c.headers.user_id === String(target.id))).toBe(true);
    } finally {
      await stack.stop();
    }
  });
});
