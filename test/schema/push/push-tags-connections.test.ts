// Removing push tags (1.30 DELETE /user/push/tag, whose tags travel as a DELETE body by its spec)
// keeps the gateway's connections to the service: undici closes a socket after writing a body with
// a method that expects none unless the call says `reset: false` (src/rest/json-exchange.ts). Counted on
// the emulator's side, by the connections it accepted, over rounds of the mutations through the
// gateway.
import { describe, expect, it } from 'vitest';
import { useStack } from '../../helpers/stack';

// A small pool, opened whole at start (warm start), and more rounds than its connections: spare
// connections would otherwise stand in for closed ones.
const CONNECTIONS = 4;
const ROUNDS = CONNECTIONS + 4;
const stack = useStack({ IM_CONNECTIONS: String(CONNECTIONS) });

describe('push tag mutations over kept connections', () => {
  it(`open no connection to the service after the first of ${ROUNDS} rounds of addPushTags and removePushTags`, async () => {
    const user = await stack.emu.user();
    const round = async (tag: string) => {
      const added = await stack.gqlAs(user, 'mutation($t: [String!]!) { addPushTags(input: { tags: $t }) { ok } }', { t: [tag, 'x'] });
      expect(added.data).toEqual({ addPushTags: { ok: true } });
      const removed = await stack.gqlAs(user, 'mutation($t: [String!]!) { removePushTags(input: { tags: $t }) { ok } }', { t: [tag] });
      expect(removed.data).toEqual({ removePushTags: { ok: true } });
    };
    await round('first');
    const afterFirst = stack.emu.server.connectionsOpened();
    stack.emu.mark();
    for (let i = 0; i < ROUNDS; i++) await round(`tag${i}`);
    // Every removal went out as a DELETE with its body, and none of them cost a new connection.
    expect(stack.emu.calls('DELETE /user/push/tag').map((c) => c.body)).toEqual(
      Array.from({ length: ROUNDS }, (_, i) => ({ tags: [`tag${i}`] })),
    );
    expect(stack.emu.server.connectionsOpened()).toBe(afterFirst);
  });
});
