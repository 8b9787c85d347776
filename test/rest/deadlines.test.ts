// The shared deadline clock of the REST client: one timer for all the attempts in flight, none
// once they have ended, and each attempt expired within one tick (25 ms at most) of its deadline.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deadlines, type Expiring } from '../../src/rest/deadlines';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function attempt(expired: string[], name: string): Expiring {
  return { deadline: 0, expire: () => expired.push(name) };
}

describe('deadline clock', () => {
  it('runs one timer for any number of attempts, and none once they have ended', () => {
    const clock = deadlines(100);
    const entries = Array.from({ length: 100 }, (_, i) => attempt([], String(i)));
    for (const entry of entries) clock.watch(entry);
    expect(vi.getTimerCount()).toBe(1);
    for (const entry of entries) clock.forget(entry);
    vi.advanceTimersByTime(30);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('expires each attempt within one tick of its deadline, in order, and stops once none is left', () => {
    const clock = deadlines(100);
    const expired: string[] = [];
    clock.watch(attempt(expired, 'first'));
    vi.advanceTimersByTime(40);
    clock.watch(attempt(expired, 'second'));
    vi.advanceTimersByTime(59); // t = 99
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(26); // t = 125
    expect(expired).toEqual(['first']);
    vi.advanceTimersByTime(40); // t = 165
    expect(expired).toEqual(['first', 'second']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never expires an attempt that ended in time', () => {
    const clock = deadlines(50);
    const expired: string[] = [];
    const done = attempt(expired, 'done');
    clock.watch(done);
    clock.watch(attempt(expired, 'late'));
    clock.forget(done);
    vi.advanceTimersByTime(100);
    expect(expired).toEqual(['late']);
  });
});
