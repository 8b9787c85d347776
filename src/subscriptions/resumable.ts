// A stream subscription resumed after a position when the client gives one (a reconnect): what
// came after it is read from the service, then the shared poll's events follow, each exactly once.
// The subscriber joins the poll before reading, so nothing falls between: an item is either in
// the read or among the poll's events (those at or before the delivered position are dropped).
// When the poll is new, its first round may come after the read; its baseline marker says up to
// where it will not report, and that gap is read too. A conversation's events resume after a
// message ID (resume.ts), friend requests after a request's cursor (friend-request-resume.ts).
//
// `mark` hears the position of what was delivered, from the start on (the poll's baseline, or
// where the topic stood when the subscriber joined): where a retried subscription resumes
// (src/gateway/ws/resume-on-retry.ts).
import { Repeater } from '@repeaterjs/repeater';
import type { GatewayError } from '../rest/errors';
import { fromWireError, toWireError } from './events';
import type { SubscriptionEvent } from './events';

/** How one kind of stream resumes: its events' positions, and how to read what a subscriber missed. */
export interface ResumeRules<E, D extends E> {
  /** The position a poll's first-round marker reports after; undefined for every other event. */
  baseline(event: E): string | undefined;
  /** The position once `event` is delivered (`before`: the one before it); undefined: it has none (delivered as it comes). */
  positionAfter(event: D, before: string | undefined): string | undefined;
  /** Whether a positioned event lies after `position`. */
  isAfter(event: D, position: string): boolean;
  compare(a: string, b: string): number;
  /** What came after `from` and not after `to` (undefined: up to now), oldest first; `truncated` when a bound left older ones out. */
  read(from: string, to: string | undefined): Promise<{ events: D[]; truncated: boolean }>;
  /** The error sent before a truncated read's events. */
  tooFar(): GatewayError;
}

/**
 * A WebSocket subscription's place in the resume store (src/gateway/ws/resume-on-retry.ts): where
 * it resumes (the last position delivered to the same client for the same operation, within the
 * window), and where it hears what it delivers.
 */
export interface ResumeSlot {
  /** Ledger key (a digest). */
  readonly key: string;
  /** Who marks under the key: one per socket (two sockets of one client key keep two positions). */
  readonly holder: string;
  readonly from: string | undefined;
  mark(position: string): void;
}

export interface ResumeHooks {
  /** Hears each new delivered position. */
  mark?: (position: string) => void;
  /** Where the subscription starts when it resumes from nowhere: read once it joined the poll (undefined: unknown yet). */
  start?: () => string | undefined;
}

/** Callback-brought positions kept per subscriber while the poll has not confirmed them. */
const MAX_AHEAD = 1_000;

export function resumable<E, D extends E>(
  live: AsyncIterableIterator<SubscriptionEvent<E>>,
  rules: ResumeRules<E, D>,
  after: string | undefined,
  hooks: ResumeHooks = {},
): AsyncIterableIterator<SubscriptionEvent<D>> {
  return new Repeater<SubscriptionEvent<D>>(async (push, stop) => {
    // Asking for the first event starts the subscription: it joins the poll before anything is read.
    let pending = live.next();
    const stopped = stop.then(() => ({ done: true, value: undefined }) as const);
    void stopped.then(() => {
      void live.return?.();
      // The window runs from the end (a dropped socket), not from the last event.
      if (delivered !== undefined) hooks.mark?.(delivered);
    });
    const send = (event: SubscriptionEvent<D>) => Promise.race([push(event), stop]);
    let delivered = after ?? hooks.start?.();
    if (delivered !== undefined) hooks.mark?.(delivered);
    // Positions a callback brought ahead of the poll (in any order): sent once, and the position
    // moves only when the poll (or a read) confirms them, so a resume never skips one that was late.
    const ahead = new Set<string>();

    function confirm(position: string): void {
      delivered = position;
      hooks.mark?.(position);
      for (const p of ahead) if (rules.compare(p, position) < 0) ahead.delete(p);
    }
    async function deliver(event: D): Promise<void> {
      const position = rules.positionAfter(event, delivered);
      if (position !== undefined) {
        confirm(position);
        if (ahead.delete(position)) return; // a callback brought it already
      }
      await send({ value: event });
    }
    /** What a callback brought: sent unless it was sent (or confirmed) already. */
    async function deliverPushed(event: D): Promise<void> {
      const position = rules.positionAfter(event, delivered);
      if (position !== undefined) {
        if ((delivered !== undefined && !rules.isAfter(event, delivered)) || ahead.has(position)) return;
        if (ahead.size >= MAX_AHEAD) ahead.delete(ahead.values().next().value!); // sent again at worst, never lost
        ahead.add(position);
      }
      await send({ value: event });
    }
    /** Sends what came after `from` (up to `to`); false when the read failed (its error was sent). */
    async function span(from: string, to: string | undefined): Promise<boolean> {
      try {
        const { events, truncated } = await rules.read(from, to);
        if (truncated) await send({ error: rules.tooFar() });
        for (const event of events) await deliver(event);
        return true;
      } catch (err) {
        await send({ error: fromWireError(toWireError(err)) });
        return false;
      }
    }

    if (after !== undefined && !(await span(after, undefined))) return stop();
    for (;;) {
      const next = await Promise.race([pending, stopped]);
      if (next.done) return stop();
      pending = live.next();
      const event = next.value;
      if ('error' in event) {
        await send(event);
        continue;
      }
      const baseline = rules.baseline(event.value);
      if (baseline !== undefined) {
        // A gap between what was read and where the new poll starts: read it.
        if (delivered === undefined) {
          confirm(baseline);
        } else if (rules.compare(baseline, delivered) > 0 && !(await span(delivered, baseline))) return stop();
        continue;
      }
      const value = event.value as D;
      if (event.pushed) {
        await deliverPushed(value);
        continue;
      }
      const positioned = rules.positionAfter(value, delivered) !== undefined;
      if (!positioned || delivered === undefined || rules.isAfter(value, delivered)) await deliver(value);
    }
  });
}
