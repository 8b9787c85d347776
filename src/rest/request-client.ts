// The REST client as one GraphQL request sees it: bound to that request's caller, and making each
// distinct GET once however many resolvers ask for it. Never shared between requests.
import type { Context } from '@opentelemetry/api';
import type { CallBudget } from './budget';
import type { Caller } from './caller';
import type { CallName, CallOptions, Download, DownloadName, Reply, RestClient } from './client';
import type { Endpoints } from './endpoints';
import { endpoints } from './endpoints';
import type { ParamsIn } from './table';

export interface RequestClient {
  readonly caller: Caller;
  /** Forgets every remembered GET (a write made elsewhere may have changed them). */
  clear(): void;
  call<K extends CallName>(name: K, params: ParamsIn<Endpoints[K]>, opts?: CallOptions): Promise<Reply<K>>;
  download<K extends DownloadName>(name: K, params: ParamsIn<Endpoints[K]>, opts?: CallOptions): Promise<Download>;
}

/** A key equal for equal params whatever their key order; bigint-safe (5n and 5 are the same ID). */
export function stableKey(value: unknown): string {
  if (value === undefined) return 'u';
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(stableKey).join(',')}]`;
  // Called for every read a resolver makes: plain loops, no intermediate arrays of entries.
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 1) keys.sort();
  let out = '';
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    out += `${out ? ',' : ''}${JSON.stringify(key)}:${stableKey(item)}`;
  }
  return `{${out}}`;
}

/** What the request around a client adds to it. */
export interface BindOptions {
  /** Called when a write starts and when it ends (the request forgets what it read). */
  onWrite?: () => void;
  /** The request's REST calls, shared by all its clients: each call sent takes one. */
  budget?: CallBudget;
  /** The trace the request's calls belong to now (its operation's span), read at each call. */
  trace?: () => Context | undefined;
}

export function bindClient(client: RestClient, caller: Caller, bind: BindOptions = {}): RequestClient {
  const memo = new Map<string, Promise<unknown>>();
  const { onWrite, budget, trace } = bind;
  /** The call's options with the request's trace context, when it has one. */
  const traced = (opts: CallOptions | undefined): CallOptions | undefined => {
    const ctx = trace?.();
    return ctx ? { ...opts, trace: ctx } : opts;
  };
  /** `send` once the budget allows it; a refusal is a rejected promise, as a failed call is. */
  const budgeted = <T>(endpoint: string, send: () => Promise<T>): Promise<T> => {
    if (!budget) return send();
    try {
      budget.take(endpoint);
    } catch (err) {
      return Promise.reject(err);
    }
    return send();
  };

  function call<K extends CallName>(name: K, params: ParamsIn<Endpoints[K]>, opts?: CallOptions): Promise<Reply<K>> {
    const { effect } = endpoints[name];
    if (effect === 'write') {
      // A write may change what any GET answers: forget them now, and again when it is done, since
      // a GET begun while it ran may hold the state from before.
      const forget = () => {
        memo.clear();
        onWrite?.();
      };
      forget();
      const written = budgeted(name, () => client.call(name, params, caller, traced(opts)));
      written.then(forget, forget);
      return written;
    }
    // Each call hands out something new: two uploads in one request must not share one target.
    if (effect === 'issue') return budgeted(name, () => client.call(name, params, caller, traced(opts)));
    const key = `${name} ${stableKey(params)}`;
    const known = memo.get(key);
    if (known) return known as Promise<Reply<K>>;
    // The first asker's signal governs the shared call; within one request all ask with the request's signal.
    // One promise per call: a failure is forgotten (a later asker tries again).
    const pending: Promise<Reply<K>> = budgeted(name, () => client.call(name, params, caller, traced(opts))).catch((err: unknown) => {
      if (memo.get(key) === pending) memo.delete(key);
      throw err;
    });
    memo.set(key, pending);
    return pending;
  }

  return {
    caller,
    clear: () => memo.clear(),
    call,
    download: (name, params, opts) => budgeted(name, () => client.download(name, params, caller, traced(opts))),
  };
}
