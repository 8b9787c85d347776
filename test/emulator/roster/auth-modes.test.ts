// The receiving user's auth_mode (document 2) decides what an application (8.2) does: 0 friends
// at once, 1 a pending application, 2 friends on the right auth_answer, 3 refused.
import { describe, expect, it } from 'vitest';
import { as, useRosterWorld } from './world';

const w = useRosterWorld();
const QUESTION = { auth_mode: 2, auth_question: 'Our team mascot?', auth_answer: 'Otter' };

describe('auth_mode 0 (the default)', () => {
  it('makes both friends at once, with no application to decide', async () => {
    const a = await w.user();
    const b = await w.user();
    expect((await w.item(a, b)).auth_mode).toBe(0);
    expect((await w.apply(a, b, { reason: 'hi' })).data).toBe(true);
    expect(await w.friendIds(a)).toEqual([b.id]);
    expect(await w.friendIds(b)).toEqual([a.id]);
    expect(await w.applications(b)).toEqual([]);
  });

  it('settles an application left pending from an earlier auth_mode 1 as accepted', async () => {
    const a = await w.user();
    const b = await w.user({ auth_mode: 1 });
    await w.apply(a, b);
    await w.emu.ok('PUT', '/user/authmode', as(b, { query: { value: 0 } }));
    await w.apply(a, b);
    expect(await w.friendIds(b)).toEqual([a.id]);
    expect((await w.applications(b)).map((x) => x.status)).toEqual([1]);
  });
});

describe('auth_mode 1', () => {
  it('leaves the decision to the receiver', async () => {
    const a = await w.user();
    const b = await w.user({ auth_mode: 1 });
    await w.apply(a, b);
    expect(await w.friendIds(b)).toEqual([]);
    expect((await w.applications(b)).map((x) => [x.user_id, x.status])).toEqual([[a.id, 0]]);
  });
});

describe('auth_mode 2', () => {
  it('shows the question, never the answer, in the roster item', async () => {
    const a = await w.user();
    const b = await w.user(QUESTION);
    const item = await w.item(a, b);
    expect(item).toMatchObject({ auth_mode: 2, auth_question: 'Our team mascot?' });
    expect(JSON.stringify(item)).not.toContain('Otter');
  });

  it('makes both friends at once on the right answer', async () => {
    const a = await w.user();
    const b = await w.user(QUESTION);
    expect((await w.apply(a, b, { auth_answer: 'Otter', alias: 'Bee' })).code).toBe(200);
    expect(await w.friendIds(b)).toEqual([a.id]);
    expect((await w.item(a, b)).alias).toBe('Bee');
    expect(await w.applications(b)).toEqual([]);
  });

  it.each([
    ['a wrong answer', { auth_answer: 'otter' }, 'is wrong'],
    ['no answer', {}, 'is missing'],
  ])('refuses %s with 10010 naming auth_answer, and nothing changes', async (_what, more, text) => {
    const a = await w.user();
    const b = await w.user(QUESTION);
    const before = await w.snapshot([a, b]);
    const reply = await w.apply(a, b, more);
    expect(reply.code).toBe(10010);
    expect(reply.message).toContain(`auth_answer ${text}`);
    expect(await w.snapshot([a, b])).toEqual(before);
  });
});

describe('auth_mode 3', () => {
  it('refuses every application with 10012, and nothing changes', async () => {
    const a = await w.user();
    const b = await w.user({ auth_mode: 3 });
    const before = await w.snapshot([a, b]);
    const reply = await w.apply(a, b, { reason: 'please' });
    expect(reply.code).toBe(10012);
    expect(reply.message).toContain('refuses friend applications');
    expect(await w.snapshot([a, b])).toEqual(before);
  });

  it("yields to the receiver's own pending application: applying back is consent", async () => {
    const a = await w.user({ auth_mode: 1 });
    const b = await w.user({ auth_mode: 3 });
    await w.apply(b, a);
    expect((await w.apply(a, b)).code).toBe(200);
    expect(await w.friendIds(b)).toEqual([a.id]);
  });
});
