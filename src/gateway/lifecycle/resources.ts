// The gateway's subsystems as one list of resources, in the order they are made: started in that
// order, and stopped in reverse, in two rounds: first the drain (what must wind down while requests
// are still answered: /ready, subscriptions, sockets), then, once the requests in flight settled,
// the close (listeners, stores, the REST pool, tracing). A subsystem made later may use one made
// before it, never the other way round, so reverse order never closes what another still needs.
import type { DrainOutcome } from './drain';

export interface Resource {
  /** Named in the list (`names`), for errors and for whoever reads the order. */
  readonly name: string;
  start?(): Promise<void> | void;
  /** Winds down while requests in flight are still answered. */
  drain?(): Promise<void> | void;
  /** Lets go of what it holds, once requests settled (the outcome says whether some were cut). */
  close?(outcome: DrainOutcome): Promise<void> | void;
}

export interface Resources {
  readonly names: readonly string[];
  start(): Promise<void>;
  /** Drains every resource (last made first), lets requests settle, then closes them (last made first). */
  stop(settle: () => Promise<DrainOutcome>): Promise<DrainOutcome>;
}

export function resources(list: readonly (Resource | undefined | false)[]): Resources {
  const all = list.filter((r): r is Resource => !!r);
  const reversed = [...all].reverse();
  return {
    names: all.map((r) => r.name),
    async start() {
      for (const r of all) await r.start?.();
    },
    async stop(settle) {
      for (const r of reversed) await r.drain?.();
      const outcome = await settle();
      for (const r of reversed) await r.close?.(outcome);
      return outcome;
    },
  };
}
