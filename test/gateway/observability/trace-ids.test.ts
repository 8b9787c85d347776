// Trace and span IDs drawn from the pooled random bytes: the W3C forms (32 and 16 lowercase hex
// digits), and no repeats across many pool refills.
import { describe, expect, it } from 'vitest';
import { randomIds } from '../../../src/gateway/observability/tracing/ids';

describe('random trace and span IDs', () => {
  it('are lowercase hex of 16 and 8 bytes, never all zeros', () => {
    for (let i = 0; i < 1000; i++) {
      expect(randomIds.generateTraceId()).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
      expect(randomIds.generateSpanId()).toMatch(/^(?!0{16})[0-9a-f]{16}$/);
    }
  });

  it('do not repeat across refills of the pool', () => {
    const seen = new Set<string>();
    // 20,000 trace IDs are 320 KB of random bytes: about 80 refills of the 4 KiB pool.
    for (let i = 0; i < 20_000; i++) seen.add(randomIds.generateTraceId());
    expect(seen.size).toBe(20_000);
  });
});
