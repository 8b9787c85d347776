// The retry policy: which failures of which calls are tried again, how long it waits, and that a
// caller's abort ends the wait with the caller's reason.
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/rest/errors';
import { backoffMs, retries, retryAfter } from '../../src/rest/retry-policy';

const policy = { retries: 2, baseDelayMs: 100 };
const unreachable = new UpstreamError({ endpoint: 'GET /x', kind: 'unavailable', detail: 'down' });
const http = (status: number) => new UpstreamError({ endpoint: 'GET /x', kind: 'http', httpStatus: status });

describe('retry policy', () => {
  it('retries a GET the upstream did not reach or answered 502, 503 or 504', () => {
    for (const err of [unreachable, http(502), http(503), http(504)]) expect(retries(policy, 'GET', err, 1)).toBe(true);
  });

  it('never retries a write, whatever its failure', () => {
    for (const method of ['POST', 'PUT', 'DELETE'] as const) expect(retries(policy, method, unreachable, 1)).toBe(false);
  });

  it("does not retry the upstream's answers that are not transient, nor an error of ours", () => {
    expect(retries(policy, 'GET', http(500), 1)).toBe(false);
    expect(retries(policy, 'GET', new UpstreamError({ endpoint: 'GET /x', kind: 'timeout' }), 1)).toBe(false);
    expect(retries(policy, 'GET', new TypeError('bug'), 1)).toBe(false);
  });

  it('stops after the configured number of extra attempts', () => {
    expect(retries(policy, 'GET', unreachable, 2)).toBe(true);
    expect(retries(policy, 'GET', unreachable, 3)).toBe(false);
  });

  it('waits a full-jitter delay that doubles its bound with each attempt', () => {
    expect(backoffMs(policy, 1, 0.5)).toBe(50);
    expect(backoffMs(policy, 2, 0.5)).toBe(100);
    expect(backoffMs(policy, 3, 0.999)).toBeLessThan(400);
    expect(backoffMs(policy, 1, 0)).toBe(0);
  });

  it('throws the failure itself when it is final', async () => {
    await expect(retryAfter(policy, 'POST', undefined, unreachable, 1)).rejects.toBe(unreachable);
  });

  it("ends the wait with the caller's reason when the caller aborts", async () => {
    const controller = new AbortController();
    const reason = new Error('caller gone');
    const waiting = retryAfter({ retries: 2, baseDelayMs: 60_000 }, 'GET', controller.signal, unreachable, 1);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });
});
