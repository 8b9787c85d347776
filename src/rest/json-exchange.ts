// A JSON call's exchange (one attempt's send and read, see attempt.ts): dispatched straight to
// the pool with a TextAttempt handler, bounded as a whole (queue, headers and body) by the shared
// deadline clock and ended by the caller's signal if it has one, no AbortController, timer or
// body stream made per call; the answer opened as the service's envelope.
import type { Dispatcher } from 'undici';
import type { Exchange } from './attempt';
import type { Deadlines } from './deadlines';
import { type Envelope, openEnvelope } from './envelope';
import { TextAttempt } from './text-attempt';

export interface JsonLimits {
  /** Largest body read. */
  readonly maxResponseBytes: number;
  /** One attempt's time limit (the clock's). */
  readonly callTimeoutMs: number;
}

// Every call is dispatched with `reset: false`. undici closes a socket once it has written a body
// with a method that does not expect one (DELETE; lib/dispatcher/client-h1.js), lest a server that
// ignores such a body read it as the next request; the service reads the one DELETE body the spec
// gives (1.30 DELETE /user/push/tag, 'sent as a body'), so its connection is kept like any other.
// (For the other methods the option changes nothing: a socket undici must close is not reused.)

/** The exchange of every JSON call of a client over `pool`. */
export function jsonExchange(pool: Dispatcher, clock: Deadlines, limits: JsonLimits): Exchange<Envelope> {
  return async (prepared, headers, signal, answer) => {
    const handler = new TextAttempt(limits.maxResponseBytes, clock, limits.callTimeoutMs, signal);
    let text: string;
    try {
      pool.dispatch({ method: prepared.p.method, path: prepared.path, headers, body: prepared.body ?? null, reset: false }, handler);
      text = await handler.text;
    } finally {
      answer.status = handler.status;
    }
    const status = (answer.status = handler.status ?? 0);
    return openEnvelope({ endpoint: prepared.p.name, status, text, secrets: prepared.secrets });
  };
}
