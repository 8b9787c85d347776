// Read your writes, for everything that lets one caller's read join another's in flight (REST
// coalescing, shared executions): the clock moves when a write starts and when it ends, and a read
// joins only one that started at the same time on it. One clock per gateway, so that a mutation's
// start keeps queries from joining earlier ones just as a REST write keeps reads from joining.
export interface WriteClock {
  /** The time now: reads that started at another time are never joined. */
  readonly now: number;
  /** A write starts or ends. */
  tick(): void;
}

export function writeClock(): WriteClock {
  let now = 0;
  return {
    get now() {
      return now;
    },
    tick() {
      now++;
    },
  };
}
