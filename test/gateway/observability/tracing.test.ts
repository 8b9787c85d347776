// Traces: an incoming traceparent is continued through the HTTP span, the operation's span and
// each REST call's span, whose context reaches the IM service; with no exporter the context still
// reaches it, unchanged; a WebSocket operation continues the traceparent of its connectionParams;
// each subscription poll round is a trace of its own; OTEL_SDK_DISABLED=true sends none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator, type TestUser } from '../../helpers/emulator';
import { startOtlpReceiver } from '../../helpers/otlp-receiver';
import { gatewayVia } from '../../helpers/stack';
import { wsClient } from '../../helpers/subscriptions/clients';
import { UNREAD } from '../../helpers/subscriptions/operations';
import { until } from '../../helpers/wait';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT_ID = 'b7ad6b7169203331';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;
const TRACEPARENT_FORMAT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;
const QUERY = 'query Me($probe: String!) { me { id username } avatar: avatarDownloadUrl(fileKey: $probe) }';
const SECRET_VARIABLE = 'variable-value-never-exported';

let emu: TestEmulator;
let user: TestUser;
beforeAll(async () => {
  emu = await startEmulator();
  user = await emu.user();
});
afterAll(() => emu.stop());

async function post(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', app_id: emu.appId, 'access-token': user.token, ...headers },
    body: JSON.stringify({ query: QUERY, variables: { probe: SECRET_VARIABLE } }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { data?: { me?: { id: string } } };
}

/** `QUERY` over a WebSocket whose connectionParams hold `params` besides the identity. */
async function overWebSocket(url: string, params: Record<string, string> = {}) {
  const client = wsClient(url, { app_id: emu.appId, 'access-token': user.token, ...params });
  try {
    const result = await client.feed<{ me?: { id: string } }>(QUERY, { probe: SECRET_VARIABLE }).next();
    expect(result.errors).toBeUndefined();
    return result;
  } finally {
    await client.dispose();
  }
}

/** Subscribes to unreadCounts over a WebSocket until `enough` holds of the emulator's calls since the mark. */
async function whilePolled(url: string, enough: (calls: ReturnType<TestEmulator['calls']>) => boolean) {
  const client = wsClient(url, { app_id: emu.appId, 'access-token': user.token });
  const feed = client.feed(UNREAD);
  try {
    await until('the poll rounds', () => enough(emu.calls()));
  } finally {
    await feed.close();
    await client.dispose();
  }
}

const polled = (calls: ReturnType<TestEmulator['calls']>) => calls.filter((c) => c.endpoint === 'GET /message/unread');

/** The trace ids of the traceparent headers the emulator got since the mark (undefined where none). */
function upstreamTraceIds(): (string | undefined)[] {
  return emu.calls().map((c) => c.headers.traceparent?.match(TRACEPARENT_FORMAT)?.[1]);
}

describe('with an OTLP/HTTP exporter (http/json, always_on)', () => {
  it('exports the request, operation and REST spans of one trace, continuing the incoming one', async () => {
    const receiver = await startOtlpReceiver();
    const { gateway, url } = await gatewayVia(emu.url, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER: 'always_on',
      OTEL_SERVICE_NAME: 'gateway-under-test',
    });
    let calls: ReturnType<TestEmulator['calls']>;
    try {
      emu.mark();
      expect((await post(url, { traceparent: TRACEPARENT })).data?.me?.id).toBe(String(user.id));
      calls = emu.calls();
    } finally {
      // Stopping flushes the batch.
      await gateway.stop();
      await receiver.close();
    }
    {
      const { spans } = receiver;
      expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([TRACE_ID]));
      expect(new Set(spans.map((s) => s.serviceName))).toEqual(new Set(['gateway-under-test']));

      const http = spans.filter((s) => s.name === 'POST /graphql');
      expect(http).toHaveLength(1);
      expect(http[0]).toMatchObject({ parentSpanId: PARENT_ID, kind: 2, attributes: { 'http.response.status_code': 200 } });

      const operation = spans.filter((s) => s.name === 'query Me');
      expect(operation).toHaveLength(1);
      expect(operation[0]!.parentSpanId).toBe(http[0]!.spanId);
      expect(operation[0]!.attributes).toMatchObject({ 'graphql.operation.name': 'Me', 'graphql.operation.type': 'query' });
      expect(operation[0]!.attributes['graphql.document.hash']).toMatch(/^[0-9a-f]{64}$/);

      const rest = spans.filter((s) => s.kind === 3);
      expect(calls.length).toBeGreaterThan(0);
      expect(rest.map((s) => s.name).sort()).toEqual(calls.map((c) => c.endpoint).sort());
      for (const span of rest) {
        expect(span.parentSpanId).toBe(operation[0]!.spanId);
        expect(span.attributes).toMatchObject({ 'http.response.status_code': 200, 'http.request.resend_count': 0 });
      }
      // Each call the emulator got carries its own span's context.
      expect(calls.map((c) => c.headers.traceparent).sort()).toEqual(rest.map((s) => `00-${TRACE_ID}-${s.spanId}-01`).sort());
      expect(receiver.bodies.join('')).not.toContain(SECRET_VARIABLE);
    }
  });

  it('a REST call that fails records the upstream code on its span', async () => {
    const receiver = await startOtlpReceiver();
    const { gateway, url } = await gatewayVia(emu.url, {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    try {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', app_id: emu.appId, 'access-token': 'not-a-token' },
        body: JSON.stringify({ query: '{ me { id } }' }),
      });
      expect(res.status).toBe(200);
    } finally {
      await gateway.stop();
      await receiver.close();
    }
    const failed = receiver.spans.find((s) => s.name === 'GET /user/profile');
    expect(failed?.attributes['im.upstream.code']).toEqual(expect.any(Number));
    expect(failed?.attributes['error.type']).toBeDefined();
  });
});

describe('with an OTLP/HTTP exporter: WebSocket operations and poll rounds', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let spans: typeof receiver.spans;
  let calls: ReturnType<TestEmulator['calls']>;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const { gateway, url } = await gatewayVia(emu.url, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER: 'always_on',
      POLL_INTERVAL_MS: '50',
    });
    try {
      emu.mark();
      await overWebSocket(url, { traceparent: TRACEPARENT });
      await whilePolled(url, (c) => polled(c).length >= 2);
      calls = emu.calls();
    } finally {
      await gateway.stop();
      await receiver.close();
    }
    spans = receiver.spans;
  });

  it("a WebSocket operation's span continues the traceparent of its connectionParams", () => {
    const operation = spans.find((s) => s.name === 'query Me');
    expect(operation).toMatchObject({ traceId: TRACE_ID, parentSpanId: PARENT_ID });
    const own = spans.filter((s) => s.kind === 3 && s.parentSpanId === operation!.spanId);
    expect(own.map((s) => s.name).sort()).toEqual(['GET /user/profile']);
  });

  it("each poll round is a span of a trace of its own, its REST calls the round's children", () => {
    const rounds = spans.filter((s) => s.name.startsWith('poll '));
    expect(rounds.length).toBeGreaterThanOrEqual(2);
    expect(new Set(rounds.map((s) => s.traceId)).size).toBe(rounds.length);
    const unread = spans.filter((s) => s.name === 'GET /message/unread');
    expect(unread.length).toBeGreaterThanOrEqual(2);
    for (const call of unread) expect(rounds.map((r) => r.spanId)).toContain(call.parentSpanId);
    // What the emulator got carries the call span's own context.
    const sent = polled(calls).map((c) => c.headers.traceparent);
    for (const call of unread.slice(0, sent.length)) expect(sent).toContain(`00-${call.traceId}-${call.spanId}-01`);
  });
});

describe('with no exporter set', () => {
  let gateway: Awaited<ReturnType<typeof gatewayVia>>;
  beforeAll(async () => {
    gateway = await gatewayVia(emu.url, { POLL_INTERVAL_MS: '50' });
  });
  afterAll(() => gateway.gateway.stop());

  it('forwards the incoming trace id on every REST call', async () => {
    emu.mark();
    await post(gateway.url, { traceparent: TRACEPARENT });
    const ids = upstreamTraceIds();
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids)).toEqual(new Set([TRACE_ID]));
  });

  it('forwards the incoming traceparent and tracestate unchanged: no span of its own', async () => {
    emu.mark();
    await post(gateway.url, { traceparent: TRACEPARENT, tracestate: 'vendor=opaque' });
    const calls = emu.calls();
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) expect(c.headers).toMatchObject({ traceparent: TRACEPARENT, tracestate: 'vendor=opaque' });
  });

  it('a WebSocket operation continues the traceparent of its connectionParams', async () => {
    emu.mark();
    expect((await overWebSocket(gateway.url, { traceparent: TRACEPARENT })).data?.me?.id).toBe(String(user.id));
    // The connection's own check of the token (at connect) belongs to no operation.
    const traced = emu.calls().flatMap((c) => c.headers.traceparent ?? []);
    expect(traced).toEqual([TRACEPARENT]);
  });

  it('each poll round carries a trace of its own', async () => {
    emu.mark();
    await whilePolled(gateway.url, (c) => polled(c).length >= 2);
    const ids = polled(emu.calls()).map((c) => c.headers.traceparent?.match(TRACEPARENT_FORMAT)?.[1]);
    expect(ids.every((id) => id !== undefined)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('starts a trace for a request without one: its calls share a new trace id', async () => {
    emu.mark();
    await post(gateway.url);
    const first = upstreamTraceIds();
    emu.mark();
    await post(gateway.url);
    const second = upstreamTraceIds();
    expect(new Set(first).size).toBe(1);
    expect(first[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(first[0]).not.toBe(TRACE_ID);
    expect(new Set(second).size).toBe(1);
    expect(second[0]).not.toBe(first[0]);
  });
});

describe('OTEL_SDK_DISABLED=true', () => {
  it('sends no traceparent', async () => {
    const { gateway, url } = await gatewayVia(emu.url, { OTEL_SDK_DISABLED: 'true' });
    try {
      emu.mark();
      await post(url, { traceparent: TRACEPARENT });
      expect(emu.calls().length).toBeGreaterThan(0);
      expect(upstreamTraceIds().every((id) => id === undefined)).toBe(true);
    } finally {
      await gateway.stop();
    }
  });
});
