// Where the receiver hands its messages: the subscription hub, which implements CallbackSink
// (src/subscriptions/callback-message.ts) once it turns callbacks into events. A hub without
// `deliver` (a build whose subscriptions only poll) gets a sink that drops them, saying so once:
// the callbacks are still checked, de-duplicated and counted, and the subscriptions keep polling.
import { log } from '../../log/logger';
import type { CallbackSink } from '../../subscriptions/callback-message';

export function hubSink(hub: object): CallbackSink {
  const deliver = (hub as Partial<CallbackSink>).deliver;
  if (typeof deliver === 'function') return { deliver: (message) => deliver.call(hub, message) };
  let told = false;
  return {
    deliver() {
      if (told) return;
      told = true;
      log().info('callbacks: the subscriptions of this build do not take callbacks: they are counted and dropped, and subscriptions poll');
    },
  };
}
