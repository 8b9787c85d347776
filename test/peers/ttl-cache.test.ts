// The credential's cache: entries by space and key, expiring after a fixed time, the oldest of all
// spaces dropped first when it is full.
import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../src/peers/ttl-cache';

describe('TtlCache', () => {
  it('keeps a key apart in each space, and forgets an entry once its time is up', () => {
    let now = 1_000;
    const cache = new TtlCache<string>(100, 10, () => now);
    cache.set('profile', '7', 'p7');
    cache.set('online', '7', 'o7');
    expect([cache.get('profile', '7'), cache.get('online', '7'), cache.get('caller', '7')]).toEqual(['p7', 'o7', undefined]);
    now += 99;
    expect(cache.get('profile', '7')).toBe('p7');
    now += 1;
    expect(cache.get('profile', '7')).toBeUndefined();
    expect(cache.size).toBe(1);
    cache.delete('online', '7');
    cache.delete('online', '7');
    expect(cache.size).toBe(0);
  });

  it('drops the oldest entry of all spaces when full, and a set anew counts as new', () => {
    const cache = new TtlCache<number>(1_000, 3, () => 0);
    cache.set('a', '1', 1);
    cache.set('b', '2', 2);
    cache.set('a', '3', 3);
    cache.set('b', '2', 22);
    expect(cache.size).toBe(3);
    cache.set('c', '4', 4);
    expect(cache.size).toBe(3);
    expect([cache.get('a', '1'), cache.get('a', '3'), cache.get('b', '2'), cache.get('c', '4')]).toEqual([undefined, 3, 22, 4]);
    cache.set('c', '5', 5);
    expect([cache.get('a', '3'), cache.get('b', '2'), cache.get('c', '5')]).toEqual([undefined, 22, 5]);
  });
});
