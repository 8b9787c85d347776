// askAssistant answers as sendMessage does (issue 42, item 2): in Apollo Client 4 with no cache
// code, the open conversation with the assistant (examples/assistant.graphql) shows the question
// and the reply from the mutation's payload alone, and the payload's edges carry the cursors the
// conversation's own list gives those messages.
import { describe, expect, it } from 'vitest';
import { AskAssistantDocument, AssistantConversationDocument } from '../../src/generated/graphql';
import { apolloAs } from '../helpers/apollo';
import { expectNoConsoleWarnings } from '../helpers/apollo-warnings';
import { useStack } from '../helpers/stack';

const stack = useStack();

expectNoConsoleWarnings();

describe('Apollo Client 4 and askAssistant', () => {
  it('shows the question and the reply in the cached open conversation, with edges of that list', async () => {
    const [me, bot] = [await stack.emu.user(), await stack.emu.user()];
    const { client, close } = apolloAs(stack, me, { conversation: ['with'] });
    try {
      const open = await client.query({ query: AssistantConversationDocument, variables: { with: String(bot.id) } });
      expect(open.data?.me?.conversation.edges).toEqual([]);

      const asked = await client.mutate({ mutation: AskAssistantDocument, variables: { to: String(bot.id), content: '2+2?' } });
      const answer = asked.data!.askAssistant;
      expect(answer).toMatchObject({ ok: true, userErrors: [], conversation: { id: String(bot.id) } });

      stack.emu.server.resetCalls();
      const now = client.readQuery({ query: AssistantConversationDocument, variables: { with: String(bot.id) } });
      const edges = now!.me!.conversation.edges;
      expect(edges.map((e) => e.node.content)).toEqual(['2+2?', 'echo: 2+2?']);
      // The payload's edges are the list's own: the same cursors as the conversation gives.
      expect(edges.map((e) => e.cursor)).toEqual([answer!.edge!.cursor, answer!.replyEdge!.cursor]);
      expect(stack.emu.server.calls).toEqual([]);
    } finally {
      await close();
    }
  });
});
