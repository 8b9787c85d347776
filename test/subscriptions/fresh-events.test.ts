// Each subscription event is resolved afresh: nested fields read the service again instead of
// what an earlier event of the same subscription remembered (ctx.invalidate per event).
import { expect, it } from 'vitest';
import { useStack } from '../helpers/stack';
import { sseFeed } from '../helpers/subscriptions/clients';
import { sendText } from '../helpers/subscriptions/operations';

const stack = useStack({ POLL_INTERVAL_MS: '100' });

interface PeerNames {
  unreadCounts: { unreadCount: number; user: { nickName: string | null } | null }[];
}

it("shows the peer's current profile in each unreadCounts event, not the one the first event read", async () => {
  const [me, peer] = [await stack.emu.user(), await stack.emu.user()];
  const rename = (nick: string) => stack.emu.ok('PUT', '/user/profile', { token: peer.token, body: { nick_name: nick } });
  await rename('Before');
  await sendText(stack.emu, peer, me, 'hello');
  // The admin token acting as `me`: the peer's profile is read through a client acting as the peer.
  const headers = { app_id: stack.emu.appId, ...stack.asUser(me.id) };
  const feed = sseFeed<PeerNames>(stack.url, headers, 'subscription { unreadCounts { unreadCount user { nickName } } }');
  try {
    expect((await feed.next()).data?.unreadCounts).toEqual([{ unreadCount: 1, user: { nickName: 'Before' } }]);
    await rename('After');
    await sendText(stack.emu, peer, me, 'again');
    expect((await feed.next()).data?.unreadCounts).toEqual([{ unreadCount: 2, user: { nickName: 'After' } }]);
  } finally {
    await feed.close();
  }
});
