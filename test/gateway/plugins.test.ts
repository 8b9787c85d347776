// The gateway's plugins in their phases and order (src/gateway/plugins.ts): the order decides which
// hook of one kind runs first, and which plugins a refusal skips, so a change of it shows here by name.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { writeClock } from '../../src/rest/write-clock';
import { subscriptionSlots } from '../../src/subscriptions/slots';
import { useDocumentCache } from '../../src/gateway/execution/document-cache';
import { createRateLimiter } from '../../src/gateway/rate-limit/limiter';
import { createSignInLimiter } from '../../src/gateway/rate-limit/sign-in-limiter';
import { createGatewayMetrics } from '../../src/gateway/observability/metrics';
import { Admission } from '../../src/gateway/admission/admission';
import { gatewayPhases, gatewayPlugins, PHASES, type PluginParts } from '../../src/gateway/plugins';

function partsWith(env: Record<string, string>): PluginParts {
  const config = loadConfig({ PORT: '1', GRAPHIQL: 'false', ...env });
  return {
    config,
    documents: useDocumentCache(),
    persisted: { plugin: {} },
    limiter: config.rateLimit && createRateLimiter({ ...config.rateLimit, defaultAppId: 'app' }),
    admission: new Admission({ replica: 10, perIdentity: 5, queue: 1, waitMs: 1 }),
    signInLimiter:
      config.signInLimitAddress || config.signInLimitName
        ? createSignInLimiter({ address: config.signInLimitAddress, name: config.signInLimitName })
        : undefined,
    slots: subscriptionSlots({ limit: 1 }),
    metrics: config.metrics
      ? createGatewayMetrics({
          subscriptions: () => ({ topics: 0, subscribers: 0, polls: 0, pollErrors: 0 }) as never,
          limits: () => ({ refused: { socket: 0, identity: 0 }, failedOpen: 0, pollsQueued: 0 }),
          public: true,
        })
      : undefined,
    tracing: undefined,
    notReady: () => undefined,
    writes: writeClock(),
  };
}

const REQUEST = [
  'front-refusals',
  'csrf',
  'streaming-multipart',
  'multipart-body-limit',
  'request-parse-errors',
  'params-depth',
  'persisted-documents',
  'batch-limit',
  'rate-limit',
  'accept-check',
  'multipart-subscriptions',
  'slow-readers',
  'readiness-route',
];

const names = (parts: PluginParts) => gatewayPlugins(parts).map((p) => p.name);

describe('gateway plugins', () => {
  it('run phase after phase, each plugin in its place, every optional one switched on', () => {
    const parts = partsWith({
      RATE_LIMIT: '100/1s',
      INTROSPECTION: 'false',
      LOG_REQUESTS: 'true',
      METRICS: 'true',
      GRAPHQL_JIT: 'true',
      SHARE_QUERIES: 'true',
    });
    const phases = gatewayPhases(parts);
    expect(Object.keys(phases)).toEqual([...PHASES]);
    expect(Object.fromEntries(PHASES.map((phase) => [phase, phases[phase].map((p) => p.name)]))).toEqual({
      request: REQUEST,
      document: [
        'defer-stream',
        'document-limits',
        'cost-limit',
        'sign-in-limit',
        'early-proof',
        'result-caps',
        'introspection-refusal',
        'document-cache',
        'subscription-limits',
      ],
      observers: ['metrics', 'operation-tracing'],
      execution: ['compiled-execution', 'admission', 'shared-execution', 'upstream-errors'],
    });
    expect(names(parts)).toEqual(PHASES.flatMap((phase) => phases[phase].map((p) => p.name)));
  });

  it('leave out what is switched off, keeping the others in order', () => {
    const parts = partsWith({
      INTROSPECTION: 'true',
      METRICS: 'false',
      GRAPHQL_JIT: 'false',
      SHARE_QUERIES: 'false',
      SIGN_IN_LIMIT_ADDRESS: 'off',
      SIGN_IN_LIMIT_NAME: 'off',
    });
    expect(names(parts)).toEqual([
      ...REQUEST.filter((name) => name !== 'rate-limit'),
      ...['defer-stream', 'document-limits', 'cost-limit', 'early-proof', 'result-caps', 'document-cache', 'subscription-limits'],
      'admission',
      'upstream-errors',
    ]);
  });
});
