// The endpoint table against the spec facts in test/helpers/spec-endpoints.json (written from the
// REST spec, documents 1-5, by `npm run spec:extract`): the list of endpoints and, per endpoint, its
// parameters' places, types, ranges and required/optional markers, the shape of its body (object,
// bare string or JSON array) and the group_id header rule. Each test collects every offending
// endpoint and compares the list with [], so one run names all of them.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoints } from '../../src/rest/endpoints';
import type { EndpointDef } from '../../src/rest/table';
import { readSpecFixture, type FixtureEndpoint, type FixtureParam } from '../helpers/spec-fixture';

const table: Readonly<Record<string, EndpointDef>> = endpoints;
const entries = Object.entries(table);
const fixture = readSpecFixture();
const spec = fixture.endpoints;

const ENDPOINTS = 135;

const label = (e: { no: string; methods: readonly string[]; path: string }) => `${e.no} ${e.methods.join(',')} ${e.path}`;
const sameMethods = (a: readonly string[], b: readonly string[]) => a.join(',') === b.join(',');

/** The table entry of a spec endpoint: same path, same methods in the same order. */
function entryOf(e: { methods: readonly string[]; path: string }): [string, EndpointDef] | undefined {
  return entries.find(([, def]) => def.path === e.path && sameMethods(def.methods, e.methods));
}

/** The table's body when it is a JSON object (not a bare string or an array). */
const objectBody = (def: EndpointDef | undefined): z.ZodObject | undefined => (def?.body && !('kind' in def.body) ? def.body : undefined);

type BodyKind = 'none' | 'object' | 'bare-string' | 'array';

function specBodyKind(e: FixtureEndpoint): BodyKind {
  if (e.bareStringBody) return 'bare-string';
  if (e.arrayBody) return 'array';
  return e.params.some((p) => p.place === 'body') ? 'object' : 'none';
}

function tableBodyKind(def: EndpointDef): BodyKind {
  if (!def.body) return 'none';
  if ('kind' in def.body) return def.body.kind;
  return Object.keys(def.body.shape).length > 0 ? 'object' : 'none';
}

/** The spec's parameters of one endpoint by place (the body's are those of a JSON object body). */
function expectedOf(e: FixtureEndpoint): { query: FixtureParam[]; body: FixtureParam[] } {
  return { query: e.params.filter((p) => p.place === 'query'), body: e.params.filter((p) => p.place === 'body') };
}

/** Keys a parse of {} complains about: the required ones. */
function requiredKeys(schema: z.ZodObject): Set<string> {
  const result = schema.safeParse({});
  return new Set(result.success ? [] : result.error.issues.filter((i) => i.path.length === 1).map((i) => String(i.path[0])));
}

/** The object schema of the elements of an (optional) array field, if it is one. */
function elementObject(field: z.core.$ZodType | undefined): z.ZodObject | undefined {
  const inner = field instanceof z.ZodOptional ? field.unwrap() : field;
  return inner instanceof z.ZodArray && inner.element instanceof z.ZodObject ? inner.element : undefined;
}

// Values a schema of each spec type must accept and must refuse. No accepting probe for int32 and
// string: their code lists and enums rightly refuse any fixed value; the refusals still tell them
// apart from the other types.
const MSG_ID = '1552747048460091409';
const TYPE_PROBES: Readonly<Record<string, { accepts: readonly unknown[]; refuses: readonly unknown[] }>> = {
  int64: { accepts: [MSG_ID, 2000000000001], refuses: ['abc', 1.5] },
  int32: { accepts: [], refuses: ['abc', 1.5, 2 ** 31] },
  string: { accepts: [], refuses: [5, true] },
  boolean: { accepts: [true, false], refuses: ['abc', 1] },
  double: { accepts: [1.5], refuses: ['abc'] },
  'array of int64': { accepts: [[MSG_ID]], refuses: [['abc'], MSG_ID] },
  'array of string': { accepts: [['a']], refuses: [[5], 'a'] },
  'array of object': { accepts: [[]], refuses: [[5], 'a'] },
};

/** The probes of a parameter: those of its type and, where the spec states a range, its bounds and their neighbours. */
function probesOf(p: FixtureParam): { accepts: readonly unknown[]; refuses: readonly unknown[] } | undefined {
  const probe = p.type === null ? undefined : TYPE_PROBES[p.type];
  if (!probe || !p.range) return probe;
  const [min, max] = p.range;
  return { accepts: [...probe.accepts, min, max], refuses: [...probe.refuses, min - 1, max + 1] };
}

function typeProblem(field: z.core.$ZodType, p: FixtureParam): string | undefined {
  const probe = probesOf(p);
  if (!probe) return undefined;
  const accepts = (v: unknown) => z.safeParse(field, v).success;
  const show = (v: unknown) => JSON.stringify(v);
  const refused = probe.accepts.find((v) => !accepts(v));
  if (refused !== undefined) return `refuses ${show(refused)}`;
  const accepted = probe.refuses.find((v) => accepts(v));
  return accepted === undefined ? undefined : `accepts ${show(accepted)}`;
}

const typeText = (p: FixtureParam) => `${p.type ?? ''}${p.range ? ` ${p.range[0]}-${p.range[1]}` : ''}`;

/**
 * Compares one place (query, body, or array elements) by name and by required/optional marker.
 * `otherPlace` holds the names the table keeps in the other place, to say where a missing one went.
 */
function compareParams(
  where: string,
  specParams: readonly FixtureParam[],
  schema: z.ZodObject | undefined,
  otherPlace: ReadonlySet<string> = new Set(),
) {
  const names = new Set(Object.keys(schema?.shape ?? {}));
  const required = schema ? requiredKeys(schema) : new Set<string>();
  const missing = specParams
    .filter((p) => !names.has(p.name))
    .map((p) => `${where}: missing '${p.name}'${otherPlace.has(p.name) ? ' (the table has it in the other place)' : ''}`);
  const extra = [...names].filter((n) => !specParams.some((p) => p.name === n)).map((n) => `${where}: '${n}' not in the spec`);
  const wrongRequired = specParams
    .filter((p) => names.has(p.name) && p.required === true && !required.has(p.name))
    .map((p) => `${where}: '${p.name}' is required in the spec but optional in the table`);
  const wrongType = specParams.flatMap((p) => {
    const field = schema?.shape[p.name];
    const problem = field && typeProblem(field, p);
    return problem ? [`${where}: '${p.name}' is ${typeText(p)} in the spec, but the table ${problem}`] : [];
  });
  const wrongOptional = specParams
    .filter((p) => names.has(p.name) && p.required === false && required.has(p.name))
    .map((p) => `${where}: '${p.name}' is optional in the spec but required in the table`);
  return { missing, extra, wrongRequired, wrongOptional, wrongType };
}

/** Every comparison of every spec endpoint, computed once; the tests below each assert one kind. */
const noProblems = (): ReturnType<typeof compareParams> => ({
  missing: [],
  extra: [],
  wrongRequired: [],
  wrongOptional: [],
  wrongType: [],
});
const comparisons = spec.map((e) => {
  const def = entryOf(e)?.[1];
  const expected = expectedOf(e);
  const name = label(e);
  if (!def) {
    // Reported once here; the endpoints.tsv tests above say more.
    return {
      e,
      def,
      query: { ...noProblems(), missing: [`${name}: no table entry`] },
      body: noProblems(),
      bodyShape: [],
      itemResults: [],
      arrayItems: noProblems(),
    };
  }
  const bodySchema = objectBody(def);
  const queryNames = new Set(Object.keys(def.query?.shape ?? {}));
  const query = compareParams(`${name} query`, expected.query, def.query, new Set(Object.keys(bodySchema?.shape ?? {})));
  const body = compareParams(`${name} body`, expected.body, bodySchema, queryNames);
  const bodyShape = bodyShapeProblems(name, e, def);
  // Array elements described in braces ({avatar string required, ...}).
  const itemResults = expected.body
    .filter((p) => p.items)
    .map((p) => compareParams(`${name} body ${p.name}[]`, p.items ?? [], elementObject(bodySchema?.shape[p.name])));
  // The items of a body that is itself an array (8.3).
  const arrayItems =
    e.arrayBody && def.body && 'kind' in def.body && def.body.kind === 'array'
      ? compareParams(`${name} body[]`, e.arrayBody.items, elementObject(def.body.schema))
      : noProblems();
  return { e, def, query, body, bodyShape, itemResults, arrayItems };
});

/** The body's shape (none, object, bare string, array) as the spec gives it; a bare string or array body is required. */
function bodyShapeProblems(name: string, e: FixtureEndpoint, def: EndpointDef): string[] {
  const spec = specBodyKind(e);
  const table = tableBodyKind(def);
  if (spec !== table) return [`${name}: the spec's body is ${spec}, the table's is ${table}`];
  const required = e.bareStringBody ? true : e.arrayBody?.required;
  if (required === undefined || !def.body || !('kind' in def.body)) return [];
  const probe = e.bareStringBody ? 'x' : [];
  const schema: z.ZodType = def.body.schema;
  if (schema.safeParse(undefined).success !== !required || !schema.safeParse(probe).success) {
    return [`${name}: the ${spec} body must be a ${required ? 'required' : 'optional'} ${spec}`];
  }
  return [];
}

const collect = (pick: (c: (typeof comparisons)[number]) => string[]) => comparisons.flatMap(pick);

describe('the endpoint table lists exactly the endpoints of endpoints.tsv', () => {
  it(`reads ${ENDPOINTS} endpoints from the fixture (documents 1-5)`, () => {
    expect(spec).toHaveLength(ENDPOINTS);
  });

  it('has one entry per row, with the same path and the same methods in the same order', () => {
    const problems = spec.flatMap((row) => {
      const matches = entries.filter(([, def]) => def.path === row.path && sameMethods(def.methods, row.methods));
      return matches.length === 1 ? [] : [`${label(row)}: ${matches.length} entries`];
    });
    expect(problems).toEqual([]);
  });

  it(`has no entry beyond those rows (${ENDPOINTS} entries)`, () => {
    const invented = entries
      .filter(([, def]) => !spec.some((row) => row.path === def.path && sameMethods(row.methods, def.methods)))
      .map(([key]) => key);
    expect(invented).toEqual([]);
    expect(entries).toHaveLength(ENDPOINTS);
  });

  it('keys every entry as its first method and its path', () => {
    const badKeys = entries.filter(([key, def]) => key !== `${def.methods[0]} ${def.path}`).map(([key]) => key);
    expect(badKeys).toEqual([]);
  });

  it('claims no (method, path) pair twice', () => {
    const owners = new Map<string, string[]>();
    for (const [key, def] of entries) {
      for (const method of def.methods) owners.set(`${method} ${def.path}`, [...(owners.get(`${method} ${def.path}`) ?? []), key]);
    }
    const twice = [...owners].filter(([, keys]) => keys.length > 1).map(([pair, keys]) => `${pair}: ${keys.join(' and ')}`);
    expect(twice).toEqual([]);
  });

  it('gives each entry the section number of its endpoints.tsv row', () => {
    const wrong = spec.flatMap((row) => {
      const def = entryOf(row)?.[1];
      return def && def.no !== row.no ? [`${label(row)}: table says ${def.no}`] : [];
    });
    expect(wrong).toEqual([]);
  });
});

describe('parameter places follow the spec tables', () => {
  it('puts every query parameter of the spec into the query, and every body parameter into the body', () => {
    expect(collect((c) => [...c.query.missing, ...c.body.missing])).toEqual([]);
  });

  it('has no query or body parameter the spec does not list for that place', () => {
    expect(collect((c) => [...c.query.extra, ...c.body.extra])).toEqual([]);
  });

  it('gives every endpoint the body shape of the spec (none, JSON object, bare string or JSON array)', () => {
    expect(collect((c) => c.bodyShape)).toEqual([]);
  });

  it('sends the bodies of /user/private and /user/public as a bare required string, and no other', () => {
    const bare = spec.filter((e) => e.bareStringBody).map((e) => e.path);
    expect(bare).toEqual(['/user/private', '/user/public']);
  });

  it('sends the body of 8.3 as a required JSON array whose items have the fields the spec lists, and no other body', () => {
    expect(spec.filter((e) => e.arrayBody).map((e) => `${e.no} ${e.arrayBody?.required ? 'required' : 'optional'}`)).toEqual([
      '8.3 required',
    ]);
    expect(spec.find((e) => e.no === '8.3')?.arrayBody?.items.map((p) => p.name)).toEqual(['user_id', 'reason', 'alias']);
    const c = comparisons.find((x) => x.e.no === '8.3');
    const problems = c ? Object.values(c.arrayItems).flat() : ['8.3: no comparison'];
    expect(problems).toEqual([]);
  });

  it("gives 5.4, 5.6 and 9.1 the fields of document 5's send-body table, and 7.2 the top-level fields of the push-body table", () => {
    const refs = spec.filter((e) => e.bodyFrom).map((e) => `${e.no} ${e.bodyFrom ?? ''}`);
    expect(refs).toEqual(['5.4 send-body', '5.6 send-body', '7.2 push-body', '9.1 send-body']);
    // The fields themselves are compared by the place, type and marker tests; here: the right tables were read.
    const bodyOf = (no: string) => spec.find((e) => e.no === no)?.params.filter((p) => p.place === 'body');
    const brief = (p: FixtureParam) => `${p.name}${p.required ? '!' : '?'}${p.range ? ` ${p.range[0]}-${p.range[1]}` : ''}`;
    const send = ['content_type! 0-12', 'content!', 'attachment?', 'targets!', 'type! 1-2', 'from_user_id?'];
    const added = ['config?', 'ext?', 'transaction_id?', 'online_only?', 'related_mid?'];
    for (const no of ['5.4', '5.6', '9.1']) expect(bodyOf(no)?.map(brief), no).toEqual([...send, ...added]);
    expect(bodyOf('5.8')?.map(brief)).toEqual(['content_type! 0-6', 'type! 1-1', 'content?', 'attachment?', 'config?', 'ext?']);
    expect(bodyOf('7.2')?.map((p) => p.name)).toEqual(['audience', 'setting', 'message']);
  });

  it('gives the setting and message objects of the push body exactly the fields the push-body table lists', () => {
    const body = objectBody(table['POST /push/notify']);
    const problems = Object.entries(fixture.pushBodyChildren).flatMap(([parent, children]) => {
      const field = body?.shape[parent];
      const inner = field instanceof z.ZodOptional ? field.unwrap() : field;
      if (!(inner instanceof z.ZodObject)) return [`push body: '${parent}' is not an object`];
      const keys = Object.keys(inner.shape);
      return [
        ...children.filter((c) => !keys.includes(c)).map((c) => `push body: missing '${parent}.${c}'`),
        ...keys.filter((k) => !children.includes(k)).map((k) => `push body: '${parent}.${k}' not in the spec`),
      ];
    });
    expect(problems).toEqual([]);
  });

  it('gives the array elements of the batch bodies (1.3, 1.20, 1.32) the fields listed in braces', () => {
    const withItems = comparisons.filter((c) => c.itemResults.length > 0).map((c) => c.e.no);
    expect(withItems).toEqual(['1.3', '1.20', '1.32']);
    const problems = collect((c) => c.itemResults.flatMap((r) => Object.values(r).flat()));
    expect(problems).toEqual([]);
  });

  it("omits the group_id header exactly on the endpoints marked 'no group_id header'", () => {
    const wrong = comparisons
      .filter((c) => c.def && c.def.groupIdHeader !== c.e.groupIdHeader)
      .map(
        (c) =>
          `${label(c.e)}: spec ${c.e.groupIdHeader ? 'allows' : 'omits'} the header, table says groupIdHeader: ${String(c.def?.groupIdHeader)}`,
      );
    expect(wrong).toEqual([]);
  });
});

describe('parameter types follow the spec', () => {
  it('gives every typed parameter a schema of its spec type (int64, int32, string, boolean, double, arrays) and range', () => {
    expect(collect((c) => [...c.query.wrongType, ...c.body.wrongType])).toEqual([]);
  });

  it('knows the type of nearly every parameter (guards the type reading of the parser)', () => {
    const untyped = comparisons.flatMap((c) => {
      const { query, body } = expectedOf(c.e);
      return [...query, ...body, ...(c.e.arrayBody?.items ?? [])].filter((p) => p.type === null).map((p) => `${c.e.no} ${p.name}`);
    });
    // Document 3 reuses names without repeating their type ("user_list", "announcement_id").
    expect(untyped.filter((u) => !/^4\.\d+ (user_list|announcement_id)$/.test(u))).toEqual([]);
  });
});

describe('required and optional markers follow the spec', () => {
  it('requires every parameter the spec marks required (in document 3: group_id everywhere)', () => {
    // Document 3's rule, applied by the extraction: its group_id is a required int64 wherever listed.
    const groupIdNotRequired = spec
      .filter((e) => e.no.startsWith('4.'))
      .flatMap((e) => e.params.filter((p) => p.name === 'group_id' && !(p.required === true && p.type === 'int64')).map(() => label(e)));
    expect(groupIdNotRequired).toEqual([]);
    expect(collect((c) => [...c.query.wrongRequired, ...c.body.wrongRequired])).toEqual([]);
  });

  it('leaves optional every parameter the spec marks opt or optional (in document 3: the paging parameters)', () => {
    expect(collect((c) => [...c.query.wrongOptional, ...c.body.wrongOptional])).toEqual([]);
  });
});
