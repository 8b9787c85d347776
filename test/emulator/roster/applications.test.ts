// Friend applications to a user who decides (auth_mode 1): applying (8.2), the received list
// (8.4), accepting (8.1) and declining (8.7), expiry, re-applying, and who the acting user is.
import { describe, expect, it } from 'vitest';
import { as, TTL, useRosterWorld } from './world';

const w = useRosterWorld();
const CONSENT = { auth_mode: 1 };

describe('POST /roster/apply (8.2) to a user with auth_mode 1', () => {
  it('leaves a pending application the receiver lists, and no friendship yet', async () => {
    const a = await w.user();
    const b = await w.user(CONSENT);
    const reply = await w.apply(a, b, { reason: 'we met at the conference', alias: 'Bee' });
    expect(reply).toMatchObject({ code: 200, data: true });
    expect(await w.applications(b)).toEqual([
      { user_id: a.id, reason: 'we met at the conference', status: 0, expired_time: w.now() + TTL },
    ]);
    expect(await w.friendIds(a)).toEqual([]);
    expect(await w.friendIds(b)).toEqual([]);
    expect((await w.item(a, b)).relation).toBe(2);
    expect(await w.applications(a)).toEqual([]);
  });

  it('applying again while pending updates the reason and renews the expiry: still one application', async () => {
    const a = await w.user();
    const b = await w.user(CONSENT);
    await w.apply(a, b, { reason: 'first' });
    w.tick(1000);
    await w.apply(a, b, { reason: 'second' });
    expect(await w.applications(b)).toEqual([{ user_id: a.id, reason: 'second', status: 0, expired_time: w.now() + TTL }]);
  });

  it('when the receiver had applied first, the application makes both friends at once', async () => {
    const a = await w.user(CONSENT);
    const b = await w.user(CONSENT);
    await w.apply(b, a, { alias: 'Ay' });
    expect((await w.apply(a, b, { alias: 'Bee' })).code).toBe(200);
    expect(await w.friendIds(a)).toEqual([b.id]);
    expect(await w.friendIds(b)).toEqual([a.id]);
    expect((await w.applications(a)).map((x) => x.status)).toEqual([1]);
    expect(await w.applications(b)).toEqual([]);
    expect((await w.item(a, b)).alias).toBe('Bee');
    expect((await w.item(b, a)).alias).toBe('Ay');
  });

  it.each([
    ['oneself', 10002, 'user_id'],
    ['an unknown user', 10000, '2999999999999'],
    ['a friend', 10005, 'already a friend'],
  ])('refuses an application to %s with %i, and nothing changes', async (what, code, text) => {
    const [a, friend] = await w.friends();
    const target = what === 'oneself' ? a.id : what === 'a friend' ? friend.id : 2_999_999_999_999;
    const before = await w.snapshot([a, friend]);
    const reply = await w.emu.rest('POST', '/roster/apply', as(a, { body: { user_id: target } }));
    expect(reply.code).toBe(code);
    expect(reply.message).toContain(text);
    expect(await w.snapshot([a, friend])).toEqual(before);
  });

  it('refuses ill-typed or missing parameters with 10002 naming them', async () => {
    const a = await w.user();
    const b = await w.user(CONSENT);
    for (const body of [{ user_id: 'bob' }, { reason: 'hi' }, { user_id: b.id, reason: 7 }]) {
      const reply = await w.emu.rest('POST', '/roster/apply', as(a, { body }));
      expect(reply.code).toBe(10002);
      expect(reply.message).toMatch(/user_id|reason/);
    }
    expect(await w.applications(b)).toEqual([]);
  });
});

describe.each(['PUT', 'POST'])('%s /roster/accept (8.1)', (method) => {
  it('makes both friends; the application shows accepted', async () => {
    const a = await w.user();
    const b = await w.user(CONSENT);
    await w.apply(a, b, { reason: 'hi' });
    expect(await w.emu.ok(method, '/roster/accept', as(b, { query: { user_id: a.id } }))).toBe(true);
    expect(await w.friendIds(a)).toEqual([b.id]);
    expect(await w.friendIds(b)).toEqual([a.id]);
    expect((await w.item(a, b)).relation).toBe(0);
    expect((await w.item(b, a)).relation).toBe(0);
    expect(await w.applications(b)).toEqual([{ user_id: a.id, reason: 'hi', status: 1, expired_time: w.now() + TTL }]);
  });

  it('answers 10007 without a pending application: none, already accepted, or expired', async () => {
    const a = await w.user();
    const b = await w.user(CONSENT);
    const accept = () => w.emu.rest(method, '/roster/accept', as(b, { query: { user_id: a.id } }));
    expect((await accept()).code).toBe(10007);

    await w.apply(a, b);
    await accept();
    expect((await accept()).code).toBe(10007);

    const c = await w.user();
    await w.apply(c, b);
    w.tick(TTL);
    const before = await w.snapshot([b, c]);
    const reply = await w.emu.rest(method, '/roster/accept', as(b, { query: { user_id: c.id } }));
    expect(reply.code).toBe(10007);
    expect(await w.snapshot([b, c])).toEqual(before);
    expect((await w.applications(b)).find((x) => x.user_id === c.id)).toMatchObject({ status: 0 });
  });

  it('answers 10000 for an unknown applicant and 10002 without user_id', async () => {
    const b = await w.user(CONSENT);
    expect(await w.code(method, '/roster/accept', as(b, { query: { user_id: 2_999_999_999_999 } }))).toBe(10000);
    expect(await w.code(method, '/roster/accept', as(b))).toBe(10002);
  });
});

describe.each(['PUT', 'POST'])('%s /roster/decline (8.7)', (method) => {
  it('marks the application declined; nobody becomes a friend; the applicant may apply again', async () => {
    const a = await w.user();
    const b = await w.user(CONSENT);
    await w.apply(a, b, { reason: 'hi' });
    expect(await w.emu.ok(method, '/roster/decline', as(b, { body: { user_id: a.id, reason: 'no thanks' } }))).toBe(true);
    expect(await w.applications(b)).toEqual([{ user_id: a.id, reason: 'hi', status: 2, expired_time: w.now() + TTL }]);
    expect(await w.friendIds(b)).toEqual([]);
    expect(await w.code(method, '/roster/decline', as(b, { body: { user_id: a.id } }))).toBe(10007);
    expect(await w.code('PUT', '/roster/accept', as(b, { query: { user_id: a.id } }))).toBe(10007);

    await w.apply(a, b, { reason: 'please' });
    expect(await w.applications(b)).toEqual([{ user_id: a.id, reason: 'please', status: 0, expired_time: w.now() + TTL }]);
  });

  it('answers 10007 after expiry and 10000 for an unknown applicant', async () => {
    const a = await w.user();
    const b = await w.user(CONSENT);
    await w.apply(a, b);
    w.tick(TTL + 1);
    expect(await w.code(method, '/roster/decline', as(b, { body: { user_id: a.id } }))).toBe(10007);
    expect((await w.applications(b))[0]!.status).toBe(0);
    expect(await w.code(method, '/roster/decline', as(b, { body: { user_id: 2_999_999_999_999 } }))).toBe(10000);
  });
});

describe('the acting user', () => {
  it('with the admin token is the user_id header; the query user_id names the other user', async () => {
    const a = await w.user();
    const b = await w.user(CONSENT);
    const admin = w.emu.adminToken;
    await w.emu.ok('POST', '/roster/apply', { token: admin, userId: a.id, body: { user_id: b.id } });
    expect((await w.emu.ok<{ user_id: number }[]>('GET', '/roster/apply/list', { token: admin, userId: b.id }))[0]!.user_id).toBe(a.id);
    await w.emu.ok('POST', '/roster/accept', { token: admin, userId: b.id, query: { user_id: a.id } });
    expect(await w.friendIds(a)).toEqual([b.id]);
  });

  it('with the admin token and no user_id header is refused with 10002 naming the header', async () => {
    const a = await w.user();
    const reply = await w.emu.rest('POST', '/roster/accept', { token: w.emu.adminToken, query: { user_id: a.id } });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('user_id');
  });

  it('a user token may not act as someone else through the user_id header (10010)', async () => {
    const a = await w.user();
    const b = await w.user(CONSENT);
    expect(await w.code('POST', '/roster/apply', as(a, { userId: b.id, body: { user_id: a.id } }))).toBe(10010);
    expect(await w.applications(a)).toEqual([]);
  });
});
