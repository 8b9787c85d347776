// Opaque idempotency keys (sendMessage/sendNotification `transactionId`, sendPush `requestId`):
// clients send any string of 1-64 characters (a UUID is the usual one). The message endpoints
// want a positive int64 transaction_id, so a key maps to one deterministically: a decimal that
// already is a positive int64 stays itself (keys sent before keys were opaque keep their meaning),
// any other string becomes the first 63 bits of its SHA-256 (0 becomes 1). The same key always
// reaches the service as the same transaction_id, so a retry with it is de-duplicated there.
import { createHash } from 'node:crypto';
import { INT64_MAX, type Int64, toInt64 } from '../../rest/json';
import { badUserInput } from './inputs';

/** Longest key accepted: a UUID (36) with room for a client's own prefix. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 64;

const DECIMAL = /^[0-9]{1,19}$/;
const LOW_63_BITS = (1n << 63n) - 1n;

/** The key as sent, checked (1-64 characters; `field` names it in the refusal); `fresh()` when none was given. */
export function idempotencyKey(field: string, given: string | null | undefined, fresh: () => string): string {
  if (given == null) return fresh();
  if (given.length === 0) throw badUserInput(field, 'must not be empty (omit it and the gateway makes one up)');
  if (given.length > MAX_IDEMPOTENCY_KEY_LENGTH) throw badUserInput(field, `must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  return given;
}

/** The service's int64 transaction_id for a key: the key itself when it is a positive int64 decimal, else its hash. */
export function transactionIdOf(key: string): Int64 {
  if (DECIMAL.test(key)) {
    const n = BigInt(key);
    if (n > 0n && n <= INT64_MAX) return toInt64(n);
  }
  const hashed = createHash('sha256').update(key, 'utf8').digest().readBigUInt64BE(0) & LOW_63_BITS;
  return toInt64(hashed === 0n ? 1n : hashed);
}
