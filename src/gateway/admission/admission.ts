// Admission control of one replica: the estimated REST calls (the MAX_COST estimate, at least 1
// an operation: even a call-free one costs CPU) of the operations running at once, bounded per
// identity and for the replica. An operation over a bound waits in its identity's queue (short:
// bounded in length and in time); freed capacity goes to the queues' heads round-robin between
// identities, so one caller's queue never holds up another's. The last tenth of the replica's
// bound is kept for cheap operations (at most a quarter of that tenth), so that heavy pages of
// many callers never leave no room for another caller's `{ me { id } }`.
// An operation weighs what it will make: its estimated REST calls, and the bytes of the upstream
// bodies it builds by copying input per recipient, a call's worth per UPSTREAM_BYTES_PER_CALL
// (issue 40: one sendFriendRequests with a 240 KB message × 1,000 users counted as one call).
// Nothing here is GraphQL: use-admission.ts words the refusals and holds the grants.

/** Which bound refused: the identity's (HTTP 429) or the replica's (HTTP 503). */
export type AdmissionScope = 'identity' | 'replica';

export interface AdmissionLimits {
  /** The replica's bound (MAX_COST_IN_FLIGHT). */
  readonly replica: number;
  /** One identity's bound (MAX_COST_IN_FLIGHT_PER_IDENTITY). */
  readonly perIdentity: number;
  /** Operations one identity may have waiting (ADMISSION_QUEUE). */
  readonly queue: number;
  /** Longest wait (ADMISSION_WAIT_MS). */
  readonly waitMs: number;
}

/** What an admitted operation holds until it ends; `release` may be called any number of times. */
export interface Grant {
  readonly admitted: true;
  release(): void;
}
export interface Refusal {
  readonly admitted: false;
  readonly scope: AdmissionScope;
  /** Why, in a few words (the error message ends with it). */
  readonly reason: string;
}
export type Verdict = Grant | Refusal;

/** Upstream body bytes that weigh as much as one REST call (a large page's answer). */
export const UPSTREAM_BYTES_PER_CALL = 64 * 1024;

/** What an operation will make, as the cost estimate says it. */
export interface Work {
  readonly calls: number;
  readonly upstreamBytes: number;
}

/** An operation's weight in admission: its calls and its copied bytes, at least 1 (even a call-free one costs CPU). */
export const weightOf = (work: Work): number => Math.max(1, work.calls + Math.ceil(work.upstreamBytes / UPSTREAM_BYTES_PER_CALL));

/** Operations waiting on the whole replica, whatever their identities: bounds the memory queues take. */
export const MAX_WAITING = 2_000;

interface Waiter {
  readonly cost: number;
  readonly settle: (verdict: Verdict) => void;
  timer?: ReturnType<typeof setTimeout>;
}

interface IdentityLoad {
  inFlight: number;
  readonly queue: Waiter[];
}

export class Admission {
  private inFlight = 0;
  private waiting = 0;
  /** Identities with operations running or waiting; dropped when idle. */
  private readonly loads = new Map<string, IdentityLoad>();
  /** Identities with a queue, in the order their heads are served (round-robin: served ones go last). */
  private readonly turns = new Map<string, IdentityLoad>();
  private readonly reserve: number;
  private readonly cheap: number;

  constructor(private readonly limits: AdmissionLimits) {
    this.reserve = Math.ceil(limits.replica / 10);
    this.cheap = Math.floor(this.reserve / 4);
  }

  /** The estimated calls running and the operations waiting (tests and metrics read it). */
  get load(): { inFlight: number; waiting: number; identities: number } {
    return { inFlight: this.inFlight, waiting: this.waiting, identities: this.loads.size };
  }

  /**
   * Admits an operation of `cost` estimated calls for `key` (who it is): a Grant at once when it
   * fits and nothing of its identity waits before it, else a promise settled when it is admitted,
   * refused, or `signal` aborts (the client left: refused, nothing ran).
   */
  enter(key: string, cost: number, signal?: AbortSignal): Verdict | Promise<Verdict> {
    const weight = Math.max(1, cost);
    let load = this.loads.get(key);
    if (!load) this.loads.set(key, (load = { inFlight: 0, queue: [] }));
    if (load.queue.length === 0 && this.fits(load, weight)) return this.grant(key, load, weight);
    if (load.queue.length >= this.limits.queue) {
      this.forgetIfIdle(key, load);
      return this.refusal(this.blockedBy(load, weight), `${load.queue.length} operations of this caller wait already`);
    }
    if (this.waiting >= MAX_WAITING) {
      this.forgetIfIdle(key, load);
      return this.refusal('replica', `${this.waiting} operations wait already`);
    }
    if (signal?.aborted) {
      this.forgetIfIdle(key, load);
      return this.refusal(this.blockedBy(load, weight), 'the client went away');
    }
    const queue = load.queue;
    return new Promise<Verdict>((resolve) => {
      const waiter: Waiter = {
        cost: weight,
        settle: (verdict) => {
          clearTimeout(waiter.timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(verdict);
        },
      };
      // Leaves the queue refused: its wait is over, or its client left.
      const leave = (reason: string) => {
        const at = queue.indexOf(waiter);
        if (at < 0) return;
        queue.splice(at, 1);
        this.waiting--;
        const scope = this.blockedBy(load, weight);
        if (queue.length === 0) this.turns.delete(key);
        this.forgetIfIdle(key, load);
        waiter.settle(this.refusal(scope, reason));
        // A head that could not run may have held back smaller operations behind it.
        if (at === 0) this.dispatch();
      };
      const onAbort = () => leave('the client went away');
      waiter.timer = setTimeout(() => leave(`no room within ${this.limits.waitMs} ms`), this.limits.waitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
      this.waiting++;
      if (!this.turns.has(key)) this.turns.set(key, load);
    });
  }

  private fits(load: IdentityLoad, weight: number): boolean {
    const replicaRoom = weight <= this.cheap ? this.limits.replica : this.limits.replica - this.reserve;
    // An operation alone on its identity (or on the replica) is never over that bound: it could never run otherwise.
    const identityFits = load.inFlight === 0 || load.inFlight + weight <= this.limits.perIdentity;
    const replicaFits = this.inFlight === 0 || this.inFlight + weight <= replicaRoom;
    return identityFits && replicaFits;
  }

  /** The bound an operation of `weight` is kept out by (the identity's first: its own load is what it can lower). */
  private blockedBy(load: IdentityLoad, weight: number): AdmissionScope {
    return load.inFlight > 0 && load.inFlight + weight > this.limits.perIdentity ? 'identity' : 'replica';
  }

  private grant(key: string, load: IdentityLoad, weight: number): Grant {
    this.inFlight += weight;
    load.inFlight += weight;
    let held = true;
    return {
      admitted: true,
      release: () => {
        if (!held) return;
        held = false;
        this.inFlight -= weight;
        load.inFlight -= weight;
        this.forgetIfIdle(key, load);
        this.dispatch();
      },
    };
  }

  /** Admits queue heads that fit, one identity after another, until a whole round admits none. */
  private dispatch(): void {
    let admitted = true;
    while (admitted && this.turns.size > 0) {
      admitted = false;
      for (const [key, load] of [...this.turns]) {
        const head = load.queue[0]!;
        if (!this.fits(load, head.cost)) continue;
        load.queue.shift();
        this.waiting--;
        // Served: its next operation waits for every other identity's turn.
        this.turns.delete(key);
        if (load.queue.length > 0) this.turns.set(key, load);
        head.settle(this.grant(key, load, head.cost));
        admitted = true;
      }
    }
  }

  private forgetIfIdle(key: string, load: IdentityLoad): void {
    if (load.inFlight === 0 && load.queue.length === 0 && this.loads.get(key) === load) this.loads.delete(key);
  }

  private refusal(scope: AdmissionScope, reason: string): Refusal {
    return { admitted: false, scope, reason };
  }
}
