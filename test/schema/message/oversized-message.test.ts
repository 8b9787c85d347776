// A message too large for the gateway to read (its answer over the REST client's 8 MiB) once made
// its conversation unreadable: `conversation(with:, last: 1)` failed ("body larger than 8388608
// bytes") and the home list lost `lastMessage`. Now a page refused for its size is read again in
// halves, and the message that alone passes the cap is listed with its ID, `oversized: true` and
// no content. The emulator bounds content far below 8 MiB (src/emulator/NOTES.md), so a scripted
// service answers here: three messages, the middle one 9 MiB.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayOver } from '../../helpers/scripted-gateway';
import { conversation, OVERSIZED_PEER, oversizedService } from '../../helpers/oversized-conversation';
import type { GqlReply } from '../../helpers/stack';

const PEER = OVERSIZED_PEER;
const MESSAGES = conversation();

let service: Awaited<ReturnType<typeof gatewayOver>>;
beforeAll(async () => {
  service = await gatewayOver(oversizedService(MESSAGES), { IM_RETRIES: '0' });
});
afterAll(() => service.stop());

async function gql<T>(query: string): Promise<GqlReply<T>> {
  const res = await fetch(`${service.origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'access-token': 't' },
    body: JSON.stringify({ query }),
  });
  return (await res.json()) as GqlReply<T>;
}

interface Listed {
  messageId: string;
  content: string | null;
  oversized: boolean;
}
const FIELDS = 'messageId content oversized';
const marker = { messageId: '200', content: null, oversized: true };

describe('a message over the 8 MiB the gateway reads', () => {
  it('is listed marked, between the others, in a page of the conversation', async () => {
    const reply = await gql<{ me: { conversation: { nodes: Listed[] } } }>(
      `{ me { conversation(with: "${PEER}", last: 20) { nodes { ${FIELDS} } } } }`,
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.me.conversation.nodes).toEqual([
      { messageId: '100', content: 'oldest', oversized: false },
      marker,
      { messageId: '300', content: 'newest', oversized: false },
    ]);
  });

  it('is the page of `last: 1` read before it, and the next page goes on past it', async () => {
    const reply = await gql<{ me: { conversation: { nodes: Listed[]; pageInfo: { hasPreviousPage: boolean; startCursor: string } } } }>(
      `{ me { conversation(with: "${PEER}", last: 1, before: "300") { nodes { ${FIELDS} } pageInfo { hasPreviousPage startCursor } } } }`,
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.me.conversation).toEqual({ nodes: [marker], pageInfo: { hasPreviousPage: true, startCursor: '200' } });
    const older = await gql<{ me: { conversation: { nodes: Listed[] } } }>(
      `{ me { conversation(with: "${PEER}", last: 1, before: "200") { nodes { ${FIELDS} } } } }`,
    );
    expect(older.data!.me.conversation.nodes).toEqual([{ messageId: '100', content: 'oldest', oversized: false }]);
  });

  it("is the home list's lastMessage when it is the newest, and the list still lists", async () => {
    MESSAGES.shift();
    try {
      const reply = await gql<{ me: { conversations: { nodes: { conversationId: string; lastMessage: Listed | null }[] } } }>(
        `{ me { conversations(first: 10) { nodes { conversationId lastMessage { ${FIELDS} } } } } }`,
      );
      expect(reply.errors).toBeUndefined();
      expect(reply.data!.me.conversations.nodes).toEqual([{ conversationId: String(PEER), lastMessage: marker }]);
    } finally {
      MESSAGES.unshift({ id: 300, content: 'newest' });
    }
  });
});
