// The emulator's side of the service's message callback (document 6): once a message is stored,
// one POST of its callback body to each configured URL, with the shared secret verbatim in the
// `signature` header, as the service's callback service does. Asynchronous to the send (the send's
// answer never waits for it), one POST at a time per URL in the order the messages were stored
// (faults aside), a bounded queue, a timeout per POST, no retries (the service's are not shown);
// failures are logged, never thrown. Faults (faults.ts) drop, repeat, delay and reorder on purpose.
import type { CallbackFaults } from '../../config';
import { log } from '../../log/logger';
import type { StoredMessage } from '../messages/model';
import { callbackBody } from './body';
import { faultPlanner } from './faults';

export interface CallbackSenderOptions {
  appId: string;
  /** Only ever these: configured, never taken from a request. */
  urls: readonly string[];
  secret: string;
  faults: CallbackFaults;
  /** Longest wait for one POST's answer. Default 5 s. */
  timeoutMs?: number;
  /** Callbacks waiting to be sent, over every URL; more are dropped (and logged). Default 10,000. */
  maxQueue?: number;
}

/** What the sender did since it started (tests and bench read it). */
export interface CallbackSenderStats {
  /** POSTs answered 2xx. */
  sent: number;
  /** POSTs that failed: no answer in time, refused connection, non-2xx. */
  failed: number;
  /** Callbacks the drop fault removed. */
  dropped: number;
  duplicated: number;
  delayed: number;
  reordered: number;
  /** Callbacks dropped because the queue was full. */
  overflowed: number;
}

export interface CallbackSender {
  /** Called with every stored message; sends its callback (if the service would make one) later. */
  stored(m: StoredMessage): void;
  stats(): CallbackSenderStats;
  /** Whether nothing is queued, held back or being sent. */
  idle(): boolean;
  /** Stops: what is queued or held is dropped, POSTs in flight are awaited. */
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_QUEUE = 10_000;
/** How long a callback held back for reordering waits for a next one before it goes anyway. */
const REORDER_HOLD_MS = 1_000;
/** One warning per URL per this long at most, with how many failed since the last. */
const WARN_EVERY_MS = 10_000;

export function createCallbackSender(options: CallbackSenderOptions): CallbackSender {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
  const plan = faultPlanner(options.faults);
  const stats: CallbackSenderStats = { sent: 0, failed: 0, dropped: 0, duplicated: 0, delayed: 0, reordered: 0, overflowed: 0 };
  const queues = new Map(options.urls.map((url) => [url, [] as string[]]));
  const sending = new Map<string, Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  const warned = new Map<string, { at: number; unsaid: number }>();
  let queued = 0;
  let held: { body: string; copies: number; timer: NodeJS.Timeout } | undefined;
  let closed = false;

  function warn(url: string, problem: string): void {
    const now = Date.now();
    const last = warned.get(url);
    if (last && now - last.at < WARN_EVERY_MS) {
      last.unsaid++;
      return;
    }
    const more = last?.unsaid ? ` (and ${last.unsaid} more since the last warning)` : '';
    warned.set(url, { at: now, unsaid: 0 });
    log().warn({ url }, `emulator: callback to ${url} failed: ${problem}${more}`);
  }

  async function post(url: string, body: string): Promise<void> {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', signature: options.secret },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.arrayBuffer();
      if (res.ok) stats.sent++;
      else {
        stats.failed++;
        warn(url, `answered ${res.status}`);
      }
    } catch (err) {
      stats.failed++;
      warn(url, (err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : String((err as Error).cause ?? err));
    }
  }

  async function pump(url: string, queue: string[]): Promise<void> {
    for (let body = queue.shift(); body !== undefined && !closed; body = queue.shift()) {
      queued--;
      await post(url, body);
    }
    sending.delete(url);
  }

  function dispatch(body: string, copies: number): void {
    if (closed) return;
    for (const [url, queue] of queues) {
      for (let i = 0; i < copies; i++) {
        if (queued >= maxQueue) {
          stats.overflowed++;
          warn(url, `the queue is full (${maxQueue} callbacks): callback dropped`);
          continue;
        }
        queue.push(body);
        queued++;
      }
      if (!sending.has(url) && queue.length > 0) sending.set(url, pump(url, queue));
    }
  }

  /** Callbacks decided on, in the order they go out once the storing handler has answered. */
  const outbox: { body: string; copies: number }[] = [];
  let flushing = false;
  function send(body: string, copies: number): void {
    outbox.push({ body, copies });
    if (flushing) return;
    flushing = true;
    // After the handler that stored it has answered: the service sends asynchronously to the send.
    setImmediate(() => {
      flushing = false;
      for (const next of outbox.splice(0)) dispatch(next.body, next.copies);
    });
  }

  function release(): void {
    if (!held) return;
    const { body, copies, timer } = held;
    held = undefined;
    clearTimeout(timer);
    timers.delete(timer);
    send(body, copies);
  }

  function later(ms: number, run: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
    return timer;
  }

  return {
    stored(m) {
      if (closed) return;
      const content = callbackBody(options.appId, m);
      if (!content) return;
      const faults = plan();
      if (faults.drop) {
        stats.dropped++;
        return;
      }
      const body = JSON.stringify(content);
      const copies = faults.duplicate ? 2 : 1;
      if (faults.duplicate) stats.duplicated++;
      if (faults.delayMs > 0) {
        stats.delayed++;
        later(faults.delayMs, () => send(body, copies));
      } else if (faults.reorder && !held) {
        stats.reordered++;
        held = { body, copies, timer: later(REORDER_HOLD_MS, release) };
      } else {
        send(body, copies);
        // The one held back goes right after the one that overtook it.
        release();
      }
    },
    stats: () => ({ ...stats }),
    idle: () => queued === 0 && outbox.length === 0 && sending.size === 0 && timers.size === 0 && !held,
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      held = undefined;
      outbox.length = 0;
      for (const queue of queues.values()) queue.length = 0;
      queued = 0;
      await Promise.all(sending.values());
    },
  };
}

/** Sends the callbacks of every message the emulator stores from now on; answers the sender. */
export function attachCallbacks(
  state: { readonly stored: Set<(m: StoredMessage) => void> },
  options: CallbackSenderOptions,
): CallbackSender {
  const sender = createCallbackSender(options);
  state.stored.add(sender.stored);
  const close = sender.close;
  return {
    ...sender,
    close: () => {
      state.stored.delete(sender.stored);
      return close();
    },
  };
}
