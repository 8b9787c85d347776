// The backlog of one HTTP subscriber (SSE or multipart): events its subscription produced that its
// socket has not taken yet. The Node adapter writes a streamed answer only as the socket drains
// (it waits for 'drain' after a write that returned false), so a reader that stops reading leaves
// the unwritten events in its subscription's buffer: 20 such readers held ~3.1 MiB each beyond the
// kernel's buffer (heap 738 MB). Here the subscription is read as fast as it produces, into a queue
// that the answer's writer takes from when the socket drains; a queue past `maxEvents` events or
// `maxBytes` bytes (their JSON) while the socket is `stalled` (the last write was refused: Node's
// writableNeedDrain) drops the reader: the queue is emptied, the subscription ended (the hub lets
// go of it), and the answer gets one final event, `final`, then ends. A burst of events queues
// for a moment even for a reader that keeps up: its socket takes them, so it is not dropped.
// The bytes are counted only for events that wait: a reader keeping up costs no serialization.

export interface BacklogBounds {
  maxEvents: number;
  maxBytes: number;
}

interface BacklogHooks<T> {
  /** Whether the reader's socket refuses more now (nothing stalls: every backlog over the bounds drops). */
  stalled?: () => boolean;
  /** The answer's last event, for a dropped reader. */
  final: (backlog: Backlog) => T;
  onDrop: (backlog: Backlog) => void;
}

/** What the reader had waiting when it was dropped. */
export interface Backlog {
  events: number;
  bytes: number;
}

/** A backlog this many times over the bounds drops the reader even while its socket still takes data. */
const HARD_TIMES = 4;

/** How often a backlog over the bounds on a socket not (yet) stalled is looked at again. */
const RECHECK_MS = 250;

interface Waiting<T> {
  value: T;
  bytes: number;
}

/**
 * `source` read eagerly, handed out as the consumer asks; a backlog over `bounds` on a stalled
 * socket ends it with `final(backlog)` (after `onDrop`). The consumer's `return()` ends the source too.
 */
export function boundedBacklog<T>(source: AsyncIterable<T>, bounds: BacklogBounds, hooks: BacklogHooks<T>): AsyncIterableIterator<T> {
  const { stalled = () => true, final, onDrop } = hooks;
  const iterator = source[Symbol.asyncIterator]();
  const queue: Waiting<T>[] = [];
  let bytes = 0;
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;

  const finish = () => {
    ended = true;
    clearTimeout(recheck);
    void iterator.return?.();
  };

  let recheck: ReturnType<typeof setTimeout> | undefined;
  const over = (times = 1) => queue.length > times * bounds.maxEvents || bytes > times * bounds.maxBytes;
  /** Drops the reader when its backlog is over the bounds and its socket stalled; over them but not yet stalled, looks again later (a burst may be all that comes). */
  const check = () => {
    clearTimeout(recheck);
    recheck = undefined;
    if (ended || !over()) return;
    // Past HARD_TIMES the bounds the reader is dropped whatever its socket says: a burst queues no more than that.
    if (!over(HARD_TIMES) && !stalled()) {
      recheck = setTimeout(check, RECHECK_MS);
      recheck.unref();
      return;
    }
    const backlog = { events: queue.length, bytes };
    queue.length = 0;
    bytes = 0;
    queue.push({ value: final(backlog), bytes: 0 });
    finish();
    onDrop(backlog);
  };

  const receive = (value: T) => {
    if (ended) return;
    // A consumer waiting on an empty queue takes it at once: nothing is measured.
    const size = wake && queue.length === 0 ? 0 : JSON.stringify(value).length;
    queue.push({ value, bytes: size });
    bytes += size;
    check();
  };

  void (async () => {
    try {
      for (let step = await iterator.next(); !step.done && !ended; step = await iterator.next()) {
        receive(step.value);
        wake?.();
      }
    } catch (error) {
      if (!ended) failure = { error };
    }
    ended = true;
    wake?.();
  })();

  const self: AsyncIterableIterator<T> = {
    async next(): Promise<IteratorResult<T>> {
      while (queue.length === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      const first = queue.shift();
      if (first) {
        bytes -= first.bytes;
        return { done: false, value: first.value };
      }
      if (failure) throw failure.error;
      return { done: true, value: undefined };
    },
    async return(): Promise<IteratorResult<T>> {
      queue.length = 0;
      finish();
      wake?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => self,
  };
  return self;
}
