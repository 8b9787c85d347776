// Operational visibility: Prometheus metrics at /metrics (operations, REST calls, subscriptions,
// the process), one registry per gateway, METRICS=false; and the rate-limited log of upstream trouble.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config';
import { createGateway } from '../../../src/gateway/create-gateway';
import { upstreamLog } from '../../../src/gateway/observability/upstream-log';
import { captureLog } from '../../helpers/log-capture';
import { createLogger, setLogger } from '../../../src/log/logger';
import type { CallInfo } from '../../../src/rest/client';
import { gatewayVia, startStack, type Stack } from '../../helpers/stack';
import { sseFeed } from '../../helpers/subscriptions/clients';
import { UNREAD } from '../../helpers/subscriptions/operations';
import { identity } from '../../helpers/users';
import { EVENT_DEADLINE_MS } from '../../helpers/wait';

/** The value of the sample of `name` whose labels are exactly `labels` (undefined: none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (JSON.stringify(Object.entries(found).sort()) === JSON.stringify(Object.entries(labels).sort())) return Number(match[3]);
  }
  return undefined;
}

async function scrape(origin: string): Promise<string> {
  const res = await fetch(`${origin}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
}

const restCount = (text: string, endpoint: string, outcome: string) =>
  sample(text, 'im_gateway_rest_call_duration_seconds_count', { endpoint, outcome }) ?? 0;

describe('GET /metrics', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ POLL_INTERVAL_MS: '100' });
  });
  afterAll(() => stack.stop());

  it('counts an operation by name and type, and its REST calls by endpoint, as many as the service received', async () => {
    const user = await stack.emu.user();
    const before = await scrape(stack.url);
    stack.emu.mark();
    const reply = await stack.gql('query MetricsProbe { me { id username settings { noPush } } }', {}, stack.asUser(user.id));
    expect(reply.errors).toBeUndefined();
    const after = await scrape(stack.url);

    const operation = { operationName: 'MetricsProbe', operationType: 'query' };
    expect(sample(after, 'graphql_envelop_request', operation)).toBe(1);
    expect(sample(after, 'graphql_envelop_request_duration_count', operation)).toBe(1);
    expect(sample(after, 'graphql_yoga_http_duration_count', { ...operation, method: 'POST', statusCode: '200' })).toBe(1);
    for (const endpoint of ['GET /user/profile', 'GET /user/settings'] as const) {
      expect(stack.emu.calls(endpoint).length).toBe(1);
      expect(restCount(after, endpoint, '2xx') - restCount(before, endpoint, '2xx')).toBe(1);
    }
  });

  it('counts errors by operation and phase, and keeps IDs, variables and query text out of the labels', async () => {
    const user = await stack.emu.user();
    const missing = '1999999999937';
    const reply = await stack.gql('query GroupProbe($id: ID!) { groups(ids: [$id]) { name } }', { id: missing }, stack.asUser(user.id));
    expect(reply.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const text = await scrape(stack.url);

    expect(sample(text, 'graphql_envelop_error_result', { operationName: 'GroupProbe', operationType: 'query', phase: 'execute' })).toBe(1);
    // A business error of the service: an answer, not an outage.
    expect(restCount(text, 'GET /group/info', 'envelope')).toBeGreaterThanOrEqual(1);
    // The labels only: a sample's value may hold any digits (0.18452000000000002 s of CPU held a user ID's).
    const labels = (text.match(/\{[^}\n]*\}/g) ?? []).join('\n');
    expect(labels).toContain('operationName="GroupProbe"');
    expect(labels).not.toContain(missing);
    expect(labels).not.toContain(String(user.id));
    expect(labels).not.toContain('name }');
  });

  it('counts refused documents by phase, leaves schema fetches out, and prints cumulative histogram buckets', async () => {
    const user = await stack.emu.user();
    const as = stack.asUser(user.id);
    // Unparsed, its name is unknown (unless the request gives operationName).
    await stack.gql('query Broken { me { id ', {}, as);
    await stack.gql('query Unknown { me { noSuchField } }', {}, as);
    await stack.gql('query Schema { __schema { queryType { name } } }', {}, as);
    await stack.gql('query Timed { me { id } }', {}, as);
    const text = await scrape(stack.url);

    expect(sample(text, 'graphql_envelop_error_result', { operationName: 'Anonymous', operationType: 'unknown', phase: 'parse' })).toBe(1);
    expect(sample(text, 'graphql_envelop_error_result', { operationName: 'Unknown', operationType: 'query', phase: 'validate' })).toBe(1);
    expect(sample(text, 'graphql_envelop_request', { operationName: 'Schema', operationType: 'query' })).toBeUndefined();
    expect(text).toContain('# TYPE graphql_envelop_request_duration histogram');
    const timed = { operationName: 'Timed', operationType: 'query' };
    const buckets = ['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'].map(
      (le) => sample(text, 'graphql_envelop_request_duration_bucket', { ...timed, le }) ?? -1,
    );
    expect(buckets.every((count, i) => count >= (buckets[i - 1] ?? 0))).toBe(true);
    expect(buckets.at(-1)).toBe(1);
    expect(sample(text, 'graphql_envelop_request_duration_count', timed)).toBe(1);
    expect(sample(text, 'graphql_envelop_request_duration_sum', timed)).toBeGreaterThan(0);
  });

  it('shows open subscriptions, their topics and their polls, and drops them when the subscriber leaves', async () => {
    const user = await stack.emu.user();
    const feed = sseFeed(stack.url, identity(stack.emu, user), UNREAD);
    try {
      await feed.next();
      const open = await scrape(stack.url);
      expect(sample(open, 'im_gateway_subscribers')).toBe(1);
      expect(sample(open, 'im_gateway_subscription_topics')).toBe(1);
      expect(sample(open, 'im_gateway_subscription_polls_total')).toBeGreaterThanOrEqual(1);
      expect(sample(open, 'im_gateway_subscription_poll_errors_total')).toBe(0);
    } finally {
      await feed.close();
    }
    await vi.waitFor(async () => expect(sample(await scrape(stack.url), 'im_gateway_subscribers')).toBe(0), {
      timeout: EVENT_DEADLINE_MS,
    });
    expect(sample(await scrape(stack.url), 'im_gateway_subscription_topics')).toBe(0);
  });

  it('includes the Node process metrics', async () => {
    const text = await scrape(stack.url);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_heap_size_used_bytes');
  });
});

describe('registries', () => {
  it('gives every gateway of a process its own metrics, served by each without a duplicate registration', async () => {
    const first = await startStack();
    const second = await startStack();
    try {
      await first.gql('query OnFirst { me { id } }');
      const one = await scrape(first.url);
      const two = await scrape(second.url);
      const operation = { operationName: 'OnFirst', operationType: 'query' };
      expect(sample(one, 'graphql_envelop_request', operation)).toBe(1);
      expect(sample(two, 'graphql_envelop_request', operation)).toBeUndefined();
      // The process metrics are shared, and served by both.
      expect(two).toContain('process_cpu_user_seconds_total');
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });
});

describe('METRICS=false', () => {
  it('serves no /metrics route, and GraphQL as before', async () => {
    const quiet = await startStack({ METRICS: 'false' });
    try {
      expect((await fetch(`${quiet.url}/metrics`)).status).toBe(404);
      expect((await quiet.gql('{ __typename }')).data).toEqual({ __typename: 'Query' });
    } finally {
      await quiet.stop();
    }
  });
});

describe('METRICS_PORT', () => {
  it('serves metrics on a listener of its own, and none on the public port', async () => {
    // No IM service: the operation is counted all the same (with its failed REST call).
    const { gateway, url } = await gatewayVia('http://127.0.0.1:9', { IM_RETRIES: '0' }, { metricsPort: 0 });
    try {
      const counted = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query":"query Counted { me { id } }"}',
      });
      await counted.arrayBuffer();
      const publicPort = await fetch(`${url}/metrics`);
      expect(publicPort.status).toBe(404);
      await publicPort.arrayBuffer();
      expect(gateway.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const text = await scrape(gateway.metricsUrl!.replace(/\/metrics$/, ''));
      expect(sample(text, 'graphql_envelop_request', { operationName: 'Counted', operationType: 'query' })).toBe(1);
      const elsewhere = await fetch(gateway.metricsUrl!.replace(/metrics$/, 'graphql'));
      expect(elsewhere.status).toBe(404);
      await elsewhere.arrayBuffer();
    } finally {
      await gateway.stop();
    }
  });

  it('is 9464 by default in production only, on 127.0.0.1, and never the public port', () => {
    expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({ metricsPort: 9464, metricsHost: '127.0.0.1' });
    expect(loadConfig({}).metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9100', METRICS_HOST: '0.0.0.0' })).toMatchObject({ metricsPort: 9100, metricsHost: '0.0.0.0' });
    expect(() => loadConfig({ PORT: '4000', METRICS_PORT: '4000' })).toThrow(/METRICS_PORT and PORT must differ/);
    expect(() => loadConfig({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT must be an integer/);
  });
});

describe('upstream trouble', () => {
  afterEach(() => vi.restoreAllMocks());

  /** The trouble lines the process logger writes meanwhile. */
  function captureProcessLog() {
    const captured = captureLog();
    setLogger(captured.logger);
    return { ...captured, trouble: () => captured.entries.map((e) => e.msg).filter((msg) => msg.startsWith('IM service trouble')) };
  }
  afterEach(() => setLogger(createLogger()));

  it('logs one line for an unreachable service, suppresses the next failures, and counts every attempt and retry', async () => {
    const captured = captureProcessLog();
    // Port 9 (discard) is closed: every attempt fails to connect.
    const gateway = createGateway({ ...loadConfig({ PORT: '1', IM_RETRIES: '2' }), port: 0 }, { imBaseUrl: 'http://127.0.0.1:9' });
    const url = await gateway.start();
    try {
      const headers = { 'content-type': 'application/json', 'access-token': 'secret-token-4711', user_id: '2000000000123' };
      const query = async () => {
        const res = await fetch(`${url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: '{ me { id } }' }) });
        const reply = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
        expect(reply.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
      };
      await query();
      const lines = captured.trouble();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^IM service trouble: GET \/user\/profile unreachable after \d+ ms \(attempt 1\)$/);
      expect(captured.text()).not.toContain('secret-token-4711');
      expect(captured.text()).not.toContain('2000000000123');

      await query();
      expect(captured.trouble()).toHaveLength(1);

      const text = await scrape(url);
      // Two calls of three attempts each (the first and two retries).
      expect(restCount(text, 'GET /user/profile', 'unavailable')).toBe(6);
      expect(sample(text, 'im_gateway_rest_retries_total', { endpoint: 'GET /user/profile' })).toBe(4);
    } finally {
      await gateway.stop();
    }
  });

  describe('the log itself', () => {
    const info = (over: Partial<CallInfo>): CallInfo => ({
      endpoint: 'GET /group/info',
      method: 'GET',
      path: '/group/info',
      ms: 12.3,
      attempt: 1,
      ...over,
    });

    function clocked() {
      const lines: string[] = [];
      const captured = captureLog('info', (entry) => lines.push(entry.msg));
      let now = 1_000_000;
      const log = upstreamLog({ windowMs: 10_000, logger: captured.logger, now: () => now });
      return {
        lines,
        log,
        advance: (ms: number) => (now += ms),
      };
    }

    it('after the quiet window, logs again and tells how many lines it left out', () => {
      const { lines, log, advance } = clocked();
      log(info({ error: 'timeout' }));
      advance(4_000);
      log(info({ error: 'timeout' }));
      log(info({ status: 503, error: 'http', attempt: 2 }));
      expect(lines).toEqual(['IM service trouble: GET /group/info timed out after 12 ms (attempt 1)']);
      advance(6_000);
      log(info({ status: 502, error: 'http' }));
      expect(lines[1]).toBe('IM service trouble: GET /group/info HTTP 502 after 12 ms (attempt 1); 2 more since the last line');
    });

    it('keeps a window per endpoint', () => {
      const { lines, log } = clocked();
      log(info({ error: 'unavailable' }));
      log(info({ endpoint: 'POST /message/send', method: 'POST', path: '/message/send', error: 'unavailable' }));
      expect(lines).toHaveLength(2);
    });

    it('does not log answers, business errors, 4xx or bad bodies', () => {
      const { lines, log } = clocked();
      log(info({ status: 200 }));
      log(info({ status: 200, error: 'envelope' }));
      log(info({ status: 429, error: 'http' }));
      log(info({ status: 200, error: 'invalid-body' }));
      expect(lines).toEqual([]);
    });
  });
});
