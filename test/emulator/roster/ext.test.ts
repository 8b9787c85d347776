// Per-friend notes (8.9: alias, ext, mute_notification), the alias an application carries, and
// removing a friend (8.8): both sides lose the friendship and their notes.
import { describe, expect, it } from 'vitest';
import { as, type TestUser, useRosterWorld } from './world';

const w = useRosterWorld();

const ext = (owner: TestUser, body: Record<string, unknown>, method = 'PUT') => w.emu.rest(method, '/roster/ext', as(owner, { body }));
const notes = async (viewer: TestUser, other: TestUser) => {
  const { alias, ext: extension, mute_notification } = await w.item(viewer, other);
  return { alias, ext: extension, mute_notification };
};

describe.each(['PUT', 'POST'])('%s /roster/ext (8.9)', (method) => {
  it("sets the owner's notes on a friend; the friend's view of the owner is untouched", async () => {
    const [a, b] = await w.friends();
    expect((await ext(a, { user_id: b.id, alias: 'Bee', ext: '{"tag":"work"}', mute_notification: true }, method)).data).toBe(true);
    expect(await notes(a, b)).toEqual({ alias: 'Bee', ext: '{"tag":"work"}', mute_notification: true });
    expect(await notes(b, a)).toEqual({ alias: '', ext: '', mute_notification: false });
  });

  it('keeps the fields left out; an empty string clears one', async () => {
    const [a, b] = await w.friends();
    await ext(a, { user_id: b.id, alias: 'Bee', ext: 'x', mute_notification: true }, method);
    await ext(a, { user_id: b.id, ext: '' }, method);
    expect(await notes(a, b)).toEqual({ alias: 'Bee', ext: '', mute_notification: true });
    await ext(a, { user_id: b.id, mute_notification: false }, method);
    expect(await notes(a, b)).toEqual({ alias: 'Bee', ext: '', mute_notification: false });
  });

  it('refuses a user who is not a friend (10007), an unknown user (10000) and ill-typed fields (10002), changing nothing', async () => {
    const [a, b] = await w.friends();
    const stranger = await w.user();
    await ext(a, { user_id: b.id, alias: 'Bee' }, method);
    const before = await w.snapshot([a, b, stranger]);
    expect((await ext(a, { user_id: stranger.id, alias: 'S' }, method)).code).toBe(10007);
    expect((await ext(a, { user_id: 2_999_999_999_999, alias: 'S' }, method)).code).toBe(10000);
    const bad = await ext(a, { user_id: b.id, alias: 'B2', mute_notification: 'yes' }, method);
    expect(bad.code).toBe(10002);
    expect(bad.message).toContain('mute_notification');
    expect(await w.snapshot([a, b, stranger])).toEqual(before);
  });
});

describe('the alias of an application', () => {
  it('becomes the applicant’s alias for the receiver when the application is accepted', async () => {
    const a = await w.user();
    const b = await w.user({ auth_mode: 1 });
    await w.apply(a, b, { alias: 'Boss' });
    await w.emu.ok('POST', '/roster/accept', as(b, { query: { user_id: a.id } }));
    expect((await w.item(a, b)).alias).toBe('Boss');
    expect((await w.item(b, a)).alias).toBe('');
  });
});

describe.each(['DELETE', 'POST'])('%s /roster/delete (8.8)', (method) => {
  const remove = (owner: TestUser, other: TestUser | number) =>
    w.emu.rest(method, '/roster/delete', as(owner, { query: { user_id: typeof other === 'number' ? other : other.id } }));

  it('ends the friendship on both sides: each sees a former friend, the notes are gone', async () => {
    const [a, b] = await w.friends();
    await ext(a, { user_id: b.id, alias: 'Bee', mute_notification: true });
    expect((await remove(a, b)).data).toBe(true);
    expect(await w.friendIds(a)).toEqual([]);
    expect(await w.friendIds(b)).toEqual([]);
    expect((await w.item(a, b)).relation).toBe(1);
    expect((await w.item(b, a)).relation).toBe(1);
    expect(await notes(a, b)).toEqual({ alias: '', ext: '', mute_notification: false });

    expect((await w.apply(b, a)).code).toBe(200);
    expect((await w.item(a, b)).relation).toBe(0);
  });

  it('refuses a user who is not a friend (10007, also on a repeated delete) and an unknown user (10000)', async () => {
    const [a, b] = await w.friends();
    const stranger = await w.user();
    expect((await remove(a, stranger)).code).toBe(10007);
    await remove(a, b);
    expect((await remove(a, b)).code).toBe(10007);
    expect((await remove(a, 2_999_999_999_999)).code).toBe(10000);
    expect(await w.code(method, '/roster/delete', as(a))).toBe(10002);
  });
});

describe('a deleted user', () => {
  it('leaves the friend list, the received applications and the blacklist at once', async () => {
    const me = await w.user({ auth_mode: 1 });
    const friend = await w.user();
    const applicant = await w.user();
    const blocked = await w.user();
    await w.apply(me, friend);
    await w.apply(applicant, me);
    await w.emu.ok('PUT', '/roster/block', as(me, { query: { user_id: blocked.id } }));
    expect(await w.snapshot([me])).toMatchObject([
      { friends: [friend.id], applications: [{ user_id: applicant.id }], blocked: [blocked.id] },
    ]);
    for (const gone of [friend, applicant, blocked]) {
      await w.emu.ok('DELETE', '/user/delete', { token: w.emu.adminToken, userId: gone.id });
    }
    expect(await w.snapshot([me])).toMatchObject([{ friends: [], applications: [], blocked: [] }]);
  });
});
