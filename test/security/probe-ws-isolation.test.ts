// Probe: on one graphql-ws connection with a healthy subscription, operations the gateway refuses
// (a syntax error, too deep, too many aliases, too many tokens, an unknown field). Each ends with
// an `error` message for that operation alone; the socket stays open and the healthy
// subscription keeps delivering (once, the first such operation closed the socket with 4500).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../helpers/stack';
import { type Ending, wsClient } from '../helpers/subscriptions/clients';
import type { TestUser } from '../helpers/emulator';
import { sendText, UNREAD, type UnreadData } from '../helpers/subscriptions/operations';
import { identity } from '../helpers/users';
import { expectNoErrorLogs } from '../helpers/no-error-logs';

let stack: Stack;
let me: TestUser;
let peer: TestUser;
beforeAll(async () => {
  stack = await startStack({ POLL_INTERVAL_MS: '100' });
  me = await stack.emu.user();
  peer = await stack.emu.user();
});
afterAll(() => stack.stop());

expectNoErrorLogs();

const nested = (levels: number) => `subscription { unreadCounts { ${'user { '.repeat(levels)}id${' }'.repeat(levels)} } }`;

const REFUSED: [string, string, string][] = [
  ['a syntax error', 'subscription { unreadCounts { ', 'GRAPHQL_PARSE_FAILED'],
  ['a query over the depth limit', nested(12), 'MAX_DEPTH_EXCEEDED'],
  [
    'more aliases than the limit',
    `subscription { unreadCounts { ${Array.from({ length: 51 }, (_, i) => `a${i}: unreadCount`).join(' ')} } }`,
    'MAX_ALIASES_EXCEEDED',
  ],
  ['5,000 nested selections', nested(5_000), 'MAX_TOKENS_EXCEEDED'],
  ['an unknown field', 'subscription { nothingHere }', 'GRAPHQL_VALIDATION_FAILED'],
];

describe('one refused operation on a shared WebSocket', () => {
  it('ends that operation with an error; the socket and the healthy subscription live on', async () => {
    const client = wsClient(stack.url, identity(stack.emu, me));
    const closed = vi.fn();
    client.on('closed', closed);
    try {
      const healthy = client.feed<UnreadData>(UNREAD);
      expect((await healthy.next()).data?.unreadCounts).toEqual([]);

      for (const [what, query, code] of REFUSED) {
        const ending: Ending = await client.feed(query).ending;
        expect(ending, what).toHaveProperty('error');
        const errors = (ending as { error: { message: string; extensions?: Record<string, unknown> }[] }).error;
        expect(Array.isArray(errors), what).toBe(true);
        // Codes: the graphql-ws client shows what the server sent, without yoga's HTTP hints.
        expect(errors[0]?.extensions?.code, what).toBe(code);
        expect(errors[0]?.extensions?.http, what).toBeUndefined();
      }

      await sendText(stack.emu, peer, me, 'still there?');
      const update = await healthy.next();
      expect(update.data?.unreadCounts).toMatchObject([{ conversationId: String(peer.id), unreadCount: 1 }]);
      expect(closed).not.toHaveBeenCalled();
    } finally {
      await client.dispose();
    }
  });
});
