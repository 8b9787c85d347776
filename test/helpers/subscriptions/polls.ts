// Waits for what the subscriptions' pollers do, seen at the emulator and the gateway: a
// conversation's baseline set, a number of polls (and how long they took), polling stopped,
// subscribers joined. Each waits for the event, within the suite's event deadline.
import type { RecordedCall } from '../../../src/emulator';
import type { TestEmulator, TestUser } from '../emulator';
import { EVENT_DEADLINE_MS, sleep, until } from '../wait';

/** Waits until the conversation with `peer` was polled twice: its first round (the baseline) is done. */
export async function baselineSet(emu: TestEmulator, peer: TestUser): Promise<void> {
  const rounds = () =>
    emu.server.calls.filter((c) => c.endpoint === 'GET /message/conversation' && c.query.opposite_id === String(peer.id)).length;
  const before = rounds();
  await until('the conversation polled twice', () => rounds() >= before + 2);
}

/**
 * Marks the emulator, waits for `n` of the calls `counted` picks, and answers how many came and
 * over how long: a test bounds the poll rate by the time the polls really took, which a loaded
 * machine stretches, rather than by a fixed window.
 */
export async function pollsObserved(
  emu: TestEmulator,
  n: number,
  counted: (call: RecordedCall) => boolean,
): Promise<{ polls: number; ms: number }> {
  emu.mark();
  const started = performance.now();
  const polls = () => emu.calls().filter(counted).length;
  await until(`${n} polls`, () => polls() >= n, EVENT_DEADLINE_MS, 5);
  return { polls: polls(), ms: performance.now() - started };
}

/**
 * The most polls one poller makes in `ms`: one per interval, plus two for the window's edges (a
 * poll started just before the window is counted when it arrives, and uneven latencies under load
 * shorten the measured span by up to an interval). A second poller doubles the count.
 */
export const maxPolls = (ms: number, intervalMs: number): number => ms / intervalMs + 2;

/**
 * Waits until a window of `intervals` poll intervals passes with no call `counted` picks: the
 * pollers stopped. A poller that keeps going never leaves such a window, and the wait fails.
 */
export async function pollsStopped(
  emu: TestEmulator,
  intervalMs: number,
  counted: (call: RecordedCall) => boolean,
  intervals = 4,
): Promise<void> {
  await until('the pollers stopped', async () => {
    emu.mark();
    await sleep(intervalMs * intervals);
    return !emu.calls().some(counted);
  });
}

/** The subscriptions open on a gateway (WebSocket and SSE), as its /metrics reports them. */
export async function openSubscriptions(origin: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const value = /^im_gateway_subscribers (\S+)$/m.exec(text)?.[1];
  if (value === undefined) throw new Error('no im_gateway_subscribers in /metrics');
  return Number(value);
}
