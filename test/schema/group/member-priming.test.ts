// A member list's records answer the request's later look-ups of those members by user ID, whether
// the request had made its member loader before the list arrived or makes it after; a write
// (which clears the request's loaders) forgets them.
import { describe, expect, it } from 'vitest';
import type { GatewayContext } from '../../../src/context';
import type * as R from '../../../src/rest/records';
import { groupMembersById, primeMembers } from '../../../src/schema/group/loaders';

function fakeContext() {
  const calls: string[] = [];
  const ctx = {
    loaders: new Map<unknown, unknown>(),
    rest: {
      call: (name: string, params: { user_list: number[] }) => {
        calls.push(name);
        return Promise.resolve({ data: params.user_list.map((id) => member(id, `fetched ${id}`)) });
      },
    },
  } as unknown as GatewayContext;
  return { ctx, calls };
}

const member = (userId: number, displayName: string): R.Member => ({
  user_id: userId,
  display_name: displayName,
  join_time: 0,
  expired_time: 0,
});

describe('member records primed by a list', () => {
  it('answer look-ups from a loader made after the list, with no call', async () => {
    const { ctx, calls } = fakeContext();
    primeMembers(ctx, 7, [member(1, 'listed 1'), member(2, 'listed 2')]);
    primeMembers(ctx, 8, [member(1, 'listed in 8')]);
    const loader = groupMembersById(ctx);
    expect((await loader.load({ groupId: 7, userId: 2 }))?.display_name).toBe('listed 2');
    expect((await loader.load({ groupId: 8, userId: 1 }))?.display_name).toBe('listed in 8');
    expect(calls).toEqual([]);
  });

  it('answer look-ups from a loader made before the list, and only listed members skip the call', async () => {
    const { ctx, calls } = fakeContext();
    const loader = groupMembersById(ctx);
    primeMembers(ctx, 7, [member(1, 'listed 1')]);
    expect((await loader.load({ groupId: 7, userId: 1 }))?.display_name).toBe('listed 1');
    expect(calls).toEqual([]);
    expect((await loader.load({ groupId: 7, userId: 3 }))?.display_name).toBe('fetched 3');
    expect(calls).toEqual(['POST /group/members/display_name']);
  });

  it('are forgotten with the loaders after a write', async () => {
    const { ctx, calls } = fakeContext();
    primeMembers(ctx, 7, [member(1, 'listed 1')]);
    ctx.loaders.clear();
    expect((await groupMembersById(ctx).load({ groupId: 7, userId: 1 }))?.display_name).toBe('fetched 1');
    expect(calls).toEqual(['POST /group/members/display_name']);
  });
});
