// A download's exchange (one attempt's send and read, see attempt.ts): the service's answer, then,
// while it redirects to the storage, the storage's, with no identity (the caller's token must
// never reach a storage host). One attempt covers the whole chain: its timer runs until the final
// answer's headers, a retry starts again at the service (a storage URL may be signed for a short
// while), and every body passed over is read or destroyed. The body is handed out as it arrives.
import { Readable } from 'node:stream';
import type { Agent, Dispatcher, Pool } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header';
import type { Exchange } from './attempt';
import { BodyTooLarge, peek, readText } from './body';
import { AttemptTimedOut } from './deadlines';
import { envelopeError, envelopeIn } from './envelope';
import { UpstreamError } from './errors';
import type { Prepared } from './prepare';
import { storageErrorOf, storageHostAllowed } from './storage';

export interface Download {
  /** The final answer's: the storage's when a redirect to it was followed. */
  status: number;
  headers: IncomingHttpHeaders;
  /** The file's bytes as they arrive (for a redirect not followed, its usually empty body). Consume or destroy it. */
  body: Readable;
}

export interface DownloadSettings {
  /** The IM service's base URL (its host is always a storage host). */
  readonly base: URL;
  /** The service's pool (a redirect back to the service goes through it, with no identity). */
  readonly pool: Pool;
  /** Every other storage host's connections. */
  readonly storageAgent: Agent;
  /** Storage hosts beside the service's ('host:port' exactly, or 'host' on any port). */
  readonly storageHosts: readonly string[];
  /** Time allowed until the final answer's headers. */
  readonly callTimeoutMs: number;
  /** Largest error body read. */
  readonly maxResponseBytes: number;
}

/** Redirects a download follows to the storage. */
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Redirects followed after the service's answer: the storage's, and a few more (a CDN) at most. */
export const MAX_STORAGE_HOPS = 3;
// A redirect's body is empty or a line of text; past this it is cut rather than read.
const REDIRECT_BODY_BYTES = 16 * 1024;
// A JSON answer this small to a download may be an error envelope; a real file is streamed untouched.
const DOWNLOAD_SNIFF_BYTES = 64 * 1024;

const ATTEMPT_DONE = new Error('attempt finished');

/**
 * The storage-redirect rule: where a download's answer (`status`, `headers`, received from `from`)
 * redirects to when the gateway follows it, an http(s) URL on the IM service's host or a storage
 * host. Any other redirect is handed back as it is (the gateway sends nothing to a host it was not
 * told to trust; the client may follow it itself).
 */
export function storageLocation(
  status: number,
  headers: IncomingHttpHeaders,
  from: URL,
  base: URL,
  storageHosts: readonly string[],
): URL | undefined {
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

/** One attempt's abort signal: the caller's signal or our timer, whichever fires first. */
function attemptSignal(signal: AbortSignal | undefined, timeoutMs: number) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new AttemptTimedOut(timeoutMs)), timeoutMs);
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

/** The service's answer, then the storage's while it redirects there (see the file's comment). */
async function fetchChain(settings: DownloadSettings, prepared: Prepared, headers: Record<string, string>, signal: AbortSignal) {
  const { base, pool } = settings;
  let res: Dispatcher.ResponseData = await pool.request({ method: 'GET', path: prepared.path, headers, signal });
  let at = new URL(prepared.path, base.origin);
  let hops = 0;
  const next = () => storageLocation(res.statusCode, res.headers, at, base, settings.storageHosts);
  for (let to = next(); to; to = next()) {
    await res.body.dump({ limit: REDIRECT_BODY_BYTES, signal });
    if (hops === MAX_STORAGE_HOPS) {
      throw new UpstreamError({
        endpoint: prepared.p.name,
        kind: 'http',
        httpStatus: res.statusCode,
        detail: 'too many storage redirects',
      });
    }
    const path = to.pathname + to.search;
    res =
      to.origin === base.origin
        ? await pool.request({ method: 'GET', path, signal })
        : await settings.storageAgent.request({ origin: to.origin, method: 'GET', path, signal });
    at = to;
    hops++;
  }
  return { res, fromStorage: hops > 0 };
}

/**
 * The body to hand out, or the UpstreamError a download answer amounts to (its body then read or
 * destroyed). The storage's answer is a file or its own error: it is never taken for an envelope.
 */
async function checkedBody(
  settings: DownloadSettings,
  prepared: Prepared,
  res: Dispatcher.ResponseData,
  fromStorage: boolean,
): Promise<Readable> {
  const { statusCode: status, headers, body } = res;
  const endpoint = prepared.p.name;
  if (status >= 300 && status < 400) return body;
  if (status < 200 || status >= 400) {
    let text = '';
    try {
      text = await readText(body, headers, settings.maxResponseBytes);
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

/** The exchange of every download of a client. No redirect interceptor: `fetchChain` follows the storage's, any other comes back as it is. */
export function downloadExchange(settings: DownloadSettings): Exchange<Download> {
  return async (prepared, headers, signal, answer) => {
    const bound = attemptSignal(signal, settings.callTimeoutMs);
    try {
      const { res, fromStorage } = await fetchChain(settings, prepared, headers, bound.signal);
      answer.status = res.statusCode;
      bound.stopTimer();
      const body = await checkedBody(settings, prepared, res, fromStorage);
      // The caller's signal must keep reaching the body until it is done with it.
      body.once('close', bound.release);
      return { status: res.statusCode, headers: res.headers, body };
    } catch (err) {
      answer.timedOut = bound.signal.reason instanceof AttemptTimedOut;
      bound.finish();
      throw err;
    }
  };
}
