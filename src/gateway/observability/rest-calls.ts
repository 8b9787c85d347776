// The gateway's one observer of REST attempts (the client's hook, rest/observer.ts): tracing's first,
// since it gives each attempt's CallInfo its trace ids, then what reads how attempts ended: the call
// log (upstream-log.ts), readiness and metrics.
import type { CallInfo, CallObserver } from '../../rest/client';

type Ended = (info: CallInfo) => void;

export function restCallObserver(tracing: CallObserver | undefined, ended: readonly (Ended | undefined)[]): CallObserver {
  const readers = ended.filter((read): read is Ended => read !== undefined);
  const tell = (info: CallInfo) => {
    for (const read of readers) read(info);
  };
  if (!tracing) return { end: (_state, info) => tell(info) };
  return {
    ...(tracing.start ? { start: (attempt) => tracing.start!(attempt) } : {}),
    end(state, info, error) {
      tracing.end(state, info, error);
      tell(info);
    },
  };
}
