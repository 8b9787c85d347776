// The custom scalars of the schema: ID (exact int64 decimals), DateTime and SafeInt.
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { idText, INT64_MAX, type Int64, toInt64 } from '../../rest/json';
import { decodeGlobalId, type GlobalId, looksGlobal } from './global-id';

/**
 * A scalar's refusal of an input value. graphql-js wraps it (adding the expected type and the
 * location) and copies these extensions; the gateway's error masking lets it through unmasked.
 */
export class ScalarInputError extends Error {
  readonly extensions = { code: 'BAD_USER_INPUT' };
}

function badInput(message: string): Error {
  return new ScalarInputError(message);
}

const DECIMAL = /^\d{1,19}$/;
// The `id` of objects named by several service IDs, as answered before global IDs (cache-id.ts).
const JOINED = /^\d{1,19}(?::\d{1,19}){1,3}$/;

/** An ID as a client sends it, read: an Int64, a GlobalId, or undefined when the value is neither. */
function readId(value: unknown): Int64 | GlobalId | undefined {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof text !== 'string') return undefined;
  if (DECIMAL.test(text) && BigInt(text) <= INT64_MAX) return toInt64(text);
  return decodeGlobalId(text);
}

const ID_EXPECTED = 'a non-negative int64 decimal such as "1552747048460091409" or a global ID the gateway answered';

/**
 * An ID as a client sends it: a decimal string or a safe integer → Int64; a global ID the gateway
 * answered → GlobalId (global-id-inputs.ts hands each argument the service ID it stands for);
 * a ScalarInputError otherwise.
 */
export function parseId(value: unknown): Int64 | GlobalId {
  const id = readId(value);
  if (id === undefined) throw badInput(`ID must be ${ID_EXPECTED}, got ${JSON.stringify(value)}`);
  return id;
}

/**
 * A string sent where an ID goes that is neither a service ID nor a global ID. GraphQL's ID takes
 * any string, and an opaque key (`transactionId`) is one; an input that names an object refuses it
 * with its own name (global-id-inputs.ts), so the client learns which argument was wrong.
 */
export class OpaqueId {
  constructor(readonly text: string) {}

  /** Its text: what graphql-jit is handed (jit-variables.ts) and writes into compiled literals. */
  toString(): string {
    return this.text;
  }

  toJSON(): string {
    return this.text;
  }
}

/** Why an ID input that names an object refuses `value`; undefined when it is an ID. */
export function notAnId(value: unknown): string | undefined {
  const text = value instanceof OpaqueId ? value.text : value;
  if (typeof text !== 'string' || readId(text) !== undefined) return undefined;
  return `must be ${ID_EXPECTED}, got ${JSON.stringify(text)}`;
}

function parseIdInput(value: unknown): Int64 | GlobalId | OpaqueId {
  const id = readId(value);
  if (id !== undefined) return id;
  if (typeof value === 'string') return new OpaqueId(value);
  throw badInput(`ID must be a string or an integer, got ${JSON.stringify(value)}`);
}

export const IDScalar = new GraphQLScalarType<Int64 | GlobalId | OpaqueId, string>({
  name: 'ID',
  description:
    'An identifier: an ID of the IM service (a non-negative 64-bit integer written as a decimal string; message IDs ' +
    'exceed 2^53, so never convert an ID to a JavaScript number), or a global ID (an opaque string that `node(id:)` ' +
    'fetches; see the Node interface). Arguments that take a message, conversation, announcement or file ID accept either. ' +
    'An opaque key of type ID (`transactionId`) takes any string its description allows.',
  serialize(value) {
    if (typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value))) return idText(value);
    if (typeof value === 'string' && (DECIMAL.test(value) || JOINED.test(value) || looksGlobal(value))) return value;
    // An opaque key answered as sent (transactionId); a plain string of another shape stays a bug.
    if (value instanceof OpaqueId) return value.text;
    throw new GraphQLError(`ID cannot represent ${String(value)}`);
  },
  parseValue: parseIdInput,
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING || ast.kind === Kind.INT) return parseIdInput(ast.value);
    throw badInput('ID must be a decimal string');
  },
});

/** Milliseconds since the epoch on the resolver side; ISO 8601 on the wire. */
export const DateTimeScalar = new GraphQLScalarType<number, string>({
  name: 'DateTime',
  description: 'A point in time, as an ISO 8601 string in UTC (for example "2026-11-22T09:30:00.000Z").',
  serialize(value) {
    const ms = typeof value === 'bigint' ? Number(value) : value;
    if (typeof ms !== 'number' || !Number.isFinite(ms)) throw new GraphQLError(`DateTime cannot represent ${String(value)}`);
    return new Date(ms).toISOString();
  },
  parseValue(value) {
    const ms = typeof value === 'string' ? Date.parse(value) : NaN;
    if (!Number.isFinite(ms)) throw badInput(`DateTime must be an ISO 8601 string, got ${JSON.stringify(value)}`);
    return ms;
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw badInput('DateTime must be an ISO 8601 string');
    const ms = Date.parse(ast.value);
    if (!Number.isFinite(ms)) throw badInput(`DateTime must be an ISO 8601 string, got ${JSON.stringify(ast.value)}`);
    return ms;
  },
});

function parseSafeInt(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw badInput(`SafeInt must be an integer between -(2^53-1) and 2^53-1, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** int64 quantities (sizes, counts, statistics): refused, never rounded, beyond 2^53. */
export const SafeIntScalar = new GraphQLScalarType<number, number>({
  name: 'SafeInt',
  description: 'An integer between -(2^53-1) and 2^53-1: a 64-bit quantity that JavaScript clients read exactly.',
  serialize(value) {
    const n =
      typeof value === 'bigint' && value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(value)
        : value;
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new GraphQLError(`SafeInt cannot represent ${String(value)} exactly`);
    return n;
  },
  parseValue: parseSafeInt,
  parseLiteral(ast) {
    if (ast.kind !== Kind.INT) throw badInput('SafeInt must be an integer');
    return parseSafeInt(Number(ast.value));
  },
});
