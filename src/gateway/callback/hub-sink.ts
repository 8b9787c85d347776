// Where the receiver hands its messages: the subscription hub, which implements CallbackSink
// (src/subscriptions/callback-message.ts) once it turns callbacks into events. A hub without
// `deliver` (a build whose subscriptions only poll) gets a sink that drops them: the callbacks are
// still checked, de-duplicated and counted, and the subscriptions keep polling.
import { log } from '../../log/logger';
import type { CallbackSink } from '../../subscriptions/callback-message';

export function hubSink(hub: object): CallbackSink {
  const deliver = (hub as Partial<CallbackSink>).deliver;
  if (typeof deliver === 'function') return { deliver: (message) => deliver.call(hub, message) };
  log().info('callbacks: the subscriptions do not take callbacks in this build: they are counted and dropped; subscriptions poll');
  return { deliver() {} };
}
