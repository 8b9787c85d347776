// Operation messages (content_type 9-12, sent over REST) as the gateway shows them: a read ack
// and a recall surface as the events 5.1 and 5.5 cause; an APPEND or REPLACE as MessageChanged
// with the changed message (the emulator keeps the edit in history as a record of its own, which
// the history lists leave out), while the history shows the changed content.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/emulator';
import { startStack, type Stack } from '../helpers/stack';
import { wsClient } from '../helpers/subscriptions/clients';
import { sendText } from '../helpers/subscriptions/operations';
import { baselineSet } from '../helpers/subscriptions/polls';
import { identity } from '../helpers/users';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ POLL_INTERVAL_MS: '100' });
});
afterAll(() => stack.stop());

const EVENTS = `subscription($with: ID!) { conversationEvents(with: $with) {
  __typename messageId
  ... on MessageReceived { message { type content } }
  ... on MessageChanged { changeId message { messageId type content } }
  ... on MessageRead { messages { messageId status } } } }`;

interface Event {
  __typename: string;
  messageId: string;
  changeId?: string;
  message?: { messageId?: string; type: string | null; content: string };
  messages?: { messageId: string; status: string }[];
}

const operation = (from: TestUser, to: TestUser, contentType: number, relatedMid: string, content = '') =>
  stack.emu.ok('POST', '/message/send', {
    token: from.token,
    body: { content_type: contentType, content, targets: [to.id], type: 1, related_mid: BigInt(relatedMid) },
  });

describe('operation messages through the gateway', () => {
  it('conversationEvents: READ_ACK reads, APPEND changes the message in place, RECALL recalls', async () => {
    const [me, peer] = [await stack.emu.user(), await stack.emu.user()];
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const feed = client.feed<{ conversationEvents: Event }>(EVENTS, { with: String(peer.id) });
      const next = async () => {
        const result = await feed.next();
        expect(result.errors).toBeUndefined();
        return result.data!.conversationEvents;
      };
      await baselineSet(stack.emu, peer);
      const mine = await sendText(stack.emu, me, peer, 'Hel');
      expect(await next()).toEqual({ __typename: 'MessageReceived', messageId: mine, message: { type: 'TEXT', content: 'Hel' } });

      await operation(peer, me, 9, mine);
      expect(await next()).toEqual({ __typename: 'MessageRead', messageId: mine, messages: [{ messageId: mine, status: 'READ' }] });

      const edit = String(
        (
          await stack.emu.rest('POST', '/message/send', {
            token: me.token,
            body: { content_type: 11, content: 'lo', targets: [peer.id], type: 1, related_mid: BigInt(mine) },
          })
        ).msg_ids![0],
      );
      expect(await next()).toEqual({
        __typename: 'MessageChanged',
        messageId: mine,
        changeId: edit,
        message: { messageId: mine, type: 'TEXT', content: 'Hello' },
      });

      await operation(me, peer, 10, mine);
      expect(await next()).toEqual({ __typename: 'MessageRecalled', messageId: mine });
    } finally {
      await client.dispose();
    }
  });

  it('me.conversation shows the replaced content on the message and leaves the operation message out', async () => {
    const [me, peer] = [await stack.emu.user(), await stack.emu.user()];
    const mine = await sendText(stack.emu, me, peer, 'draft');
    await operation(me, peer, 12, mine, 'final');
    const reply = await stack.gqlAs<{ me: { conversation: { nodes: { messageId: string; type: string | null; content: string }[] } } }>(
      peer,
      'query($with: ID!) { me { conversation(with: $with) { nodes { messageId type content } } } }',
      { with: String(me.id) },
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.me.conversation.nodes).toEqual([{ messageId: mine, type: 'TEXT', content: 'final' }]);
  });
});
