// The REST client as one GraphQL request sees it: bound to that request's caller, and making each
// distinct GET once however many resolvers ask for it. Never shared between requests.
import type { Caller } from './caller';
import type { CallName, CallOptions, Download, DownloadName, Reply, RestClient } from './client';
import type { Endpoints } from './endpoints';
import { placement } from './placement';
import type { ParamsIn } from './table';

export interface RequestClient {
  readonly caller: Caller;
  call<K extends CallName>(name: K, params: ParamsIn<Endpoints[K]>, opts?: CallOptions): Promise<Reply<K>>;
  download<K extends DownloadName>(name: K, params: ParamsIn<Endpoints[K]>, opts?: CallOptions): Promise<Download>;
}

/*
 * GETs that are not plain reads. GET /message/ack records a read receipt: it changes what
 * GET /message/unread answers, so it counts as a write. The upload-target GETs hand out a fresh
 * target per call: two uploads in one request must not share one (the second would overwrite the
 * first), and a QR signature is likewise issued per call. (A `sideEffects` flag in the endpoint
 * table would be the better home for this.)
 */
const GET_WRITES: ReadonlySet<string> = new Set(['GET /message/ack']);
const GET_FRESH: ReadonlySet<string> = new Set([
  'GET /file/upload/avatar/group',
  'GET /file/upload/avatar/user',
  'GET /file/upload/chat',
  'GET /file/upload/forward',
  'GET /group/qrcode/sign',
]);

/** A key equal for equal params whatever their key order; bigint-safe (5n and 5 are the same ID). */
export function stableKey(value: unknown): string {
  if (value === undefined) return 'u';
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(stableKey).join(',')}]`;
  const entries = Object.entries(value)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableKey(item)}`).join(',')}}`;
}

export function bindClient(client: RestClient, caller: Caller): RequestClient {
  const memo = new Map<string, Promise<unknown>>();

  function call<K extends CallName>(name: K, params: ParamsIn<Endpoints[K]>, opts?: CallOptions): Promise<Reply<K>> {
    const isRead = placement(name).method === 'GET' && !GET_WRITES.has(name);
    if (!isRead) {
      // A write may change what any GET answers: forget them now, and again when it is done, since
      // a GET begun while it ran may hold the state from before.
      memo.clear();
      const written = client.call(name, params, caller, opts);
      const forget = () => memo.clear();
      written.then(forget, forget);
      return written;
    }
    if (GET_FRESH.has(name)) return client.call(name, params, caller, opts);
    const key = `${name} ${stableKey(params)}`;
    const known = memo.get(key);
    if (known) return known as Promise<Reply<K>>;
    // The first asker's signal governs the shared call; within one request all ask with the request's signal.
    const pending = client.call(name, params, caller, opts);
    memo.set(key, pending);
    pending.catch(() => {
      if (memo.get(key) === pending) memo.delete(key);
    });
    return pending;
  }

  return {
    caller,
    call,
    download: (name, params, opts) => client.download(name, params, caller, opts),
  };
}

