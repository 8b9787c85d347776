// The vocabulary of the endpoint table: what one endpoint is, as data, and the spec's scalar
// types as zod schemas. The client reads the table to place parameters; the emulator reads the
// same table to route and validate, so the two cannot drift apart.
import { z } from 'zod';
import { INT64_MAX, INT64_MIN, type Int64, toInt64 } from './json';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Top-level envelope fields some endpoints return beside `data`. */
export type EnvelopeExtra = 'cursor' | 'total' | 'version' | 'msg_ids';

/** A body that is a bare JSON string (1.17, 1.21), passed to the client under `name`. */
export interface BareStringBody<N extends string = string> {
  readonly kind: 'bare-string';
  readonly name: N;
  readonly schema: z.ZodType<string, string>;
}

/** A body that is a bare JSON array (8.3), passed to the client under `name`. */
export interface ArrayBody<N extends string = string, T extends z.ZodType = z.ZodType> {
  readonly kind: 'array';
  readonly name: N;
  readonly schema: z.ZodArray<T>;
}

/** Phantom marker carrying the TypeScript type of an endpoint's `data`. */
interface DataShape<T> {
  readonly __data?: T;
}

export interface EndpointDef {
  /** Section number in the spec ('2' for the token endpoints, which are unnumbered there). */
  readonly no: string;
  readonly summary: string;
  /** Every method the service accepts; the client sends POST where listed, else the first (placement.ts, sentMethod). */
  readonly methods: readonly [HttpMethod, ...HttpMethod[]];
  readonly path: string;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodObject | BareStringBody | ArrayBody;
  /**
   * The service's own web SDK sends these query parameters as a JSON body instead
   * (spec/upstream-notes.md); the emulator reads either. The client always uses the query.
   */
  readonly queryAlsoInBody?: true;
  /** false for the endpoints marked 'no group_id header' (their group_id is a query parameter). */
  readonly groupIdHeader: boolean;
  /**
   * false for the endpoints marked 'no user_id header' (document 4: 8.1, 8.5, 8.8, 8.10, 8.13,
   * 8.16, whose user_id query parameter names the other user): the admin token cannot act as a
   * user there, so the client refuses a caller with a user_id before any call (client.ts).
   */
  readonly userIdHeader?: false;
  /** 'none': works without an access-token (tokens, registration). 'admin': needs an admin token. */
  readonly auth: 'token' | 'none' | 'admin';
  /** 'binary': the response is the file itself, not an envelope. */
  readonly result: 'json' | 'binary';
  readonly extras: readonly EnvelopeExtra[];
  /**
   * What a call does to the service's state, for request-level caching:
   * 'read' answers the same until something is written (memoizable, even when POSTed);
   * 'write' changes state (all later reads must be fresh); 'issue' hands out something new per
   * call (upload targets, QR signatures, tokens) without changing what reads answer.
   * Default: 'read' for GET, 'write' otherwise.
   */
  readonly effect: 'read' | 'write' | 'issue';
  readonly data: DataShape<unknown>;
}

export const data = <T>(): DataShape<T> => ({});

export function bareString<const N extends string>(name: N): BareStringBody<N> {
  return { kind: 'bare-string', name, schema: z.string({ error: 'expected a string' }) };
}

export function arrayBody<const N extends string, T extends z.ZodType>(name: N, item: T): ArrayBody<N, T> {
  return { kind: 'array', name, schema: z.array(item, { error: 'expected a JSON array' }) };
}

// ---- scalars. Each accepts its JSON form and the string form a URL query carries. ----

/** Whether a value is already in the wire form a schema gives it: then parsing it would give it back unchanged. */
export type WireForm = (value: unknown) => boolean;

const wireForms = new WeakMap<z.ZodType, WireForm>();

/**
 * The plain check of a scalar's wire form, when it has one: the client sends such values as they
 * are, without running zod on every call (anything else still goes through the schema).
 */
export const wireFormOf = (schema: z.ZodType): WireForm | undefined => wireForms.get(schema);

function withWireForm<T extends z.ZodType>(schema: T, isWire: WireForm): T {
  wireForms.set(schema, isWire);
  return schema;
}

const DIGITS = /^-?\d{1,19}$/;

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
// An int64 the transform below returns as it was given: a safe number, or a bigint beyond 2^53 in range.
const isWireInt64 = (v: unknown) =>
  typeof v === 'number'
    ? Number.isSafeInteger(v)
    : typeof v === 'bigint' && v >= INT64_MIN && v <= INT64_MAX && (v < MIN_SAFE || v > MAX_SAFE);

/** An array whose every item (holes too: zod refuses them) passes `isWire`. */
function isWireList(v: unknown, isWire: WireForm): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!isWire(v[i])) return false;
  return true;
}

const int64Schema = z.union([z.number(), z.bigint(), z.string()], { error: 'expected an int64 integer' }).transform((raw, ctx): Int64 => {
  // An unsafe number has already lost digits somewhere; exact int64s travel as bigints or text.
  if (typeof raw === 'number' && !Number.isSafeInteger(raw)) {
    ctx.addIssue({ code: 'custom', message: 'expected an int64 integer (beyond 2^53 send it as a string or bigint)' });
    return z.NEVER;
  }
  if (typeof raw === 'string' && !DIGITS.test(raw)) {
    ctx.addIssue({ code: 'custom', message: 'expected an int64 integer' });
    return z.NEVER;
  }
  const big = BigInt(raw);
  if (big < INT64_MIN || big > INT64_MAX) {
    ctx.addIssue({ code: 'custom', message: 'expected an int64 integer (out of range)' });
    return z.NEVER;
  }
  return toInt64(raw);
});
export const int64 = withWireForm(int64Schema, isWireInt64);

function boundedInt(min: number, max: number, message: string) {
  const schema = z.union([z.number(), z.string()], { error: message }).transform((raw, ctx): number => {
    const value = typeof raw === 'number' ? raw : /^-?\d{1,10}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(value) || value < min || value > max) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return value;
  });
  return withWireForm(schema, (v) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max);
}

export const int32 = boundedInt(-(2 ** 31), 2 ** 31 - 1, 'expected an int32 integer');

/** An int32 restricted to the range the spec gives. */
export const int32In = (min: number, max: number) => boundedInt(min, max, `expected an integer from ${min} to ${max}`);

/** An int32 restricted to the listed codes. */
export const int32Of = (...codes: number[]) => int32.refine((v) => codes.includes(v), { message: `expected one of ${codes.join(', ')}` });

const doubleSchema = z.union([z.number(), z.string()], { error: 'expected a number' }).transform((raw, ctx): number => {
  const value = typeof raw === 'number' ? raw : raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(value)) {
    ctx.addIssue({ code: 'custom', message: 'expected a number' });
    return z.NEVER;
  }
  return value;
});
export const double = withWireForm(doubleSchema, (v) => typeof v === 'number' && Number.isFinite(v));

export const bool = withWireForm(
  z
    .union([z.boolean(), z.enum(['true', 'false'])], { error: 'expected true or false' })
    .transform((raw): boolean => raw === true || raw === 'true'),
  (v) => typeof v === 'boolean',
);

const isString = (v: unknown) => typeof v === 'string';
export const str = withWireForm(z.string({ error: 'expected a string' }), isString);

export const int64List = withWireForm(z.array(int64, { error: 'expected an array of int64 integers' }), (v) => isWireList(v, isWireInt64));
export const strList = withWireForm(z.array(str, { error: 'expected an array of strings' }), (v) => isWireList(v, isString));

// ---- derived types, keyed by endpoint ----

type QueryIn<E> = E extends { query: z.ZodObject } ? z.input<E['query']> : unknown;
type BodyIn<E> = E extends { body: infer B }
  ? B extends BareStringBody
    ? { [K in B['name']]: string }
    : B extends ArrayBody
      ? { [K in B['name']]: z.input<B['schema']> }
      : B extends z.ZodObject
        ? z.input<B>
        : unknown
  : unknown;
type QueryOut<E> = E extends { query: z.ZodObject } ? z.output<E['query']> : unknown;
type BodyOut<E> = E extends { body: infer B }
  ? B extends BareStringBody
    ? { [K in B['name']]: string }
    : B extends ArrayBody
      ? { [K in B['name']]: z.output<B['schema']> }
      : B extends z.ZodObject
        ? z.output<B>
        : unknown
  : unknown;

/** What a caller passes: query and body parameters in one flat object. */
export type ParamsIn<E> = Simplify<QueryIn<E> & BodyIn<E>>;
/** What a handler receives after validation (int64 normalized, booleans parsed). */
export type ParamsOut<E> = Simplify<QueryOut<E> & BodyOut<E>>;
export type DataOf<E> = E extends { data: DataShape<infer T> } ? T : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
