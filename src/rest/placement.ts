// Where each parameter of each endpoint travels (URL query or JSON body), computed once from the
// endpoint table at module load, and the encoding of one call's parameters onto the wire.
import type { z } from 'zod';
import { type EndpointName, endpoints } from './endpoints';
import { stringifyJson } from './json';
import type { BareStringBody, EndpointDef, EnvelopeExtra, HttpMethod } from './table';

export interface Placement {
  readonly name: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly groupIdHeader: boolean;
  readonly binary: boolean;
  /** Top-level envelope fields the endpoint returns beside data. */
  readonly extras: readonly EnvelopeExtra[];
  readonly query?: { readonly keys: ReadonlySet<string>; readonly schema: z.ZodObject };
  readonly body?:
    | { readonly kind: 'object'; readonly keys: ReadonlySet<string>; readonly schema: z.ZodObject }
    | { readonly kind: 'bare-string'; readonly name: string; readonly schema: BareStringBody['schema'] };
}

/** One call's parameters, encoded. `search` is '' or starts with '?'. */
interface Encoded {
  readonly search: string;
  readonly body?: string;
}

function isBareString(body: NonNullable<EndpointDef['body']>): body is BareStringBody {
  return 'kind' in body && body.kind === 'bare-string';
}

function placementOf(name: string, def: EndpointDef): Placement {
  const queryKeys = new Set(def.query ? Object.keys(def.query.shape) : []);
  let body: Placement['body'];
  if (def.body && isBareString(def.body)) {
    body = { kind: 'bare-string', name: def.body.name, schema: def.body.schema };
  } else if (def.body) {
    body = { kind: 'object', keys: new Set(Object.keys(def.body.shape)), schema: def.body };
  }
  const bodyKeys = body?.kind === 'object' ? [...body.keys] : body ? [body.name] : [];
  const clash = bodyKeys.find((key) => queryKeys.has(key));
  // A name in both places could not be routed from one flat params object: a table bug.
  if (clash) throw new Error(`endpoint table: ${name} has '${clash}' in both query and body`);
  return {
    name,
    method: def.methods[0],
    path: def.path,
    groupIdHeader: def.groupIdHeader,
    binary: def.result === 'binary',
    extras: def.extras,
    ...(def.query ? { query: { keys: queryKeys, schema: def.query } } : {}),
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
  const query: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  // for-in over the caller's plain params object: no array of entries per call.
  for (const key in params) {
    const value = params[key];
    if (value === undefined) continue;
    if (p.query?.keys.has(key)) query[key] = value;
    else if (p.body?.kind === 'object' && p.body.keys.has(key)) body[key] = value;
    else if (p.body?.kind === 'bare-string' && p.body.name === key) body[key] = value;
    else throw new TypeError(`${p.name} has no parameter '${key}'`);
  }
  return { search: p.query ? encodeQuery(p.name, normalize(p.query.schema, query)) : '', ...encodeBody(p, body) };
}

function normalize(schema: z.ZodType, value: unknown): unknown {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : value;
}

function encodeQuery(name: string, values: unknown): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
    if (value === undefined) continue;
    search.append(key, queryValue(name, key, value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
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
      return String(value);
    default:
      throw new TypeError(`${name}: query parameter '${key}' must be a string, number, bigint or boolean`);
  }
}

function encodeBody(p: Placement, body: Record<string, unknown>): { body?: string } {
  if (!p.body) return {};
  if (p.body.kind === 'bare-string') {
    const value = body[p.body.name];
    if (value === undefined) throw new TypeError(`${p.name} needs its body parameter '${p.body.name}'`);
    return { body: stringifyJson(normalize(p.body.schema, value)) };
  }
  return { body: stringifyJson(withoutUndefined(normalize(p.body.schema, body))) };
}

// zod keeps an optional key whose value is undefined; drop it rather than rely on the serializer.
function withoutUndefined(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = item;
  return out;
}
