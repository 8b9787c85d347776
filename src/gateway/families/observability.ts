// The observability family: tracing, readiness, metrics (and their own listener) and the REST
// calls' observer that feeds them, built first so that everything after reports to them.
import type { Config } from '../../config';
import type { Resource } from '../lifecycle/resources';
import { listenForMetrics } from '../observability/metrics-listener';
import { createGatewayMetrics } from '../observability/metrics';
import { createReadiness } from '../observability/readiness';
import { restCallObserver } from '../observability/rest-calls';
import { createTracing } from '../observability/tracing/tracing';
import { upstreamLog } from '../observability/upstream-log';

export function observabilityFamily(config: Config) {
  const tracing = createTracing(config.tracing);
  const readiness = createReadiness({ failedCalls: config.readyFailedCalls, windowMs: config.readyWindowMs });
  const metrics = config.metrics ? createGatewayMetrics({ public: config.metricsPort === undefined }) : undefined;
  let listener: Awaited<ReturnType<typeof listenForMetrics>> | undefined;
  const port = config.metricsPort;
  const listenerResource: Resource | undefined =
    metrics && port !== undefined
      ? {
          name: 'metrics-listener',
          start: async () => {
            listener = await listenForMetrics(metrics.scrape, port, config.metricsHost);
          },
          close: async () => {
            await listener?.close();
            listener = undefined;
          },
        }
      : undefined;
  return {
    tracing,
    readiness,
    metrics,
    /** Every attempt of a REST call, to the trace, the trouble log, readiness and the metrics. */
    restObserver: restCallObserver(tracing?.calls, [upstreamLog(), readiness.record, metrics?.restCall]),
    /** Where metrics are served when they have a listener of their own (after start). */
    get metricsUrl() {
      return listener?.url;
    },
    /** Made first, closed last: what the others report while closing is still exported. */
    tracingResource: tracing ? { name: 'tracing', close: () => tracing.shutdown() } : undefined,
    /** Made last, closed first. */
    listenerResource,
  };
}

export type ObservabilityFamily = ReturnType<typeof observabilityFamily>;
