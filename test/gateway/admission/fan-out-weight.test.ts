// Issue 40: admission counted one sendFriendRequests with a 240 KB message × 1,000 users as one
// REST call, while it built a 240 MB upstream body. Its weight is now what it will make: the
// calls, and the bytes it copies per recipient (a call's worth per UPSTREAM_BYTES_PER_CALL).
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { UPSTREAM_BYTES_PER_CALL, weightOf } from '../../../src/gateway/admission/admission';
import { estimateCost } from '../../../src/gateway/execution/cost-estimate';
import { schema } from '../../../src/schema';

const FRIEND_REQUESTS =
  'mutation ($ids: [ID!]!, $message: String) { sendFriendRequests(input: { userIds: $ids, message: $message }) { ok } }';
const ids = (n: number) => Array.from({ length: n }, (_, i) => String(3_000_000_000_000 + i));
const estimate = (query: string, variables: Record<string, unknown>) => estimateCost(schema, parse(query), undefined, variables);

describe('the admission weight of a fan-out', () => {
  it('is the bytes of the copies it would build: 1,000 users × 240 KB weighs thousands of calls, not one', () => {
    const message = 'x'.repeat(240 * 1024);
    const work = estimate(FRIEND_REQUESTS, { ids: ids(1000), message });
    expect(work.calls).toBe(1);
    // Each entry copies the message, plus its own few bytes.
    expect(work.upstreamBytes).toBeGreaterThanOrEqual(1000 * message.length);
    expect(work.upstreamBytes).toBeLessThan(1000 * (message.length + 100));
    expect(weightOf(work)).toBe(1 + Math.ceil(work.upstreamBytes / UPSTREAM_BYTES_PER_CALL));
    expect(weightOf(work)).toBeGreaterThan(3_700);
  });

  it('counts every alias, and the literal input as the variables', () => {
    const aliased = `mutation { a: sendFriendRequests(input: { userIds: ["1", "2"], message: "${'m'.repeat(1000)}" }) { ok } b: sendFriendRequests(input: { userIds: ["3"], message: "${'m'.repeat(1000)}" }) { ok } }`;
    const work = estimate(aliased, {});
    expect(work.upstreamBytes).toBeGreaterThanOrEqual(3 * 1000);
    expect(work.calls).toBe(2);
  });

  it('leaves an ordinary operation its calls alone', () => {
    const small = estimate(FRIEND_REQUESTS, { ids: ids(3), message: 'hello' });
    expect(weightOf(small)).toBe(small.calls + 1);
    expect(weightOf(estimate('{ me { id } }', {}))).toBe(1);
    expect(estimate('{ me { id } }', {}).upstreamBytes).toBe(0);
  });
});
