// The resume ledger in memory (bounded, each position kept for the window after its last write),
// and the friend request positions it keeps: requests of the same millisecond are told apart.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FriendApplication } from '../../src/rest/records';
import { arrivedAfter, comparePositions, positionAfter, requestCursor } from '../../src/subscriptions/friend-request-source';
import { memoryLedger } from '../../src/subscriptions/resume-ledger';

afterEach(() => vi.useRealTimers());

describe('memoryLedger', () => {
  it('forgets a position once the window has passed since its last write', async () => {
    vi.useFakeTimers({ now: 1_000 });
    const ledger = memoryLedger({ windowMs: 100, maxEntries: 10 });
    ledger.set('k', '1');
    vi.setSystemTime(1_090);
    ledger.set('k', '2'); // a write renews the window
    vi.setSystemTime(1_180);
    expect(await ledger.get('k')).toBe('2');
    vi.setSystemTime(1_191);
    expect(await ledger.get('k')).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the one written longest ago', async () => {
    const ledger = memoryLedger({ windowMs: 60_000, maxEntries: 2 });
    ledger.set('a', '1');
    ledger.set('b', '2');
    ledger.set('a', '3');
    ledger.set('c', '4');
    expect([await ledger.get('a'), await ledger.get('b'), await ledger.get('c')]).toEqual(['3', undefined, '4']);
  });
});

const request = (userId: number, expiry: number): FriendApplication => ({ user_id: userId, reason: '', status: 0, expired_time: expiry });

describe('friend request positions', () => {
  it('tells apart requests that arrived in the same millisecond, and orders later positions after', () => {
    const a = request(7, 5_000);
    const b = request(3, 5_000);
    const afterA = positionAfter('0:', a);
    expect(afterA).toBe(requestCursor(a));
    expect(arrivedAfter(b, afterA)).toBe(true);
    const afterBoth = positionAfter(afterA, b);
    expect(arrivedAfter(a, afterBoth) || arrivedAfter(b, afterBoth)).toBe(false);
    expect(comparePositions(afterBoth, afterA)).toBeGreaterThan(0);
    expect(arrivedAfter(request(1, 5_001), afterBoth)).toBe(true);
    expect(comparePositions(positionAfter(afterBoth, request(1, 5_001)), afterBoth)).toBeGreaterThan(0);
  });
});
