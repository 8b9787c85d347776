// Friends kept or let go, and the personal blacklist, through the gateway: each payload names
// the user with the new relation, the ID a list lost, and the acting user's lists read fresh.
import { describe, expect, it } from 'vitest';
import { befriend } from '../../helpers/roster';
import { friendIdsOf, useRosterWorld } from './roster-world';

const w = useRosterWorld();

describe('updateFriend', () => {
  it("sets the acting user's notes; the payload's user carries them", async () => {
    const [me, friend] = [await w.user(), await w.user()];
    await befriend(w.stack.emu, me, friend);
    const data = await w.data<{ updateFriend: { ok: boolean; user: { alias: string; ext: string; muted: boolean } } }>(
      me,
      `mutation { updateFriend(input: { userId: "${friend.id}", alias: "Ann", muted: true }) { ok user { alias ext muted } } }`,
    );
    expect(data.updateFriend).toEqual({ ok: true, user: { alias: 'Ann', ext: '', muted: true } });
    expect(w.stack.emu.calls('PUT /roster/ext')[0]?.body).toEqual({ user_id: friend.id, alias: 'Ann', mute_notification: true });
  });

  it('answers NOT_FRIENDS for a user who is not a friend', async () => {
    const [me, other] = [await w.user(), await w.user()];
    const data = await w.data<{ updateFriend: { ok: boolean; userErrors: { code: string; field: string[] }[] } }>(
      me,
      `mutation { updateFriend(input: { userId: "${other.id}", ext: "x" }) { ok userErrors { code field } } }`,
    );
    expect(data.updateFriend).toEqual({ ok: false, userErrors: [{ code: 'NOT_FRIENDS', field: ['input', 'userId'] }] });
  });

  it('refuses an update that sets nothing with BAD_USER_INPUT before any REST call', async () => {
    const [me, friend] = [await w.user(), await w.user()];
    w.mark();
    const reply = await w.stack.gqlAs(me, `mutation { updateFriend(input: { userId: "${friend.id}" }) { ok } }`);
    expect(reply.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input' });
    expect(w.endpoints()).toEqual([]);
  });
});

describe('removeFriend', () => {
  it('ends the friendship on both sides; the payload names the removed friend', async () => {
    const [me, friend] = [await w.user(), await w.user()];
    await befriend(w.stack.emu, me, friend);
    const data = await w.data<{
      removeFriend: { ok: boolean; removedFriendId: string; user: { relation: string }; me: { friends: { totalCount: number } } };
    }>(me, `mutation { removeFriend(userId: "${friend.id}") { ok removedFriendId user { relation } me { friends { totalCount } } } }`);
    expect(data.removeFriend).toEqual({
      ok: true,
      removedFriendId: String(friend.id),
      user: { relation: 'FORMER_FRIEND' },
      me: { friends: { totalCount: 0 } },
    });
    expect(await friendIdsOf(w.stack, friend)).toEqual([]);
  });

  it('answers NOT_FRIENDS for a user who is not a friend', async () => {
    const [me, other] = [await w.user(), await w.user()];
    const data = await w.data<{
      removeFriend: { ok: boolean; removedFriendId: string | null; userErrors: { code: string; field: string[] }[] };
    }>(me, `mutation { removeFriend(userId: "${other.id}") { ok removedFriendId userErrors { code field } } }`);
    expect(data.removeFriend).toEqual({ ok: false, removedFriendId: null, userErrors: [{ code: 'NOT_FRIENDS', field: ['userId'] }] });
  });
});

describe('blacklist', () => {
  it('blocks a friend (the friendship ends) and unblocks (a former friend); the payloads name the user for list updates', async () => {
    const [me, friend] = [await w.user(), await w.user()];
    await befriend(w.stack.emu, me, friend);
    const blocked = await w.data<{
      blockUser: {
        ok: boolean;
        removedFriendId: string;
        user: { relation: string };
        me: { blockedUsers: { nodes: { id: string }[] }; friends: { totalCount: number } };
      };
    }>(
      me,
      `mutation { blockUser(userId: "${friend.id}") { ok removedFriendId user { relation } me { blockedUsers { nodes { id } } friends { totalCount } } } }`,
    );
    expect(blocked.blockUser).toEqual({
      ok: true,
      removedFriendId: String(friend.id),
      user: { relation: 'BLOCKED' },
      me: { blockedUsers: { nodes: [{ id: String(friend.id) }] }, friends: { totalCount: 0 } },
    });
    const unblocked = await w.data<{
      unblockUser: { ok: boolean; unblockedUserId: string; user: { relation: string }; me: { blockedUsers: { totalCount: number } } };
    }>(me, `mutation { unblockUser(userId: "${friend.id}") { ok unblockedUserId user { relation } me { blockedUsers { totalCount } } } }`);
    expect(unblocked.unblockUser).toEqual({
      ok: true,
      unblockedUserId: String(friend.id),
      user: { relation: 'FORMER_FRIEND' },
      me: { blockedUsers: { totalCount: 0 } },
    });
  });

  it('lists the blacklist in the order users were put on it, paged with item cursors', async () => {
    const me = await w.user();
    const others = [await w.user(), await w.user(), await w.user()];
    for (const o of others) await w.stack.emu.ok('POST', '/roster/block', { token: me.token, query: { user_id: o.id } });
    const first = await w.data<{
      me: { blockedUsers: { nodes: { id: string }[]; pageInfo: { endCursor: string; hasNextPage: boolean } } };
    }>(me, '{ me { blockedUsers(first: 2) { nodes { id } pageInfo { endCursor hasNextPage } } } }');
    expect(first.me.blockedUsers.nodes.map((n) => n.id)).toEqual([others[0]!.id, others[1]!.id].map(String));
    const rest = await w.data<{ me: { blockedUsers: { nodes: { id: string }[] } } }>(
      me,
      `{ me { blockedUsers(first: 2, after: "${first.me.blockedUsers.pageInfo.endCursor}") { nodes { id } } } }`,
    );
    expect(rest.me.blockedUsers.nodes.map((n) => n.id)).toEqual([String(others[2]!.id)]);
  });
});
