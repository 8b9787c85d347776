// One attempt of a JSON call, dispatched straight to undici with a handler of our own: the body is
// gathered as it arrives (no stream per call), and the attempt can be ended at any moment (its
// deadline passed, the caller aborted, the body too large) through the abort undici hands over,
// which fails the request and destroys its socket, so a late answer never lands on a pooled
// connection. Ended before undici has handed over its abort (still queued for a connection), the
// attempt fails at once and is aborted as soon as undici starts it, before anything is sent.
//
// The handler speaks undici's first handler interface (onConnect, onHeaders, onData, onComplete,
// onError), the one undici's own `request()` still implements in 7.x. The newer one
// (onRequestStart, onResponseStart...) is adapted to it per call by undici: an adapter and a
// controller object per call, and the answer's headers (and trailers) turned into an object of
// strings, of which an attempt reads one, the Content-Length; here it is found in the raw header
// list instead (bench/RESULTS.md, "The REST call's handler").
import type { Dispatcher } from 'undici';
import { BodyTooLarge, HEAD_BYTES, headOf } from './body';
import { AttemptTimedOut, type Deadlines, type Expiring } from './deadlines';

export class TextAttempt implements Dispatcher.DispatchHandler, Expiring {
  deadline = 0;
  /** The HTTP status, once the answer's headers have arrived. */
  status: number | undefined;
  /** The whole body as UTF-8, or the reason the attempt failed. */
  readonly text: Promise<string>;
  private resolve!: (text: string) => void;
  private reject!: (err: unknown) => void;
  private abort: ((reason: Error) => void) | undefined;
  private ended: Error | undefined;
  private settled = false;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  /** The Content-Length says the body is over the limit: only its head is read, then the attempt ends. */
  private declaredTooLarge = false;
  private readonly onAbort: (() => void) | undefined;

  constructor(
    private readonly limit: number,
    private readonly clock: Deadlines,
    private readonly timeoutMs: number,
    private readonly signal?: AbortSignal,
  ) {
    this.text = new Promise<string>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    clock.watch(this);
    if (signal) {
      this.onAbort = () => this.end(signal.reason as Error);
      if (signal.aborted) this.onAbort();
      else signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  expire(): void {
    this.end(new AttemptTimedOut(this.timeoutMs));
  }

  /** Ends the attempt with `reason`: it fails now, and undici drops the request (and its socket). */
  private end(reason: Error): void {
    if (this.settled) return;
    this.ended = reason;
    this.fail(reason);
    this.abort?.(reason);
  }

  private fail(err: unknown): void {
    if (this.settled) return;
    this.settle();
    this.reject(err);
  }

  private settle(): void {
    this.settled = true;
    this.clock.forget(this);
    if (this.onAbort) this.signal?.removeEventListener('abort', this.onAbort);
  }

  onConnect(abort: (reason: Error) => void): void {
    this.abort = abort;
    if (this.ended) abort(this.ended);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    this.status = statusCode;
    const declared = Number(contentLength(rawHeaders));
    this.declaredTooLarge = Number.isSafeInteger(declared) && declared > this.limit;
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return true;
    this.size += chunk.length;
    if (this.size <= this.limit) this.chunks.push(chunk);
    if (this.size > this.limit || (this.declaredTooLarge && this.size >= HEAD_BYTES)) this.tooLarge();
    return true;
  }

  /** Ends the attempt with the head of the body kept (BodyTooLarge.head). */
  private tooLarge(): void {
    this.end(new BodyTooLarge(this.limit, headOf(this.chunks)));
  }

  onComplete(): void {
    if (this.settled) return;
    if (this.declaredTooLarge) return this.tooLarge();
    this.settle();
    // Most answers arrive in one chunk: decoded as it is, without a copy.
    const { chunks } = this;
    this.resolve((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.size)).toString('utf8'));
  }

  onError(err: Error): void {
    this.fail(err);
  }
}

const CONTENT_LENGTH = Buffer.from('content-length');

/** The Content-Length of raw headers (name, value, name, value...), undefined when none; names match in any case. */
function contentLength(rawHeaders: readonly Buffer[]): string | undefined {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === CONTENT_LENGTH.length && sameLowercase(name, CONTENT_LENGTH)) return rawHeaders[i + 1]!.toString('latin1');
  }
  return undefined;
}

/** Whether `name` is `lower` (lowercase ASCII) with its letters in any case. */
function sameLowercase(name: Buffer, lower: Buffer): boolean {
  for (let j = 0; j < lower.length; j++) {
    const c = name[j]!;
    if ((c >= 0x41 && c <= 0x5a ? c | 0x20 : c) !== lower[j]) return false;
  }
  return true;
}
