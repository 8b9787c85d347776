// The REST client: one generic call over an undici Pool, driven by the endpoint table. It places
// parameters, forwards the caller's identity, opens the envelope, retries what is safe to retry,
// and turns every failure into an UpstreamError. No endpoint has code of its own here.
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, type Dispatcher, Pool } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header';
import { BodyTooLarge, peek, readText } from './body';
import type { Caller } from './caller';
import { AttemptTimedOut, deadlines } from './deadlines';
import type { EndpointName, Endpoints } from './endpoints';
import { type Envelope, envelopeError, envelopeIn, openEnvelope } from './envelope';
import { isTokenRefusal, UpstreamError, type UpstreamErrorKind } from './errors';
import type { Int64 } from './json';
import { encodeParams, type Placement, placement } from './placement';
import { secretsOf } from './secrets';
import { spareSockets } from './spare-sockets';
import { storageErrorOf, storageHostAllowed } from './storage';
import type { DataOf, HttpMethod, ParamsIn } from './table';
import { TextAttempt } from './text-attempt';

interface RestClientOptions {
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
   * Called when the upstream refuses the caller's token (10003/10008, HTTP 401/402): what the
   * gateway remembers about that token (the peer path's caller proof) is forgotten at once.
   */
  onTokenRefused?: (caller: Caller) => void;
  /** Called when the upstream answered a call of an endpoint that checks the caller's token: the token is good for its app. */
  onTokenAccepted?: (caller: Caller) => void;
  /**
   * Storage hosts beside the IM service's own ('host:port' exactly, or 'host' on any port): a
   * download's redirect to one of them is followed (see `download`). Default none.
   */
  storageHosts?: readonly string[];
}

/** How an attempt went. Holds no parameter values and no secrets. */
export interface CallInfo {
  endpoint: string;
  method: HttpMethod;
  path: string;
  /** HTTP status; absent when no answer arrived. */
  status?: number;
  ms: number;
  /** 1 for the first attempt. */
  attempt: number;
  /** Set when the attempt failed. */
  error?: UpstreamErrorKind;
  /** The envelope's code of a failed attempt, when it had one. */
  code?: number;
  /** The trace the attempt belongs to, set by a tracing observer before the others see it (for logs). */
  traceId?: string;
  spanId?: string;
}

/** An attempt about to be sent, as its observer sees it. */
export interface AttemptStart {
  /** The endpoint's table key ('GET /group/info'). */
  readonly endpoint: string;
  readonly method: HttpMethod;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** The call's trace context (CallOptions.trace), as its source handed it: the client never reads it. */
  readonly trace: unknown;
  /**
   * What the attempt sends. A call's attempts share this object: an observer that sends more (a
   * trace context) puts a copy with it here, and never changes the object in place.
   */
  headers: Record<string, string>;
}

/**
 * One hook around every attempt of every call and download. `start` runs just before the attempt
 * is sent and `end` once it is over, with whatever `start` answered (a span), how it went, and the
 * failure itself (an UpstreamError, or the caller's abort reason). An observer must not throw: a
 * failure in one is swallowed, never the call's.
 */
export interface CallObserver<S = unknown> {
  start?(attempt: AttemptStart): S;
  end(state: S, info: CallInfo, error: unknown): void;
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

export interface Download {
  /** The final answer's: the storage's when a redirect to it was followed. */
  status: number;
  headers: IncomingHttpHeaders;
  /** The file's bytes as they arrive (for a redirect not followed, its usually empty body). Consume or destroy it. */
  body: Readable;
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
   * pay no set-up); resolves with how many wait. Sends nothing and never rejects.
   */
  preconnect(count: number): Promise<number>;
}

const RETRY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);
/** Redirects a download follows to the storage. */
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Redirects followed after the service's answer: the storage's, and a few more (a CDN) at most. */
const MAX_STORAGE_HOPS = 3;
// A redirect's body is empty or a line of text; past this it is cut rather than read.
const REDIRECT_BODY_BYTES = 16 * 1024;
// A JSON answer this small to a download may be an error envelope; a real file is streamed untouched.
const DOWNLOAD_SNIFF_BYTES = 64 * 1024;
// A header value may not carry these (undici would refuse the request with a less helpful error).
const BAD_HEADER_VALUE = /[\r\n\0]/;

const ATTEMPT_DONE = new Error('attempt finished');

// Every call is dispatched with `reset: false`. undici closes a socket once it has written a body
// with a method that does not expect one (DELETE; lib/dispatcher/client-h1.js), lest a server that
// ignores such a body read it as the next request; the service reads the one DELETE body the spec
// gives (1.30 DELETE /user/push/tag, 'sent as a body'), so its connection is kept like any other.
// (For the other methods the option changes nothing: a socket undici must close is not reused.)

const NO_OPTIONS: CallOptions = Object.freeze({});

interface Prepared {
  readonly p: Placement;
  readonly path: string;
  /** What every attempt sends, unless its observer sends more. */
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  readonly secrets: readonly string[];
  /** The trace context the call's attempts hang under (opaque: the observer's). */
  readonly trace: unknown;
}

/** An observed attempt: what its observer saw and what the observer's `start` answered (one object per attempt). */
class Watched implements AttemptStart {
  state: unknown;

  constructor(
    readonly endpoint: string,
    readonly method: HttpMethod,
    readonly attempt: number,
    readonly trace: unknown,
    public headers: Record<string, string>,
  ) {}
}

/** The one observer of the options: `observer`, then `onCall`; none when neither is given. */
function observerOf(options: RestClientOptions): CallObserver | undefined {
  const { observer, onCall } = options;
  if (!onCall) return observer;
  if (!observer) return { end: (_state, info) => onCall(info) };
  return {
    ...(observer.start ? { start: (attempt: AttemptStart) => observer.start!(attempt) } : {}),
    end(state, info, error) {
      try {
        observer.end(state, info, error);
      } finally {
        onCall(info);
      }
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

export function createRestClient(options: RestClientOptions): PooledRestClient {
  const base = new URL(options.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const callTimeoutMs = options.callTimeoutMs ?? 15_000;
  const retries = options.retries ?? 2;
  const retryBaseDelayMs = options.retryBaseDelayMs ?? 100;
  const maxResponseBytes = options.maxResponseBytes ?? 8 * 1024 * 1024;
  const spares = spareSockets(base, { timeout: connectTimeoutMs });
  const pool = new Pool(base.origin, {
    connections: options.connections ?? 32,
    connect: spares.connector,
    // A backstop only (undici's timers are coarse, to ~0.5 s): the shared deadline clock bounds a
    // JSON call, a timer of its own a download's headers. For a download body, the idle limit.
    headersTimeout: callTimeoutMs,
    bodyTimeout: callTimeoutMs,
  });
  // Storage hosts other than the service's: the same limits, sockets only when a download goes there.
  const storageAgent = new Agent({ connect: { timeout: connectTimeoutMs }, headersTimeout: callTimeoutMs, bodyTimeout: callTimeoutMs });
  const storageHosts = options.storageHosts ?? [];
  const clock = deadlines(callTimeoutMs);

  const observer = observerOf(options);

  /** Sets a caller's header; the value itself stays out of the message: it may be the token. */
  function setCallerHeader(headers: Record<string, string>, header: string, value: string): void {
    if (BAD_HEADER_VALUE.test(value)) throw new TypeError(`caller's ${header} is not a valid header value`);
    headers[header] = value;
  }

  // Once per call, and built in place (no spreads, no entry arrays): every REST call comes here.
  function prepare(name: string, params: object, caller: Caller, want: 'json' | 'binary', trace: unknown): Prepared {
    const p = placement(name);
    if (p.binary !== (want === 'binary')) {
      throw new TypeError(`${name} answers with ${p.binary ? 'a file: use download()' : 'JSON: use call()'}`);
    }
    const record = params as Readonly<Record<string, unknown>>;
    const encoded = encodeParams(p, record);
    const headers: Record<string, string> = {};
    const appId = caller.appId ?? options.appId;
    if (appId !== undefined) setCallerHeader(headers, 'app_id', appId);
    if (caller.token !== undefined) setCallerHeader(headers, 'access-token', caller.token);
    if (caller.userId !== undefined) setCallerHeader(headers, 'user_id', caller.userId);
    if (caller.groupId !== undefined && p.groupIdHeader) setCallerHeader(headers, 'group_id', caller.groupId);
    if (encoded.body !== undefined) headers['content-type'] = 'application/json';
    return { p, path: prefix + p.path + encoded.search, headers, body: encoded.body, secrets: secretsOf(caller, record), trace };
  }

  /** Tells the observer an attempt starts; undefined when nothing observes (the attempt sends the call's headers). */
  function started(prepared: Prepared, attempt: number): Watched | undefined {
    if (!observer) return undefined;
    const watched = new Watched(prepared.p.name, prepared.p.method, attempt, prepared.trace, prepared.headers);
    try {
      if (observer.start) watched.state = observer.start(watched);
    } catch {
      // An observer must never fail the call it observes.
    }
    return watched;
  }

  function report(
    prepared: Prepared,
    attempt: number,
    began: number,
    status: number | undefined,
    error: unknown,
    watched: Watched | undefined,
  ) {
    if (!observer || !watched) return;
    // Fields absent rather than undefined (logs list what is there), set in place rather than spread.
    const info: CallInfo = {
      endpoint: prepared.p.name,
      method: prepared.p.method,
      path: prepared.p.path,
      ms: performance.now() - began,
      attempt,
    };
    if (status !== undefined) info.status = status;
    if (error instanceof UpstreamError) {
      info.error = error.kind;
      if (error.code !== undefined) info.code = error.code;
    }
    try {
      observer.end(watched.state, info, error);
    } catch {
      // A metrics hook must never fail the call it observes.
    }
  }

  /**
   * Runs attempts (from `attempt` on) until one succeeds or fails for good. Only GETs are retried,
   * only when the upstream was not reached or answered 502/503/504: a write that may have happened
   * is never repeated. (GET /message/ack records a read receipt, which is idempotent: retrying it is safe.)
   */
  async function withRetries<T>(
    prepared: Prepared,
    signal: AbortSignal | undefined,
    once: (attempt: number) => Promise<T>,
    attempt = 1,
  ): Promise<T> {
    for (; ; attempt++) {
      try {
        return await once(attempt);
      } catch (err) {
        await retryAfter(prepared, signal, err, attempt);
      }
    }
  }

  /** Waits before the attempt after `attempt`, which failed with `err`; throws `err` when that failure is final. */
  async function retryAfter(prepared: Prepared, signal: AbortSignal | undefined, err: unknown, attempt: number): Promise<void> {
    const transient =
      err instanceof UpstreamError && (err.kind === 'unavailable' || (err.kind === 'http' && RETRY_STATUSES.has(err.httpStatus ?? 0)));
    if (prepared.p.method !== 'GET' || !transient || attempt > retries) throw err;
    const delay = Math.random() * retryBaseDelayMs * 2 ** (attempt - 1);
    try {
      await sleep(delay, undefined, signal ? { signal } : undefined);
    } catch {
      // Aborted while waiting: answer with the caller's reason, as an aborted attempt does.
      throw signal?.reason;
    }
  }

  /** One attempt's abort signal: the caller's signal or our timer, whichever fires first. */
  function attemptSignal(signal: AbortSignal | undefined) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new AttemptTimedOut(callTimeoutMs)), callTimeoutMs);
    const forward = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', forward, { once: true });
    if (signal?.aborted) forward();
    const release = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    };
    return {
      signal: controller.signal,
      /** Stops the timer (the caller's signal still reaches an unfinished download body). */
      stopTimer: () => clearTimeout(timer),
      release,
      /**
       * Ends the attempt: whatever undici still holds for it (a body nobody read, after an error
       * path we did not foresee) is destroyed rather than left holding its socket. A no-op for a
       * request undici has completed.
       */
      finish: () => {
        release();
        if (!controller.signal.aborted) controller.abort(ATTEMPT_DONE);
      },
    };
  }

  /** The UpstreamError (or the caller's abort reason) for an error thrown by undici or a body read. */
  function failure(prepared: Prepared, err: unknown, attemptSignal?: AbortSignal, signal?: AbortSignal): unknown {
    if (err instanceof UpstreamError) return err;
    const endpoint = prepared.p.name;
    if (signal?.aborted) return signal.reason;
    if (err instanceof BodyTooLarge)
      return new UpstreamError({
        endpoint,
        kind: 'invalid-body',
        detail: err.message,
        ...(err.head === undefined ? {} : { bodyHead: err.head }),
      });
    const code = (err as { code?: unknown } | null)?.code;
    // undici refusing our request is a bug of ours, not an upstream failure: let it surface as one.
    if (code === 'UND_ERR_INVALID_ARG') return err;
    if (
      err instanceof AttemptTimedOut ||
      attemptSignal?.reason instanceof AttemptTimedOut ||
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT'
    ) {
      return new UpstreamError({ endpoint, kind: 'timeout', detail: `no answer within ${callTimeoutMs} ms`, cause: err });
    }
    const what = code === 'UND_ERR_CONNECT_TIMEOUT' ? `connect timed out after ${connectTimeoutMs} ms` : String(code ?? 'network error');
    return new UpstreamError({ endpoint, kind: 'unavailable', detail: `upstream unreachable (${what})`, cause: err });
  }

  /**
   * One attempt of a JSON call, bounded as a whole (queue, headers and body) by the shared
   * deadline clock, and ended by the caller's signal if it has one: no AbortController, timer or
   * body stream is made per call (see text-attempt.ts).
   */
  async function attemptCall(prepared: Prepared, attempt: number, opts: CallOptions) {
    const { signal } = opts;
    const began = performance.now();
    const handler = new TextAttempt(maxResponseBytes, clock, callTimeoutMs, signal);
    const watched = started(prepared, attempt);
    const headers = watched ? watched.headers : prepared.headers;
    try {
      pool.dispatch({ method: prepared.p.method, path: prepared.path, headers, body: prepared.body ?? null, reset: false }, handler);
      const text = await handler.text;
      const status = handler.status ?? 0;
      const opened = openEnvelope({ endpoint: prepared.p.name, status, text, secrets: prepared.secrets });
      report(prepared, attempt, began, status, undefined, watched);
      return opened;
    } catch (err) {
      const failed = failure(prepared, err, undefined, signal);
      report(prepared, attempt, began, handler.status, failed, watched);
      throw failed;
    }
  }

  // Every call comes here: the first attempt is made at once, and the retry loop entered only
  // after a failure, so that a call that succeeds makes no promise or closure beyond its attempt's.
  function call<K extends CallName>(
    name: K,
    params: ParamsIn<Endpoints[K]>,
    caller: Caller,
    opts: CallOptions = NO_OPTIONS,
  ): Promise<Reply<K>> {
    let prepared: Prepared;
    try {
      prepared = prepare(name, params, caller, 'json', opts.trace?.current);
    } catch (err) {
      return Promise.reject(err);
    }
    return attemptCall(prepared, 1, opts).then(
      (envelope) => accepted(prepared, caller, replyOf<K>(prepared, envelope)),
      (err: unknown) => retried<K>(prepared, caller, opts, err),
    );
  }

  /** Tells that the caller's token was accepted, then answers as the call did. */
  function accepted<R>(prepared: Prepared, caller: Caller, reply: R): R {
    if (options.onTokenAccepted && prepared.p.checksToken && caller.token !== undefined) {
      try {
        options.onTokenAccepted(caller);
      } catch {
        // A hook must never change the call's own answer.
      }
    }
    return reply;
  }

  /** The call after its first attempt failed with `failed`: the retries that failure allows. */
  async function retried<K extends CallName>(prepared: Prepared, caller: Caller, opts: CallOptions, failed: unknown): Promise<Reply<K>> {
    try {
      await retryAfter(prepared, opts.signal, failed, 1);
      return accepted(
        prepared,
        caller,
        replyOf<K>(prepared, await withRetries(prepared, opts.signal, (attempt) => attemptCall(prepared, attempt, opts), 2)),
      );
    } catch (err) {
      return refused(err, caller);
    }
  }

  /** The envelope's `data` and the extras the endpoint lists. */
  function replyOf<K extends CallName>(prepared: Prepared, envelope: Envelope): Reply<K> {
    const reply: Record<string, unknown> = { data: envelope.data };
    for (const extra of prepared.p.extras) if (envelope[extra] !== undefined) reply[extra] = envelope[extra];
    return (options.freezeReplies ? deepFreeze(reply) : reply) as Reply<K>;
  }

  /** Tells of a refused token, then fails as the call did. */
  function refused(err: unknown, caller: Caller): never {
    if (options.onTokenRefused && isTokenRefusal(err)) {
      try {
        options.onTokenRefused(caller);
      } catch {
        // A hook must never change the call's own failure.
      }
    }
    throw err;
  }

  /**
   * Where a download's answer redirects to, when the gateway follows it: an http(s) URL on the IM
   * service's host or a storage host. Any other redirect is handed back as it is (the gateway sends
   * nothing to a host it was not told to trust; the client may follow it itself).
   */
  function storageLocation(status: number, headers: IncomingHttpHeaders, from: URL): URL | undefined {
    const location = headers.location;
    if (!REDIRECTS.has(status) || typeof location !== 'string') return undefined;
    let url: URL;
    try {
      url = new URL(location, from);
    } catch {
      return undefined;
    }
    return storageHostAllowed(url, base.href, storageHosts) ? url : undefined;
  }

  /**
   * Fetches a download: the service's answer, then, while it redirects to the storage, the
   * storage's, with no identity (the caller's token must never reach a storage host). One attempt
   * covers the whole chain: its timer runs until the final answer's headers, a retry starts again
   * at the service (a storage URL may be signed for a short while), and every body passed over is
   * read or destroyed.
   */
  async function fetchDownload(prepared: Prepared, headers: Record<string, string>, signal: AbortSignal) {
    let res: Dispatcher.ResponseData = await pool.request({ method: 'GET', path: prepared.path, headers, signal });
    let at = new URL(prepared.path, base.origin);
    let hops = 0;
    for (let next = storageLocation(res.statusCode, res.headers, at); next; next = storageLocation(res.statusCode, res.headers, at)) {
      await res.body.dump({ limit: REDIRECT_BODY_BYTES, signal });
      if (hops === MAX_STORAGE_HOPS) {
        throw new UpstreamError({
          endpoint: prepared.p.name,
          kind: 'http',
          httpStatus: res.statusCode,
          detail: 'too many storage redirects',
        });
      }
      const path = next.pathname + next.search;
      res =
        next.origin === base.origin
          ? await pool.request({ method: 'GET', path, signal })
          : await storageAgent.request({ origin: next.origin, method: 'GET', path, signal });
      at = next;
      hops++;
    }
    return { res, fromStorage: hops > 0 };
  }

  async function download<K extends DownloadName>(
    name: K,
    params: ParamsIn<Endpoints[K]>,
    caller: Caller,
    opts: CallOptions = NO_OPTIONS,
  ): Promise<Download> {
    const prepared = prepare(name, params, caller, 'binary', opts.trace?.current);
    const { signal } = opts;
    return withRetries(prepared, signal, async (attempt) => {
      const began = performance.now();
      const bound = attemptSignal(signal);
      const watched = started(prepared, attempt);
      const headers = watched ? watched.headers : prepared.headers;
      let status: number | undefined;
      try {
        // No redirect interceptor: a redirect to the storage is followed by fetchDownload, any other comes back as it is.
        const { res, fromStorage } = await fetchDownload(prepared, headers, bound.signal);
        status = res.statusCode;
        bound.stopTimer();
        const body = await checkedDownloadBody(prepared, res.statusCode, res.headers, res.body, fromStorage);
        report(prepared, attempt, began, status, undefined, watched);
        // The caller's signal must keep reaching the body until it is done with it.
        body.once('close', bound.release);
        return { status: res.statusCode, headers: res.headers, body };
      } catch (err) {
        const failed = failure(prepared, err, bound.signal, signal);
        bound.finish();
        report(prepared, attempt, began, status, failed, watched);
        throw failed;
      }
    }).catch((err: unknown) => refused(err, caller));
  }

  /**
   * The body to hand out, or the UpstreamError a download answer amounts to (its body then read or
   * destroyed). The storage's answer is a file or its own error: it is never taken for an envelope.
   */
  async function checkedDownloadBody(
    prepared: Prepared,
    status: number,
    headers: IncomingHttpHeaders,
    body: Readable,
    fromStorage: boolean,
  ): Promise<Readable> {
    const endpoint = prepared.p.name;
    if (status >= 300 && status < 400) return body;
    if (status < 200 || status >= 400) {
      let text = '';
      try {
        text = await readText(body, headers, maxResponseBytes);
      } catch (err) {
        if (!(err instanceof BodyTooLarge)) throw err;
      }
      const said = fromStorage
        ? { ...storageErrorOf(text), detail: 'the storage refused the file' }
        : envelopeError(envelopeIn(text), prepared.secrets);
      throw new UpstreamError({ endpoint, kind: 'http', httpStatus: status, ...said });
    }
    // The service reports business errors as HTTP 200 with an envelope; a file never says it is one.
    const type = String(headers['content-type'] ?? '');
    if (fromStorage || !type.includes('json')) return body;
    const peeked = await peek(body, DOWNLOAD_SNIFF_BYTES);
    if (!peeked.complete) return peeked.stream;
    const envelope = envelopeIn(peeked.bytes.toString('utf8'));
    if (envelope && envelope.code !== 200 && 'message' in envelope) {
      throw new UpstreamError({ endpoint, kind: 'envelope', httpStatus: status, ...envelopeError(envelope, prepared.secrets) });
    }
    return Readable.from([peeked.bytes]);
  }

  return {
    call,
    download,
    preconnect: (count) => spares.open(Math.min(count, options.connections ?? 32)),
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
