// Subscription limits on one gateway (no Redis): MAX_SUBSCRIPTIONS_PER_SOCKET refuses the
// operation over it with SUBSCRIPTION_LIMIT while the socket and its other subscriptions live on,
// and a completed subscription frees its slot; MAX_SUBSCRIPTIONS_PER_IDENTITY counts the
// identity's subscriptions over every socket and SSE; operations sharing one execution count
// each; the refusals are counted in /metrics; bad limits stop the start.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config';
import { useStack } from '../../helpers/stack';
import { sseFeed, wsClient } from '../../helpers/subscriptions/clients';
import { admittedEventually, limitRefusal } from '../../helpers/subscriptions/limits';
import { sendText, UNREAD, type UnreadData } from '../../helpers/subscriptions/operations';
import { identity } from '../../helpers/users';

const stack = useStack({ MAX_SUBSCRIPTIONS_PER_SOCKET: '3', MAX_SUBSCRIPTIONS_PER_IDENTITY: '5', POLL_INTERVAL_MS: '100' });

const count = (result: { data?: UnreadData | null }) => result.data?.unreadCounts[0]?.unreadCount;
const MESSAGES = 'subscription($with: ID!) { conversationMessages(with: $with) { id } }';

describe('MAX_SUBSCRIPTIONS_PER_SOCKET', () => {
  it('refuses the operation over it with SUBSCRIPTION_LIMIT; the others keep their events; a completed one frees its slot', async () => {
    const me = await stack.emu.user();
    const peer = await stack.emu.user();
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      // Identical operations share one execution, and still count one each.
      const feeds = [1, 2, 3].map(() => client.feed<UnreadData>(UNREAD));
      for (const feed of feeds) expect(await limitRefusal(feed)).toBeUndefined();
      stack.emu.mark();
      const over = client.feed<UnreadData>(MESSAGES, { with: String(peer.id) });
      expect(await limitRefusal(over)).toEqual({ code: 'SUBSCRIPTION_LIMIT', limit: 3, scope: 'socket' });
      // Refused before it started: nothing polled for it.
      expect(stack.emu.calls('GET /message/conversation')).toEqual([]);

      await sendText(stack.emu, peer, me, 'hello');
      for (const feed of feeds) expect(count(await feed.next())).toBe(1);

      await feeds[0]!.close();
      const again = await admittedEventually(() => client.feed<UnreadData>(UNREAD));
      await sendText(stack.emu, peer, me, 'again');
      for (const feed of [feeds[1]!, feeds[2]!, again]) expect(count(await feed.next())).toBe(2);
      const metrics = await (await fetch(`${stack.url}/metrics`)).text();
      expect(metrics).toMatch(/^im_gateway_subscriptions_refused_total\{limit="socket"\} [1-9]/m);
    } finally {
      await client.dispose();
    }
  });
});

describe('MAX_SUBSCRIPTIONS_PER_IDENTITY', () => {
  it("counts the identity's subscriptions over all its sockets and SSE; ending one admits the next", async () => {
    const me = await stack.emu.user();
    const [a, b] = [1, 2].map(() => wsClient(stack.url, identity(stack.emu, me)));
    try {
      const held = [...[1, 2, 3].map(() => a!.feed<UnreadData>(UNREAD)), ...[1, 2].map(() => b!.feed<UnreadData>(UNREAD))];
      for (const feed of held) expect(await limitRefusal(feed)).toBeUndefined();
      // Socket b holds 2 of its 3: the identity's limit refuses the third.
      expect(await limitRefusal(b!.feed(UNREAD))).toEqual({ code: 'SUBSCRIPTION_LIMIT', limit: 5, scope: 'identity' });
      expect(await limitRefusal(sseFeed(stack.url, identity(stack.emu, me), UNREAD))).toEqual({
        code: 'SUBSCRIPTION_LIMIT',
        limit: 5,
        scope: 'identity',
      });
      // Another identity is not concerned.
      const other = await stack.emu.user();
      const elsewhere = sseFeed(stack.url, identity(stack.emu, other), UNREAD);
      expect(await limitRefusal(elsewhere)).toBeUndefined();
      await elsewhere.close();

      await held[4]!.close();
      const sse = await admittedEventually(() => sseFeed<UnreadData>(stack.url, identity(stack.emu, me), UNREAD));
      // The SSE subscription holds the slot: a WebSocket one is refused until it ends.
      expect(await limitRefusal(b!.feed(UNREAD))).toMatchObject({ scope: 'identity' });
      await sse.close();
      await admittedEventually(() => b!.feed<UnreadData>(UNREAD));
    } finally {
      await Promise.all([a!.dispose(), b!.dispose()]);
    }
  });
});

describe('configuration', () => {
  it('defaults to 50 per socket, 200 per identity, and a quarter of IM_CONNECTIONS for polls', () => {
    const config = loadConfig({});
    expect([config.maxSubscriptionsPerSocket, config.maxSubscriptionsPerIdentity, config.pollConnections]).toEqual([50, 200, 16]);
    expect(loadConfig({ IM_CONNECTIONS: '2' }).pollConnections).toBe(1);
    expect(loadConfig({ IM_CONNECTIONS: '10', IM_POLL_CONNECTIONS: '10' }).pollConnections).toBe(10);
  });

  it.each([
    ['MAX_SUBSCRIPTIONS_PER_SOCKET', '0'],
    ['MAX_SUBSCRIPTIONS_PER_SOCKET', '-1'],
    ['MAX_SUBSCRIPTIONS_PER_SOCKET', '1e3'],
    ['MAX_SUBSCRIPTIONS_PER_IDENTITY', 'many'],
    ['MAX_SUBSCRIPTIONS_PER_IDENTITY', '0'],
    ['IM_POLL_CONNECTIONS', '0'],
    ['IM_POLL_CONNECTIONS', '65'],
  ])('refuses %s=%s with a ConfigError naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
