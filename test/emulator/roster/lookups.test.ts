// Finding users through the roster: by ID (8.10), user name (8.15), mobile (8.14) and a set of
// IDs (8.12). Each answers roster items: public profile, the viewer's relation and notes.
import { describe, expect, it } from 'vitest';
import type { RosterItem } from '../../../src/rest/records';
import { as, type TestUser, useRosterWorld } from './world';

const w = useRosterWorld();
const UNKNOWN = 2_999_999_999_999;

let mobiles = 0;

/** A user with every profile field set, a verification question and a mobile number (2026 format). */
async function profiled(): Promise<TestUser & { mobile: string }> {
  const mobile = `1991234${String(++mobiles).padStart(4, '0')}`;
  const u = await w.user({ auth_mode: 2, auth_question: 'Favourite colour?', auth_answer: 'teal' });
  await w.emu.ok(
    'PUT',
    '/user/profile',
    as(u, { body: { nick_name: 'Dana', description: 'Tester', public_info: 'pub', private_info: 'secret' } }),
  );
  await w.emu.ok('PUT', '/user/avatar', as(u, { body: { avatar: 'https://img.example/dana.png' } }));
  await w.emu.ok('PUT', '/user/mobile', as(u, { query: { mobile } }));
  return { ...u, mobile };
}

describe('GET /roster/id (8.10)', () => {
  it('answers the public profile with relation, notes and the verification question; never mobile, email, private_info', async () => {
    const viewer = await w.user();
    const dana = await profiled();
    const item = await w.item(viewer, dana);
    expect(item).toEqual({
      user_id: dana.id,
      username: dana.name,
      nick_name: 'Dana',
      avatar: 'https://img.example/dana.png',
      description: 'Tester',
      public_info: 'pub',
      alias: '',
      ext: '',
      mute_notification: false,
      relation: 2,
      auth_mode: 2,
      auth_question: 'Favourite colour?',
    });
    expect(await w.emu.ok('GET', '/user/profile', as(dana))).toMatchObject({ mobile: dana.mobile, private_info: 'secret' });
  });

  it('answers 10000 for an unknown user, 10002 for an ill-typed or missing user_id', async () => {
    const viewer = await w.user();
    expect(await w.code('GET', '/roster/id', as(viewer, { query: { user_id: UNKNOWN } }))).toBe(10000);
    const bad = await w.emu.rest('GET', '/roster/id', as(viewer, { query: { user_id: 'dana' } }));
    expect(bad.code).toBe(10002);
    expect(bad.message).toContain('user_id');
    expect(await w.code('GET', '/roster/id', as(viewer))).toBe(10002);
  });

  it('shows the acting user itself as a stranger (relation 2)', async () => {
    const me = await w.user();
    expect(await w.item(me, me)).toMatchObject({ user_id: me.id, relation: 2 });
  });

  it('with the admin token reads as the user_id header names', async () => {
    const [a, b] = await w.friends();
    const item = await w.emu.ok<RosterItem>('GET', '/roster/id', { token: w.emu.adminToken, userId: a.id, query: { user_id: b.id } });
    expect(item.relation).toBe(0);
  });
});

describe('GET /roster/name (8.15)', () => {
  it('finds a user by user name', async () => {
    const viewer = await w.user();
    const dana = await profiled();
    expect(await w.emu.ok('GET', '/roster/name', as(viewer, { query: { username: dana.name } }))).toEqual(await w.item(viewer, dana));
  });

  it('answers 10000 for an unknown name and 10002 for an empty one', async () => {
    const viewer = await w.user();
    expect(await w.code('GET', '/roster/name', as(viewer, { query: { username: 'nobody-here' } }))).toBe(10000);
    expect(await w.code('GET', '/roster/name', as(viewer, { query: { username: '' } }))).toBe(10002);
  });
});

describe('GET /roster/mobile (8.14)', () => {
  it('finds a user by mobile number', async () => {
    const viewer = await w.user();
    const dana = await profiled();
    const item = await w.emu.ok<RosterItem>('GET', '/roster/mobile', as(viewer, { query: { mobile: dana.mobile } }));
    expect(item.user_id).toBe(dana.id);
    expect(item).not.toHaveProperty('mobile');
  });

  it('answers 10000 for a well-formed number nobody has, and for a user name given as a number', async () => {
    const viewer = await w.user();
    expect(await w.code('GET', '/roster/mobile', as(viewer, { query: { mobile: '+4915199999999' } }))).toBe(10000);
    const numeric = await w.emu.user('13700000017');
    expect(await w.code('GET', '/roster/mobile', as(viewer, { query: { mobile: numeric.name } }))).toBe(10000);
  });

  it.each(['12345678901', '1991234567', '+1234567', '199-1234-5678', ''])('refuses %j with 10002 naming mobile', async (mobile) => {
    const viewer = await w.user();
    const reply = await w.emu.rest('GET', '/roster/mobile', as(viewer, { query: { mobile } }));
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('mobile');
  });
});

describe('POST /roster/list (8.12)', () => {
  it('answers the items of the IDs asked for, in that order, once each, leaving unknown IDs out', async () => {
    const [me, friend] = await w.friends();
    const stranger = await w.user();
    const items = await w.emu.ok<RosterItem[]>(
      'POST',
      '/roster/list',
      as(me, { body: { list: [stranger.id, UNKNOWN, friend.id, stranger.id] } }),
    );
    expect(items.map((i) => [i.user_id, i.relation])).toEqual([
      [stranger.id, 2],
      [friend.id, 0],
    ]);
  });

  it('refuses a missing or ill-typed list with 10002 naming it', async () => {
    const me = await w.user();
    for (const body of [{}, { list: ['x'] }]) {
      const reply = await w.emu.rest('POST', '/roster/list', as(me, { body }));
      expect(reply.code).toBe(10002);
      expect(reply.message).toContain('list');
    }
  });
});
