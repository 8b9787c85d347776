// The callback route's metrics (gateway/callback/): callbacks received by type, duplicates,
// ignored ones and refusals by reason, and the lag from the message's `timestamp` (the service's
// clock) to its arrival. Labels hold bounded values only: the four types and 'other', fixed reasons.
import type { Registry } from 'prom-client';
import { SeriesCounter, SeriesHistogram } from './metric-series';

export type CallbackRefusal = 'method' | 'rate' | 'busy' | 'signature' | 'too_large' | 'malformed' | 'app' | 'id';

export interface CallbackMetrics {
  /** A callback accepted (200) of a known type, duplicates included. */
  received(type: string): void;
  /** A callback whose appId + msgId was handled already (here or on another replica). */
  duplicate(): void;
  ignored(reason: 'type' | 'system'): void;
  refused(reason: CallbackRefusal): void;
  /** Milliseconds from the message's timestamp to its callback's arrival. */
  lag(ms: number): void;
  /** The de-duplication fell back to this replica's memory (Redis failed). */
  dedupFailure(): void;
}

const NONE: CallbackMetrics = { received() {}, duplicate() {}, ignored() {}, refused() {}, lag() {}, dedupFailure() {} };

/** `registry` undefined (METRICS off): nothing is counted. */
export function callbackMetrics(registry: Registry | undefined): CallbackMetrics {
  if (!registry) return NONE;
  const received = new SeriesCounter(
    'im_gateway_callbacks_received_total',
    'Message callbacks accepted, by type (duplicates included)',
    registry,
  );
  const duplicates = new SeriesCounter(
    'im_gateway_callback_duplicates_total',
    'Message callbacks whose appId + msgId was handled already (on any replica with REDIS_URL): not handed on',
    registry,
  ).of('', () => ({}));
  const ignored = new SeriesCounter(
    'im_gateway_callbacks_ignored_total',
    'Message callbacks accepted and not handed on, by reason (type: unknown type; system: a system message)',
    registry,
  );
  const refused = new SeriesCounter('im_gateway_callbacks_refused_total', 'Callback requests refused, by reason', registry);
  const lag = new SeriesHistogram(
    'im_gateway_callback_lag_seconds',
    "From a message's timestamp (the service's clock) to its callback's arrival",
    registry,
    [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  );
  const lagSeries = lag.of('', () => ({}));
  const dedupFailures = new SeriesCounter(
    'im_gateway_callback_dedup_failures_total',
    "Callbacks de-duplicated by this replica's memory alone because Redis failed",
    registry,
  ).of('', () => ({}));
  return {
    received(type) {
      received.of(type, () => ({ type })).value++;
    },
    duplicate() {
      duplicates.value++;
    },
    ignored(reason) {
      ignored.of(reason, () => ({ reason })).value++;
    },
    refused(reason) {
      refused.of(reason, () => ({ reason })).value++;
    },
    lag(ms) {
      lag.observe(lagSeries, Math.max(0, ms) / 1000);
    },
    dedupFailure() {
      dedupFailures.value++;
    },
  };
}
