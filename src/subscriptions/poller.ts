// One poller: rounds of a source at a fixed rate for one identity, publishing only what changed.
// A failed round is published as an error and the next one waits longer (exponential, bounded,
// jittered); a failure no retry can mend ends the poll. The fleet decides where pollers run and
// where their output goes (fleet-memory.ts, fleet-redis.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Caller } from '../rest/caller';
import type { RestClient } from '../rest/client';
import { UpstreamError } from '../rest/errors';
import { GAP, isTerminal, type Snapshot, type TopicEvent, toWireError } from './events';
import type { Source } from './source';
import { warner } from './warn';

interface Publication<P> {
  /** The new state to keep (Redis: for the replica that may take over). */
  snapshot?: Snapshot<P>;
  /** What the subscribers get. */
  event?: TopicEvent<P>;
}

/**
 * Makes one poll round a trace of its own (the gateway's tracing): its REST calls go through the
 * client it hands back, and `end` closes the round's span.
 */
export type RoundTracer = (source: string, rest: RestClient) => { rest: RestClient; end(error?: unknown): void };

interface PollerOptions<P> {
  source: Source<P>;
  caller: Caller;
  rest: RestClient;
  intervalMs: number;
  /** The interval now, when it varies (slow while callbacks bring the news, pace.ts); default `intervalMs`. */
  interval?: () => number;
  traceRound?: RoundTracer;
  /** Where a previous poller of the same topic stopped (another replica's, or this topic's). */
  from?: Snapshot<P>;
  /**
   * Publish the first round even when nothing changed: a poller that resumes from this replica's
   * own position (Redis came back empty) tells the others where the poll stands.
   */
  announce?: boolean;
  /** Answers false when this poller may publish no more (its lease is gone): it stops. */
  publish(publication: Publication<P>): Promise<boolean>;
  /** A publication failed for a reason of its own (Redis unreachable): reported, the poll goes on. */
  onPublishError?(err: unknown): void;
}

const warn = warner('subscriptions');

/** The longest wait after failures: 32 intervals, at most a minute (never less than one interval). */
function maxBackoffMs(intervalMs: number): number {
  return Math.max(intervalMs, Math.min(60_000, intervalMs * 32));
}

export class Poller<P> {
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;
  private seq: number;
  private state: string | undefined;
  /** The latest payload of a source that replays it (it goes into every snapshot). */
  private latest: P | undefined;
  private announce: boolean;
  /** Asked to poll again at once (a callback said something changed): the next wait is none. */
  private poked = false;
  private wake: AbortController | undefined;

  constructor(private readonly options: PollerOptions<P>) {
    this.seq = options.from?.seq ?? 0;
    this.state = options.from?.state;
    this.latest = options.from?.latest;
    this.announce = options.announce ?? false;
  }

  start(): void {
    this.running ??= this.loop();
  }

  /** Polls again now (or right after the round under way); pokes in between are one round. */
  poke(): void {
    this.poked = true;
    this.wake?.abort();
  }

  /** Stops polling; resolves once no round is under way. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  private interval(): number {
    return this.options.interval?.() ?? this.options.intervalMs;
  }

  private get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      const started = performance.now();
      this.poked = false;
      let wait: number;
      try {
        const go = await this.round();
        if (!go) return;
        failures = 0;
        // A fixed rate: the round's own duration comes out of the wait (the interval as it is now).
        wait = Math.max(0, started + this.interval() - performance.now());
      } catch (err) {
        if (this.stopped) return;
        // Subscribers see it masked, as a query would: the details belong in the log.
        if (!(err instanceof UpstreamError)) warn(`a poll of ${this.options.source.name} failed unexpectedly: ${String(err)}`);
        if (isTerminal(err)) {
          await this.send({ event: { type: 'end', error: toWireError(err) } });
          return;
        }
        if ((await this.send({ event: { type: 'error', error: toWireError(err) } })) === 'refused') return;
        failures++;
        const intervalMs = this.interval();
        const ceiling = Math.min(maxBackoffMs(intervalMs), intervalMs * 2 ** failures);
        wait = ceiling / 2 + (Math.random() * ceiling) / 2;
      }
      if (this.poked) wait = 0;
      this.wake = new AbortController();
      try {
        await sleep(wait, undefined, { signal: AbortSignal.any([this.abort.signal, this.wake.signal]) });
      } catch {
        if (this.stopped) return; // stopped while waiting; else poked
      }
      this.wake = undefined;
    }
  }

  /** One round; answers whether to go on. Throws the round's upstream failure. */
  private async round(): Promise<boolean> {
    const { source, rest, caller, traceRound } = this.options;
    const traced = traceRound?.(source.name, rest);
    let result: Awaited<ReturnType<Source<P>['poll']>>;
    try {
      result = await source.poll(traced?.rest ?? rest, caller, this.state, this.abort.signal);
      traced?.end();
    } catch (err) {
      traced?.end(err);
      throw err;
    }
    if (this.stopped) return false;
    if (result.incomplete) {
      await this.send({ event: { type: 'end', error: GAP } });
      return false;
    }
    if (result.state === this.state && !this.announce) return true;
    // Time-based, never backwards: pollers that took over from one another (or polled side by
    // side while Redis was away) order their values by when they were polled.
    const seq = Math.max(this.seq + 1, Date.now());
    const latest = source.replay ? (result.payload ?? this.latest) : undefined;
    // A state source sends its whole state each time (also when only announcing it).
    const payload = source.replay ? latest : result.payload;
    const publication: Publication<P> = {
      event: {
        type: 'value',
        seq,
        state: result.state,
        ...(this.state !== undefined ? { after: this.state } : {}),
        ...(payload !== undefined ? { payload } : {}),
      },
      snapshot: { seq, state: result.state, ...(latest !== undefined ? { latest } : {}) },
    };
    const sent = await this.send(publication);
    if (sent === 'refused') return false;
    // Not published: the state stays, so the next round finds the change again and retries.
    if (sent === 'sent') {
      this.seq = seq;
      this.state = result.state;
      this.latest = latest;
      this.announce = false;
    }
    return true;
  }

  private async send(publication: Publication<P>): Promise<'sent' | 'refused' | 'failed'> {
    try {
      return (await this.options.publish(publication)) ? 'sent' : 'refused';
    } catch (err) {
      this.options.onPublishError?.(err);
      return 'failed';
    }
  }
}
