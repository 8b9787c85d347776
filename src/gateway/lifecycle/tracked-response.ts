// The responses in flight, as the drain keeps them: each response is a link of one list, put in
// when its request arrives and taken out when it closes, with no Map entry per request (against a Map
// keyed by response, 2-17% less CPU per request on the varied cases in five paired runs: bench/RESULTS.md).
import { type IncomingMessage, ServerResponse } from 'node:http';

/** The list a response is in while in flight. */
export class InFlight {
  private head: TrackedResponse | undefined = undefined;
  private count = 0;

  constructor(
    /** Called when the last response in flight closes. */
    private readonly onIdle: () => void,
  ) {}

  get size(): number {
    return this.count;
  }

  /** Puts the response in; it leaves when it closes (Node ends every response, answered or aborted, with 'close'). */
  add(res: TrackedResponse): void {
    res.once('close', () => this.remove(res));
    res.inFlight = this;
    res.next = this.head;
    if (this.head) this.head.previous = res;
    this.head = res;
    this.count++;
  }

  remove(res: TrackedResponse): void {
    if (res.inFlight !== this) return;
    if (res.previous) res.previous.next = res.next;
    else this.head = res.next;
    if (res.next) res.next.previous = res.previous;
    res.inFlight = res.previous = res.next = undefined;
    if (--this.count === 0) this.onIdle();
  }

  /** The responses in flight now (a copy: closing one while walking is safe). */
  all(): TrackedResponse[] {
    const out: TrackedResponse[] = [];
    for (let res = this.head; res; res = res.next) out.push(res);
    return out;
  }
}

/** The server's response class (`createServer({ ServerResponse })`): a response that can be in a list. */
export class TrackedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  inFlight: InFlight | undefined = undefined;
  previous: TrackedResponse | undefined = undefined;
  next: TrackedResponse | undefined = undefined;
}
