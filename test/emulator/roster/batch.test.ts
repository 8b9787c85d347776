// POST /roster/apply/batch (8.3): the body is the array itself; each item succeeds or fails on
// its own, a failure carrying its cause as text; only a malformed body fails the whole call.
import { describe, expect, it } from 'vitest';
import type { BatchApplyResult } from '../../../src/rest/records';
import { as, useRosterWorld } from './world';

const w = useRosterWorld();
const UNKNOWN = 2_999_999_999_999;

describe('POST /roster/apply/batch (8.3)', () => {
  it('applies item by item: friends, pending, and a fail with a reason for each refusal', async () => {
    const me = await w.user();
    const open = await w.user();
    const consent = await w.user({ auth_mode: 1 });
    const question = await w.user({ auth_mode: 2, auth_question: 'Q?', auth_answer: 'A' });
    const closed = await w.user({ auth_mode: 3 });
    const blocker = await w.user();
    await w.emu.ok('PUT', '/roster/block', as(blocker, { query: { user_id: me.id } }));
    const [, friend] = await w.friends();
    await w.apply(me, friend);

    const body = [
      { user_id: open.id, alias: 'Open' },
      { user_id: consent.id, reason: 'hello' },
      { user_id: question.id },
      { user_id: closed.id },
      { user_id: blocker.id },
      { user_id: friend.id },
      { user_id: UNKNOWN },
      { user_id: me.id },
      { user_id: open.id },
    ];
    const result = await w.emu.ok<BatchApplyResult>('POST', '/roster/apply/batch', as(me, { body }));
    expect(result.success).toEqual([open.id, consent.id]);
    expect(result.fails).toEqual([
      { user_id: question.id, reason: expect.stringContaining('auth_answer is missing') },
      { user_id: closed.id, reason: expect.stringContaining('refuses friend applications') },
      { user_id: blocker.id, reason: expect.stringContaining('blacklist') },
      { user_id: friend.id, reason: expect.stringContaining('already a friend') },
      { user_id: UNKNOWN, reason: expect.stringContaining('does not exist') },
      { user_id: me.id, reason: expect.stringContaining('acting user') },
      { user_id: open.id, reason: expect.stringContaining('listed more than once') },
    ]);
    expect(await w.friendIds(open)).toEqual([me.id]);
    expect((await w.item(me, open)).alias).toBe('Open');
    expect(await w.applications(consent)).toMatchObject([{ user_id: me.id, reason: 'hello', status: 0 }]);
    expect(await w.applications(question)).toEqual([]);
  });

  it('answers an empty result for an empty array', async () => {
    const me = await w.user();
    expect(await w.emu.ok('POST', '/roster/apply/batch', as(me, { body: [] }))).toEqual({ success: [], fails: [] });
  });

  it.each([
    ['an object instead of the array', { user_id: 1 }],
    ['an item without user_id', [{ reason: 'hi' }]],
    ['an ill-typed user_id', [{ user_id: 'carol' }]],
  ])('refuses %s with 10002, applying nothing', async (_what, bad) => {
    const me = await w.user();
    const target = await w.user({ auth_mode: 1 });
    const body = Array.isArray(bad) ? [{ user_id: target.id }, ...bad] : bad;
    const reply = await w.emu.rest('POST', '/roster/apply/batch', as(me, { body }));
    expect(reply.code).toBe(10002);
    expect(await w.applications(target)).toEqual([]);
  });
});
