// The personal blacklist: block (8.5), unblock (8.16), list (8.6), and what it stands in the way
// of: friendships, applications (10006), one-to-one messages (10006) and 8.13's answer.
import { describe, expect, it } from 'vitest';
import type { ConversationPage } from '../../../src/rest/records';
import { as, type TestUser, useRosterWorld } from './world';

const w = useRosterWorld();

const block = (owner: TestUser, other: TestUser, method = 'PUT') =>
  w.emu.ok(method, '/roster/block', as(owner, { query: { user_id: other.id } }));
const unblock = (owner: TestUser, other: TestUser, method = 'DELETE') =>
  w.emu.ok(method, '/roster/unblock', as(owner, { query: { user_id: other.id } }));
const send = (from: TestUser, to: TestUser) =>
  w.emu.rest('POST', '/message/send', as(from, { body: { content_type: 0, content: 'hi', targets: [to.id], type: 1 } }));
const history = async (reader: TestUser, other: TestUser) =>
  (
    await w.emu.ok<ConversationPage>(
      'GET',
      '/message/conversation',
      as(reader, { query: { opposite_id: other.id, msg_id_start: 0, limit: 50 } }),
    )
  ).messages;

describe.each(['PUT', 'POST'])('%s /roster/block (8.5)', (method) => {
  it('puts the user on the blacklist: listed in order by 8.6, relation 3 in the owner view only', async () => {
    const owner = await w.user();
    const b = await w.user();
    const c = await w.user();
    expect(await block(owner, c, method)).toBe(true);
    expect(await block(owner, b, method)).toBe(true);
    expect(await w.blocked(owner)).toEqual([c.id, b.id]);
    expect((await w.item(owner, b)).relation).toBe(3);
    expect((await w.item(b, owner)).relation).toBe(2);
    expect(await w.blocked(b)).toEqual([]);
  });

  it('blocking again changes nothing', async () => {
    const owner = await w.user();
    const b = await w.user();
    await block(owner, b, method);
    expect(await block(owner, b, method)).toBe(true);
    expect(await w.blocked(owner)).toEqual([b.id]);
  });

  it('ends a friendship on both sides', async () => {
    const [a, b] = await w.friends();
    await block(a, b, method);
    expect(await w.friendIds(a)).toEqual([]);
    expect(await w.friendIds(b)).toEqual([]);
    expect((await w.item(b, a)).relation).toBe(1);
  });

  it('withdraws pending applications between the two, both ways', async () => {
    const a = await w.user({ auth_mode: 1 });
    const b = await w.user({ auth_mode: 1 });
    const c = await w.user();
    await w.apply(b, a);
    await w.apply(c, a);
    await block(a, b, method);
    expect((await w.applications(a)).map((x) => x.user_id)).toEqual([c.id]);
    expect(await w.code('PUT', '/roster/accept', as(a, { query: { user_id: b.id } }))).toBe(10007);
  });

  it('refuses oneself (10002), an unknown user (10000) and a missing user_id (10002), changing nothing', async () => {
    const a = await w.user();
    const b = await w.user();
    await block(a, b);
    for (const [query, code] of [
      [{ user_id: a.id }, 10002],
      [{ user_id: 2_999_999_999_999 }, 10000],
      [{}, 10002],
    ] as const) {
      expect(await w.code(method, '/roster/block', as(a, { query }))).toBe(code);
    }
    expect(await w.blocked(a)).toEqual([b.id]);
  });
});

describe.each(['DELETE', 'POST'])('%s /roster/unblock (8.16)', (method) => {
  it('takes the user off the list: a stranger is a stranger again', async () => {
    const a = await w.user();
    const b = await w.user();
    await block(a, b);
    expect(await unblock(a, b, method)).toBe(true);
    expect(await w.blocked(a)).toEqual([]);
    expect((await w.item(a, b)).relation).toBe(2);
    expect(await unblock(a, b, method)).toBe(true);
  });

  it('a blocked friend comes back as a former friend, not as a friend', async () => {
    const [a, b] = await w.friends();
    await block(a, b);
    await unblock(a, b, method);
    expect((await w.item(a, b)).relation).toBe(1);
    expect(await w.friendIds(a)).toEqual([]);
    expect((await w.apply(a, b)).code).toBe(200);
    expect((await w.item(a, b)).relation).toBe(0);
  });

  it('refuses an unknown user with 10000', async () => {
    const a = await w.user();
    expect(await w.code(method, '/roster/unblock', as(a, { query: { user_id: 2_999_999_999_999 } }))).toBe(10000);
  });
});

describe('what a blacklist stands in the way of', () => {
  it.each(['the receiver blocked the applicant', 'the applicant blocked the receiver'])(
    'applications, with 10006 when %s; nothing changes',
    async (who) => {
      const a = await w.user();
      const b = await w.user();
      if (who.startsWith('the receiver')) await block(b, a);
      else await block(a, b);
      const before = await w.snapshot([a, b]);
      expect((await w.apply(a, b)).code).toBe(10006);
      expect(await w.snapshot([a, b])).toEqual(before);
    },
  );

  it('one-to-one messages to the blocker: 10006, nothing stored; the blocker may still send', async () => {
    const a = await w.user();
    const b = await w.user();
    await block(b, a);
    const reply = await send(a, b);
    expect(reply.code).toBe(10006);
    expect(reply.message).toContain('blacklist');
    expect(await history(b, a)).toEqual([]);
    expect(await history(a, b)).toEqual([]);

    expect((await send(b, a)).code).toBe(200);
    await unblock(b, a);
    expect((await send(a, b)).code).toBe(200);
    expect((await history(b, a)).map((m) => m.content)).toEqual(['hi', 'hi']);
  });

  it('a send to several users is refused whole when one of them blocked the sender', async () => {
    const a = await w.user();
    const b = await w.user();
    const c = await w.user();
    await block(c, a);
    expect(
      (await w.emu.rest('POST', '/message/send', as(a, { body: { content_type: 0, content: 'hi', targets: [b.id, c.id], type: 1 } }))).code,
    ).toBe(10006);
    expect(await history(b, a)).toEqual([]);
  });
});

describe('GET /roster/may_message (8.13): user_id sends to roster_id', () => {
  const may = (caller: TestUser | string, sender: TestUser, receiver: TestUser) =>
    w.emu.rest<boolean>('GET', '/roster/may_message', {
      token: typeof caller === 'string' ? caller : caller.token,
      query: { user_id: sender.id, roster_id: receiver.id },
    });

  it('is false only when the receiver has the sender on their blacklist, friends or not', async () => {
    const a = await w.user();
    const b = await w.user();
    expect((await may(a, a, b)).data).toBe(true);
    await block(b, a);
    expect((await may(a, a, b)).data).toBe(false);
    expect((await may(b, a, b)).data).toBe(false);
    expect((await may(a, b, a)).data).toBe(true);
    expect((await may(w.emu.adminToken, a, b)).data).toBe(false);
  });

  it('refuses a user token asking about two other users (10010) and unknown users (10000)', async () => {
    const a = await w.user();
    const b = await w.user();
    const c = await w.user();
    expect((await may(c, a, b)).code).toBe(10010);
    const ghost = { ...a, id: 2_999_999_999_999 };
    expect((await may(a, a, ghost)).code).toBe(10000);
    expect((await w.emu.rest('GET', '/roster/may_message', as(a, { query: { user_id: a.id } }))).code).toBe(10002);
  });
});
