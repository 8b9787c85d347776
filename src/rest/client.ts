// The REST client: one generic call over an undici Pool, driven by the endpoint table. It places
// parameters, forwards the caller's identity, opens the envelope, retries what is safe to retry,
// and turns every failure into an UpstreamError. No endpoint has code of its own here. Composed of
// parts a reader can name: the request a call sends (prepare.ts), one attempt and the attempts of a
// call (attempt.ts), the retry policy (retry-policy.ts), the two exchanges an attempt makes (a
// JSON call's, json-exchange.ts; a download's with its storage-redirect rule, download.ts), and the
// hooks (observer.ts, token-hooks.ts).
import { Agent, Pool } from 'undici';
import { type AttemptSettings, attempts } from './attempt';
import type { Caller } from './caller';
import { deadlines } from './deadlines';
import { type Download, downloadExchange } from './download';
import type { EndpointName, Endpoints } from './endpoints';
import type { Envelope } from './envelope';
import { jsonExchange } from './json-exchange';
import type { Int64 } from './json';
import { type CallInfo, type CallObserver, observerOf } from './observer';
import { type Prepared, prepare } from './prepare';
import { type Preconnected, spareSockets } from './spare-sockets';
import type { DataOf, ParamsIn } from './table';
import { type TokenHooks, tokenAccepted, tokenRefused } from './token-hooks';

export type { AttemptStart, CallInfo, CallObserver } from './observer';
export type { Download } from './download';

interface RestClientOptions extends TokenHooks {
  /** Origin of the IM service, optionally with a path prefix (e.g. http://127.0.0.1:4001). */
  baseUrl: string;
  /** `app_id` sent when the caller names none. */
  appId?: string;
  /** Time allowed to open a TCP (or TLS) connection. Default 5 s. */
  connectTimeoutMs?: number;
  /** Time allowed for one attempt of a call: until the body is read (for a download: until its headers). Default 15 s. */
  callTimeoutMs?: number;
  /** Extra attempts for a GET after a connection failure or a 502/503/504. Default 2. */
  retries?: number;
  /** Backoff before retry n is a random delay in [0, base * 2^(n-1)) ("full jitter"). Default 100 ms. */
  retryBaseDelayMs?: number;
  /** Most sockets open to the upstream at once. Default 32. */
  connections?: number;
  /** Largest JSON answer accepted (downloads are streamed and not limited). Default 8 MiB. */
  maxResponseBytes?: number;
  /**
   * Deep-freeze every reply (a development check, IM_FREEZE_REPLIES): replies are shared (by the
   * request's resolvers, and by coalesced requests), so code that changes one then throws.
   */
  freezeReplies?: boolean;
  /**
   * Watches every attempt (src/gateway/observability/: tracing, the call log, readiness, metrics).
   * Without one, an attempt makes nothing beyond what it sends.
   */
  observer?: CallObserver;
  /** Called after every attempt, for metrics and logs: an observer of attempts' ends only (ordered after `observer`). */
  onCall?: (info: CallInfo) => void;
  /**
   * Storage hosts beside the IM service's own ('host:port' exactly, or 'host' on any port): a
   * download's redirect to one of them is followed (see `download`). Default none.
   */
  storageHosts?: readonly string[];
}

/** Endpoints answering with a JSON envelope: what `call` accepts. */
export type CallName = {
  [K in EndpointName]: Endpoints[K]['result'] extends 'json' ? K : never;
}[EndpointName];
/** Endpoints answering with the file itself: what `download` accepts. */
export type DownloadName = Exclude<EndpointName, CallName>;

interface ExtraFields {
  cursor: string;
  total: Int64;
  version: Int64;
  msg_ids: Int64[];
}

/** `data` of the envelope, plus the top-level extras the table lists for the endpoint. */
export type Reply<K extends EndpointName> = { data: DataOf<Endpoints[K]> } & Partial<Pick<ExtraFields, Endpoints[K]['extras'][number]>>;

/**
 * Where a call finds its trace context: a request's trace record (context.ts), or a fixed one. The
 * context is opaque here: it is handed to the observer (gateway/observability/tracing/).
 */
export interface TraceSource {
  readonly current: unknown;
}

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * The trace the call belongs to (the request's operation, a poll round), read only when the call
   * goes out: a call answered by a shared or remembered read makes no trace id.
   */
  trace?: TraceSource;
  /**
   * The params' stableKey (request-client.ts), when the caller has made it already (a request's
   * memo of its reads): coalescing keys the call by it rather than making it again.
   */
  paramsKey?: string;
}

export interface RestClient {
  call<K extends CallName>(name: K, params: ParamsIn<Endpoints[K]>, caller: Caller, opts?: CallOptions): Promise<Reply<K>>;
  download<K extends DownloadName>(name: K, params: ParamsIn<Endpoints[K]>, caller: Caller, opts?: CallOptions): Promise<Download>;
  close(): Promise<void>;
}

/** The client over its own pool, which can open connections ahead of the calls. */
export interface PooledRestClient extends RestClient {
  /**
   * Opens connections to the service until `count` wait unused (warm start: the first calls then
   * pay no set-up); resolves with how many wait, and why one could not be opened. Sends nothing and
   * never rejects.
   */
  preconnect(count: number): Promise<Preconnected>;
}

const NO_OPTIONS: CallOptions = Object.freeze({});

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/** The envelope's `data` and the extras the endpoint lists (deep-frozen when asked). */
function replyOf<K extends CallName>(prepared: Prepared, envelope: Envelope, freeze: boolean): Reply<K> {
  const reply: Record<string, unknown> = { data: envelope.data };
  for (const extra of prepared.p.extras) if (envelope[extra] !== undefined) reply[extra] = envelope[extra];
  return (freeze ? deepFreeze(reply) : reply) as Reply<K>;
}

export function createRestClient(options: RestClientOptions): PooledRestClient {
  const base = new URL(options.baseUrl);
  const defaults = { prefix: base.pathname.replace(/\/+$/, ''), ...(options.appId !== undefined ? { appId: options.appId } : {}) };
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const callTimeoutMs = options.callTimeoutMs ?? 15_000;
  const maxResponseBytes = options.maxResponseBytes ?? 8 * 1024 * 1024;
  const connections = options.connections ?? 32;
  const spares = spareSockets(base, { timeout: connectTimeoutMs });
  const pool = new Pool(base.origin, {
    connections,
    connect: spares.connector,
    // A backstop only (undici's timers are coarse, to ~0.5 s): the shared deadline clock bounds a
    // JSON call, a timer of its own a download's headers. For a download body, the idle limit.
    headersTimeout: callTimeoutMs,
    bodyTimeout: callTimeoutMs,
  });
  // Storage hosts other than the service's: the same limits, sockets only when a download goes there.
  const storageAgent = new Agent({ connect: { timeout: connectTimeoutMs }, headersTimeout: callTimeoutMs, bodyTimeout: callTimeoutMs });
  const settings: AttemptSettings = {
    observer: observerOf(options.observer, options.onCall),
    retry: { retries: options.retries ?? 2, baseDelayMs: options.retryBaseDelayMs ?? 100 },
    callTimeoutMs,
    connectTimeoutMs,
  };
  const json = jsonExchange(pool, deadlines(callTimeoutMs), { maxResponseBytes, callTimeoutMs });
  const file = downloadExchange({ base, pool, storageAgent, storageHosts: options.storageHosts ?? [], callTimeoutMs, maxResponseBytes });
  const freeze = options.freezeReplies === true;

  return {
    call<K extends CallName>(name: K, params: ParamsIn<Endpoints[K]>, caller: Caller, opts: CallOptions = NO_OPTIONS) {
      let prepared: Prepared;
      try {
        prepared = prepare(defaults, name, params, caller, 'json', opts.trace?.current);
      } catch (err) {
        return Promise.reject(err);
      }
      return attempts(
        settings,
        prepared,
        opts.signal,
        json,
        (envelope) => tokenAccepted(options, prepared, caller, replyOf<K>(prepared, envelope, freeze)),
        (err) => tokenRefused(options, err, caller),
      );
    },
    async download<K extends DownloadName>(name: K, params: ParamsIn<Endpoints[K]>, caller: Caller, opts: CallOptions = NO_OPTIONS) {
      const prepared = prepare(defaults, name, params, caller, 'binary', opts.trace?.current);
      return attempts(
        settings,
        prepared,
        opts.signal,
        file,
        (download) => download,
        (err) => tokenRefused(options, err, caller),
      );
    },
    preconnect: (count) => spares.open(Math.min(count, connections)),
    // In-flight calls get one call timeout to finish; then whatever remains (a download body its
    // reader abandoned) is cut, so that shutting down never hangs.
    close: async () => {
      spares.close();
      const timer = setTimeout(() => void Promise.all([pool.destroy(), storageAgent.destroy()]), callTimeoutMs);
      try {
        await Promise.all([pool.close(), storageAgent.close()]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
