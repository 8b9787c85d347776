// Where each parameter of each endpoint travels (URL query or JSON body), computed once from the
// endpoint table at module load, and the encoding of one call's parameters onto the wire.
import { z } from 'zod';
import { type EndpointName, endpoints } from './endpoints';
import { idText, stringifyJson } from './json';
import {
  type ArrayBody,
  type BareStringBody,
  type EndpointDef,
  type EnvelopeExtra,
  type HttpMethod,
  type WireForm,
  wireFormOf,
} from './table';

/** Each key of an object schema with the check of its wire form, in the schema's order (zod's output order). */
type WirePlan = readonly (readonly [key: string, isWire: WireForm])[];

export interface Placement {
  readonly name: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly groupIdHeader: boolean;
  /** Whether the endpoint takes the user_id header (an admin token acting as a user). */
  readonly userIdHeader: boolean;
  readonly binary: boolean;
  /** Whether the service checks the access-token (an answer proves it); endpoints open to anyone answer a made-up one too. */
  readonly checksToken: boolean;
  /** Top-level envelope fields the endpoint returns beside data. */
  readonly extras: readonly EnvelopeExtra[];
  /** `wire`: set when every key's schema has a wire form (table.ts), so that valid params skip zod. */
  readonly query?: { readonly keys: ReadonlySet<string>; readonly schema: z.ZodObject; readonly wire: WirePlan | undefined };
  readonly body?:
    | { readonly kind: 'object'; readonly keys: ReadonlySet<string>; readonly schema: z.ZodObject; readonly wire: WirePlan | undefined }
    | { readonly kind: 'bare-string'; readonly name: string; readonly schema: BareStringBody['schema'] }
    | { readonly kind: 'array'; readonly name: string; readonly schema: ArrayBody['schema'] };
}

/** One call's parameters, encoded. `search` is '' or starts with '?'. */
interface Encoded {
  readonly search: string;
  readonly body?: string;
}

/**
 * The method the client sends: POST wherever the service lists it beside PUT or DELETE, as the
 * service's own clients do (spec/upstream-notes.md), so that no DELETE carries a body that POST
 * could; otherwise the one method listed.
 */
export const sentMethod = (def: Pick<EndpointDef, 'methods'>): HttpMethod => (def.methods.includes('POST') ? 'POST' : def.methods[0]);

/** The object's wire plan; undefined when a key has no wire form or the object checks more than its keys. */
function wirePlanOf(schema: z.ZodObject): WirePlan | undefined {
  if (schema._zod.def.checks?.length) return undefined;
  const plan: (readonly [string, WireForm])[] = [];
  for (const [key, field] of Object.entries(schema.shape)) {
    const isWire = wireFormOf(field instanceof z.ZodOptional ? field.unwrap() : field);
    if (!isWire) return undefined;
    plan.push([key, isWire]);
  }
  return plan;
}

function placementOf(name: string, def: EndpointDef): Placement {
  const queryKeys = new Set(def.query ? Object.keys(def.query.shape) : []);
  let body: Placement['body'];
  if (def.body && 'kind' in def.body) {
    body = def.body.kind === 'array' ? { ...def.body } : { kind: 'bare-string', name: def.body.name, schema: def.body.schema };
  } else if (def.body) {
    body = { kind: 'object', keys: new Set(Object.keys(def.body.shape)), schema: def.body, wire: wirePlanOf(def.body) };
  }
  const bodyKeys = body?.kind === 'object' ? [...body.keys] : body ? [body.name] : [];
  const clash = bodyKeys.find((key) => queryKeys.has(key));
  // A name in both places could not be routed from one flat params object: a table bug.
  if (clash) throw new Error(`endpoint table: ${name} has '${clash}' in both query and body`);
  return {
    name,
    method: sentMethod(def),
    path: def.path,
    groupIdHeader: def.groupIdHeader,
    userIdHeader: def.userIdHeader !== false,
    binary: def.result === 'binary',
    checksToken: def.auth !== 'none',
    extras: def.extras,
    ...(def.query ? { query: { keys: queryKeys, schema: def.query, wire: wirePlanOf(def.query) } } : {}),
    ...(body ? { body } : {}),
  };
}

const PLACEMENTS: ReadonlyMap<string, Placement> = new Map(
  Object.entries(endpoints as Record<string, EndpointDef>).map(([name, def]) => [name, placementOf(name, def)]),
);

export function placement(name: EndpointName | string): Placement {
  const found = PLACEMENTS.get(name);
  if (!found) throw new TypeError(`unknown endpoint '${name}'`);
  return found;
}

/**
 * Splits flat params into query and body and encodes both. Values are first normalized to the wire
 * types the table declares (an int64 given as a decimal string goes out as a JSON number, a boolean
 * given as 'true' as true); params the schema refuses go out unchanged, so that the upstream's own
 * validation answers them (10002 naming the field) rather than an error of ours.
 */
export function encodeParams(p: Placement, params: Readonly<Record<string, unknown>>): Encoded {
  // Only the parts the endpoint has are made.
  const query: Record<string, unknown> | undefined = p.query && {};
  const body: Record<string, unknown> | undefined = p.body && {};
  // for-in over the caller's plain params object: no array of entries per call.
  for (const key in params) {
    const value = params[key];
    if (value === undefined) continue;
    if (query && p.query?.keys.has(key)) query[key] = value;
    else if (body && p.body?.kind === 'object' && p.body.keys.has(key)) body[key] = value;
    else if (body && p.body?.kind !== 'object' && p.body?.name === key) body[key] = value;
    else throw new TypeError(`${p.name} has no parameter '${key}'`);
  }
  const search = query && p.query ? encodeQuery(p.name, p.query, query) : '';
  return body ? { search, body: encodeBody(p, body) } : { search };
}

function normalize(schema: z.ZodType, value: unknown): unknown {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : value;
}

/** The object as its schema gives it: built here when every value is in wire form already, else parsed by zod. */
function normalizeObject(
  to: { readonly schema: z.ZodObject; readonly wire: WirePlan | undefined },
  values: Record<string, unknown>,
): unknown {
  return (to.wire && wireValues(to.wire, values)) ?? normalize(to.schema, values);
}

/** `values` in the schema's key order, when each is in wire form; undefined when one is not (zod decides). */
function wireValues(plan: WirePlan, values: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, isWire] of plan) {
    const value = values[key];
    if (value === undefined) continue;
    if (!isWire(value)) return undefined;
    out[key] = value;
  }
  return out;
}

// What application/x-www-form-urlencoded (URLSearchParams) leaves as it is.
const FORM_SAFE = /^[\w*.-]*$/;

/** The text as URLSearchParams writes it: most keys and values need no escaping at all. */
const formEncoded = (text: string) => (FORM_SAFE.test(text) ? text : new URLSearchParams([['', text]]).toString().slice(1));

/** '' or `?` and the query parameters, normalized as the schema gives them. */
function encodeQuery(name: string, to: NonNullable<Placement['query']>, values: Record<string, unknown>): string {
  // Values in wire form are written straight from the caller's object, in the schema's order.
  if (to.wire) {
    const search = wireSearch(name, to.wire, values);
    if (search !== undefined) return search;
  }
  let search = '';
  const record = normalize(to.schema, values) as Record<string, unknown>;
  for (const key in record) search = appended(search, name, key, record[key]);
  return search;
}

/** The query text, when each value is in wire form; undefined when one is not (zod decides). */
function wireSearch(name: string, plan: WirePlan, values: Readonly<Record<string, unknown>>): string | undefined {
  let search = '';
  for (const [key, isWire] of plan) {
    const value = values[key];
    if (value === undefined) continue;
    if (!isWire(value)) return undefined;
    search = appended(search, name, key, value);
  }
  return search;
}

/** `search` with `key=value` added (nothing for an undefined value). */
function appended(search: string, name: string, key: string, value: unknown): string {
  if (value === undefined) return search;
  return `${search === '' ? '?' : `${search}&`}${formEncoded(key)}=${formEncoded(queryValue(name, key, value))}`;
}

function queryValue(name: string, key: string, value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'number':
      // IDs recur: their text is kept (json.ts).
      return Number.isSafeInteger(value) ? idText(value) : String(value);
    default:
      throw new TypeError(`${name}: query parameter '${key}' must be a string, number, bigint or boolean`);
  }
}

function encodeBody(p: Placement, body: Record<string, unknown>): string | undefined {
  if (!p.body) return undefined;
  if (p.body.kind !== 'object') {
    const value = body[p.body.name];
    if (value === undefined) throw new TypeError(`${p.name} needs its body parameter '${p.body.name}'`);
    if (p.body.kind === 'array') {
      const items = normalize(p.body.schema, value);
      return stringifyJson(Array.isArray(items) ? items.map(withoutUndefined) : items);
    }
    return stringifyJson(typeof value === 'string' ? value : normalize(p.body.schema, value));
  }
  return stringifyJson(withoutUndefined(normalizeObject(p.body, body)));
}

// zod keeps an optional key whose value is undefined; drop it rather than rely on the serializer.
function withoutUndefined(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = item;
  return out;
}
