// Params already in wire form skip zod (table.ts wireFormOf, placement.ts): what goes out must be
// exactly what the schema would have made of them, for every endpoint, and anything else still
// goes through the schema.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoints } from '../../src/rest/endpoints';
import { stringifyJson } from '../../src/rest/json';
import { encodeParams, placement } from '../../src/rest/placement';
import { bool, double, type EndpointDef, int32, int32In, int32Of, int64, int64List, str, strList, wireFormOf } from '../../src/rest/table';

const SAMPLES: unknown[] = [
  0,
  -0,
  7,
  -3,
  1.5,
  2 ** 31,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  5n,
  2n ** 60n,
  -(2n ** 63n),
  2n ** 63n,
  '12',
  '007',
  'true',
  '',
  'a b&c=d/é',
  true,
  false,
  null,
  [],
  [1, 2n ** 60n],
  [1, '2'],
  // eslint-disable-next-line no-sparse-arrays
  [1, , 3],
  ['a', 'b'],
  {},
];

describe('wire forms', () => {
  it('accept a value only when the schema gives it back as it was', () => {
    for (const schema of [int64, int32, int32In(1, 10), double, bool, str, int64List, strList]) {
      const isWire = wireFormOf(schema);
      expect(isWire).toBeDefined();
      for (const value of SAMPLES) {
        if (!isWire!(value)) continue;
        const parsed = schema.safeParse(value);
        expect(parsed.success, `${String(value)}`).toBe(true);
        expect(parsed.data).toStrictEqual(value);
      }
    }
  });

  it('are not inherited by refined schemas', () => {
    expect(wireFormOf(int32Of(1, 2))).toBeUndefined();
    expect(wireFormOf(z.string())).toBeUndefined();
  });

  it("encode every endpoint's params as the schema alone would", () => {
    const zodOnly = (def: EndpointDef, params: Record<string, unknown>) => {
      const split = (schema: z.ZodObject | undefined) => {
        if (!schema) return undefined;
        const own = Object.fromEntries(Object.entries(params).filter(([k]) => k in schema.shape));
        const parsed = schema.safeParse(own);
        return parsed.success ? parsed.data : own;
      };
      return { query: split(def.query), body: def.body && !('kind' in def.body) ? split(def.body as z.ZodObject) : undefined };
    };
    let checked = 0;
    for (const [name, def] of Object.entries(endpoints as Record<string, EndpointDef>)) {
      const p = placement(name);
      if (!p.query?.wire && !(p.body?.kind === 'object' && p.body.wire)) continue;
      for (const pick of [0, 1, 2]) {
        // Params in reverse key order: the schema's order is what goes out.
        const params: Record<string, unknown> = {};
        const keys = [...(p.query?.keys ?? []), ...(p.body?.kind === 'object' ? p.body.keys : [])].reverse();
        for (const key of keys) params[key] = sampleFor(def, key, pick);
        const encoded = encodeParams(p, params);
        const expected = zodOnly(def, params);
        if (expected.query !== undefined) {
          const search = new URLSearchParams();
          for (const [k, v] of Object.entries(expected.query as Record<string, unknown>)) if (v !== undefined) search.append(k, String(v));
          const text = search.toString();
          expect(encoded.search, name).toBe(text === '' ? '' : `?${text}`);
        }
        if (expected.body !== undefined) {
          const body = Object.fromEntries(Object.entries(expected.body as Record<string, unknown>).filter(([, v]) => v !== undefined));
          expect(encoded.body, name).toBe(stringifyJson(body));
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });
});

/** A value for one param: in wire form (pick 0), a form zod converts (1), or one it refuses (2). */
function sampleFor(def: EndpointDef, key: string, pick: number): unknown {
  const shape = { ...def.query?.shape, ...(def.body && !('kind' in def.body) ? (def.body as z.ZodObject).shape : {}) } as Record<
    string,
    z.ZodType
  >;
  const field = shape[key]!;
  const inner = field instanceof z.ZodOptional ? field.unwrap() : field;
  const forms: Record<string, unknown[]> = {
    int64: [3000000000002, '3000000000002', 'x'],
    int: [5, '5', 'five'],
    double: [1.5, '1.5', 'x'],
    bool: [true, 'true', 'yes'],
    str: ['c1 /+', 'c1', 5],
    int64List: [[1, 2n ** 60n], ['1', '2'], 'x'],
    strList: [['a', 'b c'], ['a'], [1]],
  };
  const kind =
    inner === int64
      ? 'int64'
      : inner === double
        ? 'double'
        : inner === bool
          ? 'bool'
          : inner === str
            ? 'str'
            : inner === int64List
              ? 'int64List'
              : inner === strList
                ? 'strList'
                : 'int';
  return forms[kind]![pick];
}
