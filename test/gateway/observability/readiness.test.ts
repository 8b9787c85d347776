// /ready follows the REST calls the gateway makes: not ready only when the last N all failed with
// 5xx or no connection within the window; a slow service, a business error or stale failures
// leave it ready.
import { describe, expect, it } from 'vitest';
import { createReadiness } from '../../../src/gateway/observability/readiness';
import type { CallInfo } from '../../../src/rest/client';
import { gatewayOver } from '../../helpers/scripted-gateway';
import { envelope, failure } from '../../helpers/scripted-server';

const call = (extra: Partial<CallInfo>): CallInfo => ({
  endpoint: 'GET /user/profile',
  method: 'GET',
  path: '/user/profile',
  ms: 5,
  attempt: 1,
  ...extra,
});
const down = call({ error: 'unavailable' });
const http500 = call({ status: 500, error: 'http' });

describe('readiness record', () => {
  const make = () => {
    let clock = 1_000_000;
    const r = createReadiness({ failedCalls: 3, windowMs: 10_000, now: () => clock });
    return { r, advance: (ms: number) => (clock += ms) };
  };

  it('is ready before any call and until N calls in a row failed', () => {
    const { r } = make();
    expect(r.problem()).toBeUndefined();
    r.record(down);
    r.record(http500);
    expect(r.problem()).toBeUndefined();
    r.record(down);
    expect(r.problem()).toMatch(/last 3 calls .* failed/);
  });

  it('is ready again after one answered call, a 4xx or business error included', () => {
    const { r } = make();
    for (let i = 0; i < 5; i++) r.record(down);
    r.record(call({ status: 404, error: 'http' }));
    expect(r.problem()).toBeUndefined();
    for (let i = 0; i < 3; i++) r.record(http500);
    r.record(call({ status: 200, error: 'envelope' }));
    expect(r.problem()).toBeUndefined();
  });

  it('counts a timeout neither way: slow is not down', () => {
    const { r } = make();
    for (let i = 0; i < 10; i++) r.record(call({ error: 'timeout' }));
    expect(r.problem()).toBeUndefined();
    r.record(down);
    r.record(down);
    r.record(call({ error: 'timeout' }));
    r.record(down);
    expect(r.problem()).toBeDefined();
  });

  it('forgets failures older than the window, so a replica out of rotation comes back to try', () => {
    const { r, advance } = make();
    for (let i = 0; i < 3; i++) r.record(down);
    advance(10_001);
    expect(r.problem()).toBeUndefined();
    // Two fresh failures and one stale one are not N within the window.
    r.record(down);
    r.record(down);
    expect(r.problem()).toBeUndefined();
    r.record(down);
    expect(r.problem()).toBeDefined();
  });
});

describe('/ready over a scripted service', () => {
  it('answers 503 naming the cause once every call fails with 5xx, and 200 after the service answers again', async () => {
    const g = await gatewayOver(() => ({ status: 500, body: 'down' }), {});
    try {
      expect((await g.ready()).status).toBe(200);
      for (let i = 0; i < 3; i++) await g.query();
      expect(await g.ready()).toEqual({ status: 503, text: expect.stringContaining('last 3 calls to the IM service failed') });
      g.service.setScript(() => failure(10003, 'token invalid'));
      await g.query();
      expect((await g.ready()).status).toBe(200);
    } finally {
      await g.stop();
    }
  });

  it('answers on its own path only, with or without a query string: a path merely ending in /ready is not found', async () => {
    const g = await gatewayOver(() => envelope({ user_id: 1 }), {});
    try {
      expect((await fetch(`${g.origin}/ready`)).status).toBe(200);
      expect((await fetch(`${g.origin}/ready?probe=1`)).status).toBe(200);
      expect((await fetch(`${g.origin}/graphql/ready`)).status).toBe(404);
      expect((await fetch(`${g.origin}/not-ready`)).status).toBe(404);
    } finally {
      await g.stop();
    }
  });

  it('stays ready while the service is merely slow (calls time out)', async () => {
    // Answers well after the limit: every call times out.
    const g = await gatewayOver(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 600));
        return envelope({ user_id: 1 });
      },
      { IM_CALL_TIMEOUT_MS: '150' },
    );
    try {
      const replies = await Promise.all([g.query(), g.query(), g.query()]);
      for (const reply of replies) expect(reply.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
      expect((await g.ready()).status).toBe(200);
    } finally {
      await g.stop();
    }
  });
});
