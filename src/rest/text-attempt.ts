// One attempt of a JSON call, dispatched straight to undici with a handler of our own: the body is
// gathered as it arrives (no stream per call), and the attempt can be ended at any moment (its
// deadline passed, the caller aborted, the body too large) through undici's dispatch controller,
// which fails the request and destroys its socket, so a late answer never lands on a pooled
// connection. Ended before undici has handed over its controller (still queued for a connection),
// the attempt fails at once and is aborted as soon as undici starts it, before anything is sent.
import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header';
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
  private controller: Dispatcher.DispatchController | undefined;
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
    this.controller?.abort(reason);
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

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.ended) controller.abort(this.ended);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.status = statusCode;
    const declared = Number(headers['content-length']);
    this.declaredTooLarge = Number.isSafeInteger(declared) && declared > this.limit;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    this.size += chunk.length;
    if (this.size <= this.limit) this.chunks.push(chunk);
    if (this.size > this.limit || (this.declaredTooLarge && this.size >= HEAD_BYTES)) this.tooLarge();
  }

  /** Ends the attempt with the head of the body kept (BodyTooLarge.head). */
  private tooLarge(): void {
    this.end(new BodyTooLarge(this.limit, headOf(this.chunks)));
  }

  onResponseEnd(): void {
    if (this.settled) return;
    if (this.declaredTooLarge) return this.tooLarge();
    this.settle();
    // Most answers arrive in one chunk: decoded as it is, without a copy.
    const { chunks } = this;
    this.resolve((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.size)).toString('utf8'));
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, err: Error): void {
    this.fail(err);
  }
}
