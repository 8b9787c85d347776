// Failures and shutdown: an upstream failure reaches subscribers as a GraphQL error while the
// poller backs off, and stopping the gateway completes every subscription and stops every poller.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createGateway } from '../../src/gateway/create-gateway';
import { envelope, failure, startScriptedServer } from '../helpers/scripted-server';
import { startStack } from '../helpers/stack';
import { sseFeed, wsClient } from '../helpers/subscriptions/clients';
import { sendText, UNREAD, type UnreadData } from '../helpers/subscriptions/operations';
import { sleep, until } from '../helpers/wait';
import { identity } from '../helpers/users';

const INTERVAL = 100;

describe('upstream failures', () => {
  it('sends each failed poll as an error with its code, backs off, then sends the value once it succeeds', async () => {
    const polls: number[] = [];
    const upstream = await startScriptedServer((req) => {
      if (req.path === '/user/profile') return envelope({ user_id: 5, username: 'u' });
      if (req.path !== '/message/unread') return failure(404, 'no such endpoint', 404);
      polls.push(performance.now());
      if (polls.length <= 2) return failure(503, 'busy', 503);
      return envelope([{ conversation_id: { uid: 7 }, num: 1 }]);
    });
    const config = { ...loadConfig({ PORT: '1', POLL_INTERVAL_MS: String(INTERVAL), IM_RETRIES: '0' }), port: 0 };
    const gateway = createGateway(config, { imBaseUrl: upstream.url });
    const url = await gateway.start();
    const client = wsClient(url, { app_id: 'app', 'access-token': 'token' });
    try {
      const feed = client.feed<UnreadData>('subscription { unreadCounts { conversationId unreadCount } }');
      for (let i = 0; i < 2; i++) {
        const failed = await feed.next();
        expect(failed.data ?? null).toBeNull();
        expect(failed.errors?.[0]?.extensions).toMatchObject({
          code: 'UPSTREAM_UNAVAILABLE',
          endpoint: 'GET /message/unread',
          httpStatus: 503,
        });
      }
      expect((await feed.next()).data).toEqual({ unreadCounts: [{ conversationId: '7', unreadCount: 1 }] });
      // Backoff: after the second failure the wait is at least two intervals (then back to one).
      expect(polls[2]! - polls[1]!).toBeGreaterThanOrEqual(2 * INTERVAL - 5);
      await until('four more polls', () => polls.length >= 7);
      expect(feed.pending).toBe(0);
      // Back to one interval: a loaded machine may delay a round, so the quickest of four gaps is
      // the one below two intervals (a backoff that never reset would keep every gap above).
      const steady = polls.slice(3, 7).map((t, i) => t - polls[2 + i]!);
      expect(Math.min(...steady)).toBeLessThan(2 * INTERVAL - 5);
    } finally {
      await client.dispose();
      await gateway.stop();
      await upstream.close();
    }
  });
});

describe('shutdown', () => {
  it('completes every subscription (WebSocket and SSE) and stops every poller', async () => {
    const stack = await startStack({ POLL_INTERVAL_MS: String(INTERVAL) });
    const me = await stack.emu.user();
    const peer = await stack.emu.user();
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const unread = client.feed<UnreadData>(UNREAD);
      const messages = client.feed('subscription($p: ID!) { conversationMessages(with: $p) { id } }', { p: String(peer.id) });
      const sse = sseFeed<UnreadData>(stack.url, identity(stack.emu, peer), UNREAD);
      await unread.next();
      await sse.next();
      await sendText(stack.emu, peer, me, 'hi');
      await unread.next();

      await stack.gateway.stop();
      for (const feed of [unread, messages, sse]) expect(await feed.ending).toEqual({ complete: true });
      stack.emu.mark();
      await sleep(INTERVAL * 4);
      expect(stack.emu.calls('GET /message/unread').length + stack.emu.calls('GET /message/conversation').length).toBe(0);
    } finally {
      await client.dispose();
      await stack.emu.stop();
    }
  });
});

describe('more than one round can read', () => {
  it('ends conversationMessages with UPSTREAM_UNAVAILABLE rather than skip messages', async () => {
    // The service: message 1000 at first, then ever more new messages, page after page (more
    // than the 5 pages of 20 one round reads), so the round never reaches message 1000 again.
    let round = 0;
    const upstream = await startScriptedServer((req) => {
      if (req.path === '/user/profile') return envelope({ user_id: 5, username: 'u' });
      if (req.path !== '/message/conversation') return failure(404, 'no such endpoint', 404);
      if (req.query.get('msg_id_start') === '0') round++;
      const top = round === 1 ? 1000 : Number(req.query.get('msg_id_start')) || 2000;
      const limit = Number(req.query.get('limit'));
      const messages = Array.from({ length: limit }, (_, i) => ({
        msg_id: top - i,
        ctype: 0,
        content: 'm',
        attachment: '',
        config: '',
        ext: '',
        status: 0,
        timestamp: 1,
        from_xid: { uid: 7 },
        to_xid: { uid: 5 },
      }));
      return envelope({ is_last: false, messages, next_msg_id: top - limit });
    });
    const config = { ...loadConfig({ PORT: '1', POLL_INTERVAL_MS: String(INTERVAL), IM_RETRIES: '0' }), port: 0 };
    const gateway = createGateway(config, { imBaseUrl: upstream.url });
    const client = wsClient(await gateway.start(), { app_id: 'app', 'access-token': 'token' });
    try {
      const messages = client.feed('subscription { conversationMessages(with: "7") { id } }');
      const ended = await messages.next();
      expect(ended.data ?? null).toBeNull();
      expect(ended.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
      expect(await messages.ending).toEqual({ complete: true });
      expect(round).toBe(2); // no further round after the end
    } finally {
      await client.dispose();
      await gateway.stop();
      await upstream.close();
    }
  });
});
