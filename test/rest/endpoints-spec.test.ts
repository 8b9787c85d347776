// The endpoint table against the spec facts in test/helpers/spec-endpoints.json (written from the
// REST spec by `npm run spec:extract`): the list of endpoints and, per endpoint, its parameters'
// places, types and required/optional markers, and the group_id header rule. Each test collects
// every offending endpoint and compares the list with [], so one run names all of them.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoints } from '../../src/rest/endpoints';
import type { BareStringBody, EndpointDef } from '../../src/rest/table';
import { readSpecFixture, type FixtureEndpoint, type FixtureParam } from '../helpers/spec-fixture';

const table: Readonly<Record<string, EndpointDef>> = endpoints;
const entries = Object.entries(table);
const fixture = readSpecFixture();
const spec = fixture.endpoints;

const label = (e: { no: string; methods: readonly string[]; path: string }) => `${e.no} ${e.methods.join(',')} ${e.path}`;
const sameMethods = (a: readonly string[], b: readonly string[]) => a.join(',') === b.join(',');

/** The table entry of a spec endpoint: same path, same methods in the same order. */
function entryOf(e: { methods: readonly string[]; path: string }): [string, EndpointDef] | undefined {
  return entries.find(([, def]) => def.path === e.path && sameMethods(def.methods, e.methods));
}

function isBareString(body: EndpointDef['body']): body is BareStringBody {
  return body !== undefined && 'kind' in body && body.kind === 'bare-string';
}

/** The spec's parameters of one endpoint by place. */
function expectedOf(e: FixtureEndpoint): { query: FixtureParam[]; body: FixtureParam[] | 'bare-string' } {
  const query = e.params.filter((p) => p.place === 'query');
  return { query, body: e.bareStringBody ? 'bare-string' : e.params.filter((p) => p.place === 'body') };
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

function typeProblem(field: z.core.$ZodType, type: string | null | undefined): string | undefined {
  const probe = type === undefined || type === null ? undefined : TYPE_PROBES[type];
  if (!probe) return undefined;
  const accepts = (v: unknown) => z.safeParse(field, v).success;
  const show = (v: unknown) => JSON.stringify(v);
  const refused = probe.accepts.find((v) => !accepts(v));
  if (refused !== undefined) return `refuses ${show(refused)}`;
  const accepted = probe.refuses.find((v) => accepts(v));
  return accepted === undefined ? undefined : `accepts ${show(accepted)}`;
}

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
    const problem = field && typeProblem(field, p.type);
    return problem ? [`${where}: '${p.name}' is ${p.type ?? ''} in the spec, but the table ${problem}`] : [];
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
      bareString: [],
      itemResults: [],
    };
  }
  const queryNames = new Set(Object.keys(def.query?.shape ?? {}));
  const bodyNames = new Set(def.body && !isBareString(def.body) ? Object.keys(def.body.shape) : []);
  const query = compareParams(`${name} query`, expected.query, def.query, bodyNames);
  let body = noProblems();
  let bareString: string[] = [];
  if (expected.body === 'bare-string') {
    if (!isBareString(def.body)) bareString = [`${name}: the spec's body is a bare string, the table's is not`];
    else if (def.body.schema.safeParse(undefined).success || !def.body.schema.safeParse('x').success)
      bareString = [`${name}: the bare string body must be a required string`];
  } else if (isBareString(def.body)) {
    bareString = [`${name}: the table's body is a bare string, the spec lists fields`];
  } else {
    body = compareParams(`${name} body`, expected.body, def.body, queryNames);
  }
  // Array elements described in braces ({avatar string required, ...}).
  const objectBody = def.body && !isBareString(def.body) ? def.body : undefined;
  const items = expected.body === 'bare-string' ? [] : expected.body.filter((p) => p.items);
  const itemResults = items.map((p) => compareParams(`${name} body ${p.name}[]`, p.items ?? [], elementObject(objectBody?.shape[p.name])));
  return { e, def, query, body, bareString, itemResults };
});

const collect = (pick: (c: (typeof comparisons)[number]) => string[]) => comparisons.flatMap(pick);

describe('the endpoint table lists exactly the endpoints of endpoints.tsv', () => {
  it('reads 113 endpoints from the fixture', () => {
    expect(spec).toHaveLength(113);
  });

  it('has one entry per row, with the same path and the same methods in the same order', () => {
    const problems = spec.flatMap((row) => {
      const matches = entries.filter(([, def]) => def.path === row.path && sameMethods(def.methods, row.methods));
      return matches.length === 1 ? [] : [`${label(row)}: ${matches.length} entries`];
    });
    expect(problems).toEqual([]);
  });

  it('has no entry beyond those rows (113 entries)', () => {
    const invented = entries
      .filter(([, def]) => !spec.some((row) => row.path === def.path && sameMethods(row.methods, def.methods)))
      .map(([key]) => key);
    expect(invented).toEqual([]);
    expect(entries).toHaveLength(113);
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

  it('sends the bodies of /user/private and /user/public as a bare required string, and no other', () => {
    const bare = spec.filter((e) => e.bareStringBody).map((e) => e.path);
    expect(bare).toEqual(['/user/private', '/user/public']);
    expect(collect((c) => c.bareString)).toEqual([]);
  });

  it('gives 5.4 and 5.6 the fields of the send-body table, and 7.2 the top-level fields of the push-body table', () => {
    const refs = spec.filter((e) => e.bodyFrom).map((e) => `${e.no} ${e.bodyFrom ?? ''}`);
    expect(refs).toEqual(['5.4 send-body', '5.6 send-body', '7.2 push-body']);
    // The fields themselves are compared by the place and marker tests; here: the tables were read.
    const bodyNames = (no: string) =>
      spec
        .find((e) => e.no === no)
        ?.params.filter((p) => p.place === 'body')
        .map((p) => p.name);
    expect(bodyNames('5.4')).toContain('transaction_id');
    expect(bodyNames('7.2')).toEqual(['audience', 'setting', 'message']);
  });

  it('gives the setting and message objects of the push body exactly the fields the push-body table lists', () => {
    const def = table['POST /push/notify'];
    const body = def?.body && !isBareString(def.body) ? def.body : undefined;
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
    const problems = collect((c) =>
      c.itemResults.flatMap((r) => [...r.missing, ...r.extra, ...r.wrongRequired, ...r.wrongOptional, ...r.wrongType]),
    );
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
  it('gives every typed parameter a schema of its spec type (int64, int32, string, boolean, double, arrays)', () => {
    expect(collect((c) => [...c.query.wrongType, ...c.body.wrongType])).toEqual([]);
  });

  it('knows the type of nearly every parameter (guards the type reading of the parser)', () => {
    const untyped = comparisons.flatMap((c) => {
      const { query, body } = expectedOf(c.e);
      return [...query, ...(body === 'bare-string' ? [] : body)].filter((p) => p.type === null).map((p) => `${c.e.no} ${p.name}`);
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
