// Maintainer tool (`npm run spec:extract -- <spec-dir>`, the folder of rest-*.md and endpoints.tsv): reads the REST spec
// and writes test/helpers/spec-endpoints.json, the spec facts the endpoint table test checks, so
// that the tests carry what they need and never read outside the repository. Run it again when the
// spec changes and commit the fixture; the parser fails loudly on spec text it cannot classify.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readChanges2026 } from './spec/changes-2026';
import {
  GROUP_DOC,
  groupIdRequiredInGroupDoc,
  pagingOptionalInGroupDoc,
  pushBodyFields,
  readEndpointsTsv,
  readSpecEndpoints,
  type SpecEndpoint,
  type SpecArrayBody,
  type SpecParam,
  useSpecDir,
} from './spec/parse-spec';
import type { FixtureEndpoint, FixtureParam, SpecFixture } from '../test/helpers/spec-fixture';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const given = process.argv[2];
if (!given) {
  console.error('usage: npm run spec:extract -- <spec-dir> (the folder holding rest-*.md and endpoints.tsv)');
  process.exit(2);
}
const specDir = path.resolve(given);
const out = path.join(repoRoot, 'test/helpers/spec-endpoints.json');

useSpecDir(specDir);

const label = (e: { no: string; methods: readonly string[]; path: string }) => `${e.no} ${e.methods.join(',')} ${e.path}`;

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`spec: ${what}`);
}

// Document 3 states two rules once for all its rows: group_id is a required int64 everywhere, the
// paging parameters are optional (and typed in the same sentence). Applied here, so the fixture
// holds each endpoint's parameters as they finally are.
check(groupIdRequiredInGroupDoc(), "document 3 no longer says 'group_id is a required parameter (int64) of every operation'");
const paging = pagingOptionalInGroupDoc();
check(paging.map((p) => p.name).join(',') === 'cursor,limit,version', 'document 3 no longer names the optional paging parameters');

function withGroupRules(p: SpecParam): SpecParam {
  if (p.name === 'group_id') return { ...p, required: true, type: 'int64' };
  const page = paging.find((q) => q.name === p.name);
  return page ? { ...p, required: p.required ?? false, type: p.type ?? page.type } : p;
}

const asGiven = (p: SpecParam) => p;

function toFixture(p: SpecParam, place: FixtureParam['place'], rules: (p: SpecParam) => SpecParam): FixtureParam {
  const q = rules(p);
  return {
    name: q.name,
    place,
    type: q.type ?? null,
    required: q.required ?? null,
    ...(q.items ? { items: q.items.map((i) => toFixture(i, 'body', asGiven)) } : {}),
    ...(q.range ? { range: q.range } : {}),
  };
}

/** The body's object fields (none for a bare string or an array) and, for 8.3, the array. */
function bodyParts(body: SpecEndpoint['body']): { fields: readonly SpecParam[]; array?: SpecArrayBody } {
  if (body === 'send-body') return { fields: changes.sendBody };
  if (body === 'push-body') return { fields: pushBodyFields().topLevel };
  if (body === 'bare-string') return { fields: [] };
  if ('array' in body) return { fields: [], array: body };
  return { fields: body };
}

function endpointOf(e: SpecEndpoint): FixtureEndpoint {
  const rules = e.doc === GROUP_DOC ? withGroupRules : asGiven;
  const body = e.body;
  const { fields: bodyFields, array } = bodyParts(body);
  return {
    no: e.no,
    methods: [...e.methods],
    path: e.path,
    groupIdHeader: !e.noGroupIdHeader,
    ...(body === 'bare-string' ? { bareStringBody: true } : {}),
    ...(array ? { arrayBody: { required: array.required, items: array.items.map((p) => toFixture(p, 'body', asGiven)) } } : {}),
    ...(body === 'send-body' || body === 'push-body' ? { bodyFrom: body } : {}),
    params: [...e.query.map((p) => toFixture(p, 'query', rules)), ...bodyFields.map((p) => toFixture(p, 'body', rules))],
  };
}

const ENDPOINTS = 135;
const tsv = readEndpointsTsv();
const before2026 = readSpecEndpoints();
// Document 5 wins where it differs: its send-body replaces document 1's.
const changes = readChanges2026(before2026);
const spec = [...before2026, ...changes.endpoints];
check(tsv.length === ENDPOINTS, `endpoints.tsv has ${tsv.length} rows, not ${ENDPOINTS}`);
// Guards the parser: an endpoint it missed (or invented) would escape every check of the test.
const tsvLabels = tsv.map(label).sort();
const specLabels = spec.map(label).sort();
check(JSON.stringify(tsvLabels) === JSON.stringify(specLabels), 'the markdown tables and endpoints.tsv list different endpoints');
check(
  ['transaction_id', 'online_only', 'related_mid'].every((name) => changes.sendBody.some((p) => p.name === name)),
  "document 5's send-body table was not read",
);

const byLabel = new Map(spec.map((e) => [label(e), e]));
const fixture: SpecFixture = {
  about: 'The REST spec facts the endpoint table test checks; written by `npm run spec:extract`, do not edit.',
  endpoints: tsv.map((row) => endpointOf(byLabel.get(label(row)) as SpecEndpoint)),
  pushBodyChildren: Object.fromEntries([...pushBodyFields().children].map(([k, v]) => [k, [...v]])),
};

// One endpoint per line: readable, and a spec change shows as a small diff.
const lines = fixture.endpoints.map((e) => `    ${JSON.stringify(e)}`);
const text = `{
  "about": ${JSON.stringify(fixture.about)},
  "endpoints": [
${lines.join(',\n')}
  ],
  "pushBodyChildren": ${JSON.stringify(fixture.pushBodyChildren)}
}
`;
writeFileSync(out, text);
console.log(`${path.relative(repoRoot, out)} written: ${fixture.endpoints.length} endpoints from ${specDir}`);
