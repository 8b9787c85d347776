// The bounded backlog of an HTTP subscriber (src/gateway/http/backlog.ts), without sockets: a
// burst that is all that comes, queued past the bounds while the socket still takes data, is
// dropped once the socket stalls (looked at again on a timer, not only as events arrive); a
// consumer that keeps up is never dropped. The transports are tested in test/subscriptions/slow-readers.test.ts.
import { describe, expect, it } from 'vitest';
import { type Backlog, boundedBacklog } from '../../../src/gateway/http/backlog';
import { until } from '../../helpers/wait';

/** `n` events at once, then nothing until the consumer returns (as the hub's subscriptions do: return ends a pending next). */
function burst(n: number, ended: { returned: boolean }): AsyncIterable<number> {
  let sent = 0;
  let release: ((end: IteratorResult<number>) => void) | undefined;
  const done: IteratorResult<number> = { done: true, value: undefined };
  return {
    [Symbol.asyncIterator]: () => ({
      next: () =>
        sent < n ? Promise.resolve({ done: false, value: sent++ }) : new Promise<IteratorResult<number>>((resolve) => (release = resolve)),
      return: () => {
        ended.returned = true;
        release?.(done);
        return Promise.resolve(done);
      },
    }),
  };
}

/** Lets the events already produced reach the queue (turns of the event loop, not a time). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

const bounds = { maxEvents: 3, maxBytes: 1024 * 1024 };

describe('boundedBacklog', () => {
  it('drops a burst over the bounds once the socket stalls, ends the source and hands out the final event alone', async () => {
    const ended = { returned: false };
    let stalled = false;
    const drops: Backlog[] = [];
    const events = boundedBacklog<number | string>(burst(10, ended), bounds, {
      stalled: () => stalled,
      final: () => 'final',
      onDrop: (b) => drops.push(b),
    });
    await settle();
    // 10 events: over the bounds (3), within four times them (12), on a socket that still takes data.
    expect(drops).toEqual([]);
    stalled = true;
    await until('the reader dropped', () => drops.length === 1);
    expect(drops[0]!.events).toBe(10);
    expect(await events.next()).toEqual({ done: false, value: 'final' });
    expect(await events.next()).toEqual({ done: true, value: undefined });
    await until('the source ended', () => ended.returned);
  });

  it('drops a reader whose backlog passes four times the bounds even before its socket stalls', async () => {
    const drops: Backlog[] = [];
    boundedBacklog(burst(20, { returned: false }), bounds, { stalled: () => false, final: () => -1, onDrop: (b) => drops.push(b) });
    await until('the reader dropped', () => drops.length === 1);
    expect(drops[0]!.events).toBe(4 * bounds.maxEvents + 1);
  });

  it('hands every event to a consumer that keeps up, and never drops it', async () => {
    const ended = { returned: false };
    const drops: Backlog[] = [];
    const events = boundedBacklog(burst(2, ended), bounds, { stalled: () => true, final: () => -1, onDrop: (b) => drops.push(b) });
    expect(await events.next()).toEqual({ done: false, value: 0 });
    expect(await events.next()).toEqual({ done: false, value: 1 });
    await events.return!();
    await until('the source ended', () => ended.returned);
    expect(drops).toEqual([]);
  });
});
