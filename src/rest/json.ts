// JSON that keeps int64 exact. Message IDs run far beyond 2^53, where JSON.parse silently
// rounds them; integers that are not safe come back as bigint, everything else as number.
import { isSafeNumber, parse as losslessParse, stringify as losslessStringify } from 'lossless-json';

/** An int64 as it travels through our code: a number while safe, a bigint beyond 2^53. */
export type Int64 = number | bigint;

const INTEGER = /^-?\d+$/;

function parseNumber(text: string): number | bigint {
  if (INTEGER.test(text) && !isSafeNumber(text)) return BigInt(text);
  return Number(text);
}

/**
 * Whether a parsed value holds a number beyond ±2^53, which JSON.parse may have rounded: below,
 * every integer is exact, and any other number is what the lossless parser makes of it too.
 * Walking the few values of an answer costs less than scanning its text for long digit runs.
 */
function holdsUnsafe(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'number') {
      if (value > Number.MAX_SAFE_INTEGER || value < Number.MIN_SAFE_INTEGER) return true;
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) pending.push(value[i]);
    } else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      for (const key in record) pending.push(record[key]);
    }
  }
  return false;
}

/** Parses JSON text; integers beyond 2^53 keep every digit (as bigint). */
export function parseJson(text: string): unknown {
  // The native parser first: it is exact unless a number came out beyond 2^53.
  const value: unknown = JSON.parse(text);
  return holdsUnsafe(value) ? losslessParse(text, null, parseNumber) : value;
}

/** Serializes to JSON text; bigints are written as plain JSON numbers with every digit. */
export function stringifyJson(value: unknown): string {
  const text = losslessStringify(value);
  // lossless-json answers undefined for a bare undefined; JSON has no such value.
  if (text === undefined) throw new TypeError('cannot serialize undefined as JSON');
  return text;
}

// V8 writes a number beyond 2^31 slowly (0.1-0.4 µs; a small integer in 30 ns), and a request
// turns the same IDs into text many times (loader and cache keys, comparisons): the texts of the
// last IDs seen are kept, the same string each time (its hash computed once for the maps it keys).
const ID_TEXTS = new Map<number, string>();
const ID_TEXTS_MAX = 10_000;

/** The decimal text of an int64, as String(id) writes it. */
export function idText(id: Int64): string {
  if (typeof id === 'bigint') return id.toString();
  let text = ID_TEXTS.get(id);
  if (text === undefined) {
    text = String(id);
    if (ID_TEXTS.size >= ID_TEXTS_MAX) ID_TEXTS.clear();
    ID_TEXTS.set(id, text);
  }
  return text;
}

/** Whether two IDs are the same, however each is held (number, bigint or decimal text). */
export const sameId = (a: Int64 | string, b: Int64 | string): boolean =>
  (typeof a === 'string' ? a : idText(a)) === (typeof b === 'string' ? b : idText(b));

/** Normalizes an int64 to its canonical representation (number when safe, bigint otherwise). */
export function toInt64(value: number | bigint | string): Int64 {
  if (typeof value === 'number') return value;
  const big = typeof value === 'bigint' ? value : BigInt(value);
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
