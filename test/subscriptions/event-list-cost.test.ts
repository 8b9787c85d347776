// An event's list selection is costed as a query's would be (issue 42, bad input): a subscription
// whose event selects a list over the cost limit is refused at subscribe time with
// MAX_COST_EXCEEDED, before any REST call; the same list within the limit is accepted.
import { describe, expect, it } from 'vitest';
import { useStack } from '../helpers/stack';
import { wsClient } from '../helpers/subscriptions/clients';
import { polledTwice } from '../helpers/subscriptions/roster';
import { identity } from '../helpers/users';

const stack = useStack({ MAX_COST: '50', POLL_INTERVAL_MS: '100' });

// Each friend's nickname is a read of its own: 100 friends are over 50 calls, 10 are not.
const contacts = (first: number) =>
  `subscription { friendEvents { id me { friends(first: ${first}) { edges { alias node { id nickName } } } } } }`;

describe('the cost of an event selection', () => {
  it('refuses a list over the limit at subscribe time with MAX_COST_EXCEEDED, before any REST call', async () => {
    const me = await stack.emu.user();
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      stack.emu.server.resetCalls();
      const feed = client.feed(contacts(100));
      const result = await feed.next();
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'MAX_COST_EXCEEDED', limit: 50 });
      expect(stack.emu.server.calls.filter((c) => c.endpoint === 'GET /roster/list')).toEqual([]);
      // The same list asked by a query is refused alike.
      const query = await stack.gql(`{ me { friends(first: 100) { edges { alias node { id nickName } } } } }`, {}, identity(stack.emu, me));
      expect(query.errors?.[0]?.extensions).toMatchObject({ code: 'MAX_COST_EXCEEDED', limit: 50 });
    } finally {
      await client.dispose();
    }
  });

  it('accepts the list within the limit', async () => {
    const me = await stack.emu.user();
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const feed = client.feed(contacts(10));
      // Accepted: its poll runs, and no refusal came.
      await polledTwice(stack.emu, 'GET /roster/list');
      expect(feed.results).toEqual([]);
    } finally {
      await client.dispose();
    }
  });
});
