// Background calls (subscription polls) share the upstream sockets with queries, but only a part
// of them: at most `limit` background calls are under way at once, the others wait here in order.
// A burst of polls then never occupies every socket of the pool, so a query is never queued
// behind it; polls run late instead (each poller waits for its round, so a late poll delays only
// its own subscribers). Queries do not pass through the gate.
import type { RestClient } from './client';

export interface BackgroundGate {
  /** Runs `task` once fewer than `limit` gated tasks are under way; a task still waiting when `signal` aborts is dropped. */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Gated tasks under way, and waiting. */
  stats(): { running: number; queued: number };
}

interface Waiter {
  start(): void;
}

export function backgroundGate(limit: number): BackgroundGate {
  let running = 0;
  const queue = new Set<Waiter>();

  /** A task ended: its place goes to the first waiter, if any. */
  const next = () => {
    const first = queue.values().next();
    if (first.done) {
      running--;
      return;
    }
    queue.delete(first.value);
    first.value.start();
  };

  return {
    async run(task, signal) {
      signal?.throwIfAborted();
      if (running < limit) running++;
      else {
        // Handed the place of a task that ended (running stays as it is).
        await new Promise<void>((resolve, reject) => {
          const abort = () => {
            queue.delete(waiter);
            reject(signal!.reason);
          };
          const waiter: Waiter = {
            start() {
              signal?.removeEventListener('abort', abort);
              resolve();
            },
          };
          queue.add(waiter);
          signal?.addEventListener('abort', abort, { once: true });
        });
      }
      try {
        return await task();
      } finally {
        next();
      }
    },
    stats: () => ({ running, queued: queue.size }),
  };
}

/** The client's calls through the gate (downloads are not polled, and pass as they are). */
export function inBackground(client: RestClient, gate: BackgroundGate): RestClient {
  return {
    call: (name, params, caller, opts) => gate.run(() => client.call(name, params, caller, opts), opts?.signal),
    download: client.download,
    close: client.close,
  };
}
