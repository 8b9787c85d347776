// Trace and span IDs from a pool of random bytes, refilled from the system's generator 4 KiB at a
// time: the SDK's own generator costs about 2% of a `me` request's CPU when every request starts
// a trace (bench/RESULTS.md, "Tracing's cost"); this one a string slice of a buffer.
import { randomFillSync } from 'node:crypto';
import type { IdGenerator } from '@opentelemetry/sdk-trace';

const pool = Buffer.alloc(4096);
let at = pool.length;

function randomHex(bytes: number): string {
  if (at + bytes > pool.length) {
    randomFillSync(pool);
    at = 0;
  }
  const hex = pool.toString('hex', at, at + bytes);
  at += bytes;
  return hex;
}

export const randomIds: IdGenerator = {
  generateTraceId: () => randomHex(16),
  generateSpanId: () => randomHex(8),
};
