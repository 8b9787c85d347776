// The logger writes JSON lines with level, time and msg; secrets never reach a line; the REST
// trouble line names the endpoint, the upstream code and the trace.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadTracingConfig } from '../../src/config';
import { upstreamLog } from '../../src/gateway/observability/upstream-log';
import { captureLog } from '../helpers/log-capture';

describe('logger', () => {
  it('writes one JSON line per entry with level, time and msg', () => {
    const { logger, entries } = captureLog();
    logger.warn({ endpoint: 'GET /group/info' }, 'something');
    logger.debug('below the level');
    expect(entries).toEqual([
      { level: 'warn', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), endpoint: 'GET /group/info', msg: 'something' },
    ]);
  });

  it('redacts tokens, passwords and authorization headers wherever they sit', () => {
    const { logger, text, entries } = captureLog();
    logger.info(
      {
        token: 'secret-1',
        password: 'secret-2',
        headers: { authorization: 'Bearer secret-3', 'access-token': 'secret-4', app_id: 'im-demo' },
        req: { headers: { authorization: 'Bearer secret-5' } },
        user: { access_token: 'secret-6', name: 'ann' },
        adminToken: 'secret-7',
      },
      'a request',
    );
    expect(text()).not.toMatch(/secret-\d/);
    expect(entries[0]).toMatchObject({
      token: '[redacted]',
      password: '[redacted]',
      headers: { authorization: '[redacted]', 'access-token': '[redacted]', app_id: 'im-demo' },
      req: { headers: { authorization: '[redacted]' } },
      user: { access_token: '[redacted]', name: 'ann' },
    });
  });

  it('a failed REST call is logged with its endpoint, upstream code and trace; one that went well is not', () => {
    const { logger, entries } = captureLog('debug');
    const log = upstreamLog({ logger });
    const call = {
      endpoint: 'GET /group/info',
      method: 'GET' as const,
      path: '/group/info',
      ms: 3,
      attempt: 1,
      traceId: 'a'.repeat(32),
      spanId: 'b'.repeat(16),
    };
    log({ ...call, status: 200 }); // a call that went well: no line
    log({ ...call, status: 200, error: 'envelope', code: 10004 });
    log({ ...call, status: 503, error: 'http', code: 503 });
    expect(entries).toEqual([
      expect.objectContaining({
        level: 'debug',
        endpoint: 'GET /group/info',
        upstream_code: 10004,
        trace_id: 'a'.repeat(32),
        span_id: 'b'.repeat(16),
      }),
      expect.objectContaining({ level: 'warn', endpoint: 'GET /group/info', status: 503, upstream_code: 503, trace_id: 'a'.repeat(32) }),
    ]);
  });
});

describe('configuration', () => {
  it('LOG_LEVEL is one of the levels', () => {
    expect(loadConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
    expect(loadConfig({}).logLevel).toBe('info');
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });

  it('OTEL variables: the traces endpoint, protocol and sampler, each checked', () => {
    expect(loadTracingConfig({})).toMatchObject({ enabled: true, exportUrl: undefined, sampler: 'parentbased_always_on' });
    expect(loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' }).exportUrl).toBe('http://127.0.0.1:4318/v1/traces');
    expect(
      loadTracingConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:9/t',
      }).exportUrl,
    ).toBe('http://127.0.0.1:9/t');
    expect(
      loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'none' }).exportUrl,
    ).toBeUndefined();
    expect(loadTracingConfig({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' })).toMatchObject({
      sampler: 'traceidratio',
      samplerRatio: 0.25,
    });
    expect(loadTracingConfig({ OTEL_SDK_DISABLED: 'true' }).enabled).toBe(false);
    expect(() => loadTracingConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL/);
    expect(() => loadTracingConfig({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(() => loadTracingConfig({ OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
    expect(() => loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'nope' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
  });
});
