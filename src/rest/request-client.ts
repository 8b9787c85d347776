// The REST client as one GraphQL request sees it: bound to that request's caller, and making each
// distinct GET once however many resolvers ask for it. Never shared between requests.
import type { CallBudget } from './budget';
import type { Caller } from './caller';
import type { CallName, CallOptions, Download, DownloadName, Reply, RestClient, TraceSource } from './client';
import type { Endpoints } from './endpoints';
import { endpoints } from './endpoints';
import { idText, type Int64 } from './json';
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
    // An integer is written as JSON writes it, through idText (IDs recur: their text is kept).
    return typeof value === 'bigint' || Number.isInteger(value) ? idText(value as Int64) : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(stableKey).join(',')}]`;
  // Called for every read a resolver makes: plain loops, no intermediate arrays of entries.
  const record = value as Record<string, unknown>;
  const keys = sorted(Object.keys(record));
  let out = '{';
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${quoted(key)}:${stableKey(item)}`;
  }
  return `${out}}`;
}

/** The keys in code-unit order, as Array.prototype.sort puts them; params have a few, sorted in place by insertion. */
function sorted(keys: string[]): string[] {
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
  return keys;
}

// The JSON text of param names: the table's few names, written once each.
const QUOTED = new Map<string, string>();
const QUOTED_MAX = 1_000;

function quoted(key: string): string {
  let text = QUOTED.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    if (QUOTED.size < QUOTED_MAX) QUOTED.set(key, text);
  }
  return text;
}

/** What the request around a client adds to it. */
export interface BindOptions {
  /** Called when a write starts and when it ends (the request forgets what it read). */
  onWrite?(): void;
  /** The request's REST calls, shared by all its clients: each call sent takes one. */
  readonly budget?: CallBudget;
  /** The trace the request's calls belong to now (its operation's span), read at each call. */
  readonly trace?: TraceSource;
}

const UNBOUND: BindOptions = {};

// A class, not closures: a request binds one client or more, and a list of members one per
// member, so the methods live on the prototype and the memo is made on the first read.
class BoundClient implements RequestClient {
  /** Reads in flight or done, by endpoint and params key (two look-ups of existing strings, no key text made per read). */
  private memo: Map<string, Map<string, Promise<unknown>>> | undefined;

  constructor(
    private readonly client: RestClient,
    readonly caller: Caller,
    private readonly bind: BindOptions,
  ) {}

  clear(): void {
    this.memo?.clear();
  }

  call<K extends CallName>(name: K, params: ParamsIn<Endpoints[K]>, opts?: CallOptions): Promise<Reply<K>> {
    const { effect } = endpoints[name];
    if (effect === 'write') {
      // A write may change what any GET answers: forget them now, and again when it is done, since
      // a GET begun while it ran may hold the state from before.
      const forget = () => {
        this.clear();
        this.bind.onWrite?.();
      };
      forget();
      const written = this.send(name, params, opts);
      written.then(forget, forget);
      return written;
    }
    // Each call hands out something new: two uploads in one request must not share one target.
    if (effect === 'issue') return this.send(name, params, opts);
    const paramsKey = stableKey(params);
    const reads = (this.memo ??= new Map());
    let memo = reads.get(name);
    if (!memo) reads.set(name, (memo = new Map()));
    const known = memo.get(paramsKey);
    if (known) return known as Promise<Reply<K>>;
    // The first asker's signal governs the shared call; within one request all ask with the request's signal.
    // One promise per call: a failure is forgotten (a later asker tries again).
    const endpointMemo = memo;
    const pending: Promise<Reply<K>> = this.send(name, params, opts, paramsKey).catch((err: unknown) => {
      if (endpointMemo.get(paramsKey) === pending) endpointMemo.delete(paramsKey);
      throw err;
    });
    memo.set(paramsKey, pending);
    return pending;
  }

  download<K extends DownloadName>(name: K, params: ParamsIn<Endpoints[K]>, opts?: CallOptions): Promise<Download> {
    return this.budgeted(name) ?? this.client.download(name, params, this.caller, this.traced(opts));
  }

  private send<K extends CallName>(
    name: K,
    params: ParamsIn<Endpoints[K]>,
    opts: CallOptions | undefined,
    paramsKey?: string,
  ): Promise<Reply<K>> {
    return this.budgeted(name) ?? this.client.call(name, params, this.caller, this.traced(opts, paramsKey));
  }

  /** Takes a call from the budget: undefined when it allows one, else the refusal, a rejected promise as a failed call is. */
  private budgeted(endpoint: string): Promise<never> | undefined {
    try {
      this.bind.budget?.take(endpoint);
      return undefined;
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** The call's options with the request's trace context, when it has one, and the params' key, when made. */
  private traced(opts: CallOptions | undefined, paramsKey?: string): CallOptions | undefined {
    const source = this.bind.trace;
    if (!source && paramsKey === undefined) return opts;
    const out: CallOptions = { ...opts };
    if (source) out.trace = source;
    if (paramsKey !== undefined) out.paramsKey = paramsKey;
    return out;
  }
}

export function bindClient(client: RestClient, caller: Caller, bind: BindOptions = UNBOUND): RequestClient {
  return new BoundClient(client, caller, bind);
}
