// Paging of the friend list (8.11) and the received applications (8.4): a top-level cursor that
// is absent on the last page, version beside it, and cursors that name items, not positions.
import { describe, expect, it } from 'vitest';
import type { FriendApplication } from '../../../src/rest/records';
import { as, type TestUser, useRosterWorld } from './world';

const w = useRosterWorld();

async function users(n: number, settings?: { auth_mode: number }): Promise<TestUser[]> {
  const list: TestUser[] = [];
  for (let i = 0; i < n; i++) list.push(await w.user(settings));
  return list;
}

describe('GET /roster/list (8.11)', () => {
  const page = (u: TestUser, query: Record<string, string | number> = {}) => w.emu.rest<number[]>('GET', '/roster/list', as(u, { query }));

  it('pages the friend IDs in ascending order; the last page has no cursor', async () => {
    const me = await w.user();
    const friends = await users(5);
    for (const f of friends) await w.apply(me, f);
    const ids = friends.map((f) => f.id);

    const first = await page(me, { limit: 2 });
    expect(first).toMatchObject({ code: 200, data: ids.slice(0, 2), version: 0 });
    expect(first.cursor).toEqual(expect.any(String));
    const second = await page(me, { limit: 2, cursor: first.cursor! });
    expect(second.data).toEqual(ids.slice(2, 4));
    const last = await page(me, { limit: 2, cursor: second.cursor! });
    expect(last.data).toEqual(ids.slice(4));
    expect(last).not.toHaveProperty('cursor');
    expect(last.version).toBe(0);

    const whole = await page(me);
    expect(whole.data).toEqual(ids);
    expect(whole).not.toHaveProperty('cursor');
  });

  it('a friend removed between two pages shifts nothing on the next page', async () => {
    const me = await w.user();
    const friends = await users(4);
    for (const f of friends) await w.apply(me, f);
    const first = await page(me, { limit: 2 });
    await w.emu.ok('DELETE', '/roster/delete', as(me, { query: { user_id: friends[0]!.id } }));
    expect((await page(me, { limit: 2, cursor: first.cursor! })).data).toEqual([friends[2]!.id, friends[3]!.id]);
  });

  it('an empty list is one last page', async () => {
    const me = await w.user();
    const reply = await page(me);
    expect(reply.data).toEqual([]);
    expect(reply).not.toHaveProperty('cursor');
  });

  it.each([
    [{ cursor: 'not-a-cursor' }, 'cursor'],
    [{ limit: 0 }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
  ])('refuses %j with 10002 naming the parameter', async (query, name) => {
    const me = await w.user();
    const reply = await page(me, query);
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain(name);
  });
});

describe('GET /roster/apply/list (8.4)', () => {
  const page = (u: TestUser, query: Record<string, string | number> = {}) =>
    w.emu.rest<FriendApplication[]>('GET', '/roster/apply/list', as(u, { query }));

  it('pages the applications newest first; handled ones stay listed', async () => {
    const me = await w.user({ auth_mode: 1 });
    const [a1, a2, a3] = (await users(3)) as [TestUser, TestUser, TestUser];
    for (const a of [a1, a2, a3]) {
      await w.apply(a, me, { reason: a.name });
      w.tick(10);
    }
    await w.emu.ok('PUT', '/roster/decline', as(me, { body: { user_id: a2.id } }));

    const first = await page(me, { limit: 2 });
    expect(first.data.map((x) => [x.user_id, x.reason, x.status])).toEqual([
      [a3.id, a3.name, 0],
      [a2.id, a2.name, 2],
    ]);
    expect(first.version).toBe(0);
    const last = await page(me, { limit: 2, cursor: first.cursor! });
    expect(last.data.map((x) => x.user_id)).toEqual([a1.id]);
    expect(last).not.toHaveProperty('cursor');
  });

  it('a renewed application becomes the newest', async () => {
    const me = await w.user({ auth_mode: 1 });
    const [a1, a2] = (await users(2)) as [TestUser, TestUser];
    await w.apply(a1, me);
    await w.apply(a2, me);
    await w.apply(a1, me, { reason: 'again' });
    expect((await page(me)).data.map((x) => [x.user_id, x.reason])).toEqual([
      [a1.id, 'again'],
      [a2.id, ''],
    ]);
  });

  it("refuses another list's cursor with 10002", async () => {
    const me = await w.user();
    expect((await page(me, { cursor: Buffer.from('o:2').toString('base64url') })).code).toBe(10002);
  });
});
