// Friend requests through the gateway: sent (friends at once or waiting), refused (userErrors,
// nothing written), sent in a batch, listed, accepted and declined; each payload carries the
// users and the request as they are after the write.
import { describe, expect, it } from 'vitest';
import type { TestUser } from '../../helpers/users';
import { askQuestion, befriend, pendingRequest, setAuthMode } from '../../helpers/roster';
import { friendIdsOf, useRosterWorld } from './roster-world';

const w = useRosterWorld();

interface SendPayload {
  ok: boolean;
  outcome: string | null;
  userErrors: { code: string; field: string[] | null }[];
  user: { id: string; relation: string } | null;
}

const send = (as: TestUser, input: string) =>
  w.data<{ sendFriendRequest: SendPayload }>(
    as,
    `mutation { sendFriendRequest(input: { ${input} }) { ok outcome userErrors { code field } user { id relation } } }`,
  );

/** The applications `u` received, as the emulator holds them. */
const receivedBy = (u: TestUser) => w.stack.emu.ok<{ user_id: number; status: number }[]>('GET', '/roster/apply/list', { token: u.token });

describe('sendFriendRequest', () => {
  it('makes friends at once with a user who admits anyone; the payload shows the new relation', async () => {
    const [me, other] = [await w.user(), await w.user()];
    const data = await send(me, `userId: "${other.id}", message: "hi", alias: "Bob"`);
    expect(data.sendFriendRequest).toEqual({
      ok: true,
      outcome: 'FRIENDS',
      userErrors: [],
      user: { id: String(other.id), relation: 'FRIEND' },
    });
    expect(w.stack.emu.calls('POST /roster/apply')[0]?.body).toEqual({ user_id: other.id, reason: 'hi', alias: 'Bob' });
    expect(await friendIdsOf(w.stack, me)).toEqual([other.id]);
  });

  it('waits for a user who accepts requests themselves, and the request shows in their list', async () => {
    const [me, other] = [await w.user(), await w.user()];
    await setAuthMode(w.stack.emu, other, 1);
    const data = await send(me, `userId: "${other.id}", message: "let us talk"`);
    expect(data.sendFriendRequest).toMatchObject({ ok: true, outcome: 'WAITING', user: { relation: 'STRANGER' } });
    const list = await w.data<{
      me: { friendRequests: { nodes: { fromId: string; from: { id: string }; message: string; status: string; expiresAt: string }[] } };
    }>(other, '{ me { friendRequests(first: 10) { nodes { fromId from { id } message status expiresAt } } } }');
    expect(list.me.friendRequests.nodes).toHaveLength(1);
    expect(list.me.friendRequests.nodes[0]).toMatchObject({
      fromId: String(me.id),
      from: { id: String(me.id) },
      message: 'let us talk',
      status: 'PENDING',
    });
    expect(Date.parse(list.me.friendRequests.nodes[0]!.expiresAt)).toBeGreaterThan(Date.now());
  });

  it('admits the right answer to the user question', async () => {
    const [me, other] = [await w.user(), await w.user()];
    await askQuestion(w.stack.emu, other, 'Colour?', 'blue');
    const data = await send(me, `userId: "${other.id}", answer: "blue"`);
    expect(data.sendFriendRequest).toMatchObject({ ok: true, outcome: 'FRIENDS' });
  });

  describe('refusals: a userError with its code and field, nothing written', () => {
    it('CANNOT_REQUEST_SELF for the acting user itself', async () => {
      const me = await w.user();
      const data = await send(me, `userId: "${me.id}"`);
      expect(data.sendFriendRequest).toEqual({
        ok: false,
        outcome: null,
        user: null,
        userErrors: [{ code: 'CANNOT_REQUEST_SELF', field: ['input', 'userId'] }],
      });
      expect(await friendIdsOf(w.stack, me)).toEqual([]);
    });

    it('BLOCKED for a user who blocked the viewer', async () => {
      const [me, other] = [await w.user(), await w.user()];
      await setAuthMode(w.stack.emu, other, 1);
      await w.stack.emu.ok('POST', '/roster/block', { token: other.token, query: { user_id: me.id } });
      const data = await send(me, `userId: "${other.id}"`);
      expect(data.sendFriendRequest).toMatchObject({ ok: false, userErrors: [{ code: 'BLOCKED', field: ['input', 'userId'] }] });
      expect(await receivedBy(other)).toEqual([]);
    });

    it('WRONG_ANSWER for a missing or wrong answer, naming the answer', async () => {
      const [me, other] = [await w.user(), await w.user()];
      await askQuestion(w.stack.emu, other, 'Colour?', 'blue');
      for (const input of [`userId: "${other.id}", answer: "red"`, `userId: "${other.id}"`]) {
        const data = await send(me, input);
        expect(data.sendFriendRequest).toMatchObject({ ok: false, userErrors: [{ code: 'WRONG_ANSWER', field: ['input', 'answer'] }] });
      }
      expect(await friendIdsOf(w.stack, me)).toEqual([]);
      expect(await receivedBy(other)).toEqual([]);
    });

    it('REQUESTS_REFUSED for a user who refuses every request', async () => {
      const [me, other] = [await w.user(), await w.user()];
      await setAuthMode(w.stack.emu, other, 3);
      const data = await send(me, `userId: "${other.id}"`);
      expect(data.sendFriendRequest).toMatchObject({ ok: false, userErrors: [{ code: 'REQUESTS_REFUSED', field: ['input', 'userId'] }] });
      expect(await receivedBy(other)).toEqual([]);
    });

    it('ALREADY_FRIENDS for a friend', async () => {
      const [me, other] = [await w.user(), await w.user()];
      await befriend(w.stack.emu, me, other);
      const data = await send(me, `userId: "${other.id}"`);
      expect(data.sendFriendRequest).toMatchObject({ ok: false, userErrors: [{ code: 'ALREADY_FRIENDS', field: ['input', 'userId'] }] });
    });
  });
});

describe('sendFriendRequests', () => {
  it('answers one result per user, a refused one also a userError ending with its index', async () => {
    const [me, admits, waits, refuses] = [await w.user(), await w.user(), await w.user(), await w.user()];
    await setAuthMode(w.stack.emu, waits, 1);
    await setAuthMode(w.stack.emu, refuses, 3);
    const data = await w.data<{
      sendFriendRequests: {
        ok: boolean;
        userErrors: { code: string; field: string[] }[];
        results: { userId: string; success: boolean; code: string | null; outcome: string | null; user: { relation: string } }[];
      };
    }>(
      me,
      `mutation { sendFriendRequests(input: { userIds: ["${admits.id}", "${waits.id}", "${refuses.id}", "${me.id}"], message: "hello" }) {
        ok userErrors { code field } results { userId success code outcome user { relation } } } }`,
    );
    const r = data.sendFriendRequests;
    expect(r.ok).toBe(false);
    expect(r.results.map((x) => [x.userId, x.success, x.code, x.outcome, x.user.relation])).toEqual([
      [String(admits.id), true, null, 'FRIENDS', 'FRIEND'],
      [String(waits.id), true, null, 'WAITING', 'STRANGER'],
      [String(refuses.id), false, 'REQUESTS_REFUSED', null, 'STRANGER'],
      [String(me.id), false, 'CANNOT_REQUEST_SELF', null, 'STRANGER'],
    ]);
    expect(r.userErrors).toEqual([
      { code: 'REQUESTS_REFUSED', field: ['input', 'userIds', '2'] },
      { code: 'CANNOT_REQUEST_SELF', field: ['input', 'userIds', '3'] },
    ]);
    expect(w.stack.emu.calls('POST /roster/apply/batch')[0]?.body).toEqual([
      { user_id: admits.id, reason: 'hello' },
      { user_id: waits.id, reason: 'hello' },
      { user_id: refuses.id, reason: 'hello' },
      { user_id: me.id, reason: 'hello' },
    ]);
  });

  it('refuses an empty list with BAD_USER_INPUT before any REST call', async () => {
    const me = await w.user();
    w.mark();
    const reply = await w.stack.gqlAs(me, 'mutation { sendFriendRequests(input: { userIds: [] }) { ok } }');
    expect(reply.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.userIds' });
    expect(w.endpoints()).toEqual([]);
  });
});

interface AnswerPayload {
  ok: boolean;
  userErrors: { code: string; field: string[] }[];
  request: { fromId: string; status: string } | null;
  user: { id: string; relation: string } | null;
  me: { friends: { nodes: { id: string }[] } } | null;
}

const answer = (as: TestUser, call: string) =>
  w.data<Record<string, AnswerPayload>>(
    as,
    `mutation { r: ${call} { ok userErrors { code field } request { fromId status } user { id relation } me { friends(first: 10) { nodes { id } } } } }`,
  );

describe('answers', () => {
  it('accepts: the payload shows the request ACCEPTED, the sender a FRIEND, and the friends list with them', async () => {
    const [from, me] = [await w.user(), await w.user()];
    await pendingRequest(w.stack.emu, from, me);
    const data = await answer(me, `acceptFriendRequest(input: { fromId: "${from.id}" })`);
    expect(data.r).toEqual({
      ok: true,
      userErrors: [],
      request: { fromId: String(from.id), status: 'ACCEPTED' },
      user: { id: String(from.id), relation: 'FRIEND' },
      me: { friends: { nodes: [{ id: String(from.id) }] } },
    });
    expect(await friendIdsOf(w.stack, from)).toEqual([me.id]);
  });

  it('declines: the request DECLINED, no friendship', async () => {
    const [from, me] = [await w.user(), await w.user()];
    await pendingRequest(w.stack.emu, from, me);
    const data = await answer(me, `declineFriendRequest(input: { fromId: "${from.id}", reason: "no" })`);
    expect(data.r).toMatchObject({
      ok: true,
      request: { status: 'DECLINED' },
      user: { relation: 'STRANGER' },
      me: { friends: { nodes: [] } },
    });
    expect(w.stack.emu.calls('PUT /roster/decline')[0]?.body).toEqual({ user_id: from.id, reason: 'no' });
  });

  it('takes the request global ID too', async () => {
    const [from, me] = [await w.user(), await w.user()];
    await pendingRequest(w.stack.emu, from, me);
    const listed = await w.stack.gql<{ me: { friendRequests: { nodes: { id: string }[] } } }>(
      '{ me { friendRequests { nodes { id } } } }',
      {},
      { 'access-token': me.token, 'x-id-format': 'global' },
    );
    const id = listed.data!.me.friendRequests.nodes[0]!.id;
    const node = await w.stack.gql<{ node: { fromId: string } }>(
      `{ node(id: "${id}") { ... on FriendRequest { fromId } } }`,
      {},
      {
        'access-token': me.token,
        'x-id-format': 'global',
      },
    );
    expect(node.data?.node).toEqual({ fromId: String(from.id) });
    const data = await answer(me, `acceptFriendRequest(input: { fromId: "${id}" })`);
    expect(data.r).toMatchObject({ ok: true, user: { relation: 'FRIEND' } });
  });

  it('answers NO_LONGER_PENDING for a request already handled (or none), nothing changed', async () => {
    const [from, me] = [await w.user(), await w.user()];
    await pendingRequest(w.stack.emu, from, me);
    await w.stack.emu.ok('POST', '/roster/decline', { token: me.token, body: { user_id: from.id } });
    const data = await answer(me, `acceptFriendRequest(input: { fromId: "${from.id}" })`);
    expect(data.r).toMatchObject({
      ok: false,
      request: null,
      user: null,
      userErrors: [{ code: 'NO_LONGER_PENDING', field: ['input', 'fromId'] }],
    });
    expect(await friendIdsOf(w.stack, me)).toEqual([]);
  });
});
