// Reads the REST spec (a directory holding endpoints.tsv and the markdown documents) into plain
// data: the endpoints.tsv rows, and per endpoint of documents 1-4 the parameters its markdown row
// lists, with their place (query or body), type and the required/optional markers the spec gives
// them. Document 5 (the 2026 changes) is read by changes-2026.ts on top of this.
// Used by scripts/extract-spec-endpoints.ts, which writes the test fixture; no test reads the spec.
// The parser is deliberately strict: cell text it cannot classify throws, so a spec edit that the
// rules below do not cover fails loudly instead of silently dropping parameters.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const DOCS = ['rest-1-conventions-tokens-messages-files-push.md', 'rest-2-users.md', 'rest-3-groups.md', 'rest-4-roster.md'] as const;

/** The spec directory every reader below takes its documents from (set by `useSpecDir`). */
let specDir = '';

export function useSpecDir(dir: string): void {
  specDir = dir;
}

export function readSpec(file: string): string {
  const full = path.join(specDir, file);
  if (!existsSync(full)) throw new Error(`spec file missing: ${full}`);
  return readFileSync(full, 'utf8');
}

// ---- endpoints.tsv ----

interface TsvRow {
  readonly no: string;
  readonly methods: readonly string[];
  readonly path: string;
}

export function readEndpointsTsv(): TsvRow[] {
  const [header, ...lines] = readSpec('endpoints.tsv')
    .split('\n')
    .filter((l) => l.trim() !== '');
  if (header !== 'no\tmethods\tpath') throw new Error(`endpoints.tsv: unexpected header '${header}'`);
  return lines.map((line) => {
    const [no = '', methods = '', p = ''] = line.split('\t');
    return { no, methods: methods.split(','), path: p };
  });
}

// ---- markdown tables ----

type Row = Readonly<Record<string, string>>;

/** Every pipe table of a document, from line index `from` on, as rows keyed by header cell. */
function tablesOf(lines: readonly string[], from = 0): Row[][] {
  const tables: Row[][] = [];
  for (let i = from; i < lines.length; i++) {
    if (!lines[i]?.startsWith('|') || !lines[i + 1]?.startsWith('|---')) continue;
    const header = cells(lines[i] ?? '');
    const rows: Row[] = [];
    for (i += 2; lines[i]?.startsWith('|'); i++) {
      const values = cells(lines[i] ?? '');
      rows.push(Object.fromEntries(header.map((h, k) => [h, values[k] ?? ''])));
    }
    tables.push(rows);
  }
  return tables;
}

const cells = (line: string) =>
  line
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());

/** The first table after the first line starting with `marker` (a heading or a lead-in line). */
export function tableAfter(doc: string, marker: string): Row[] {
  const lines = doc.split('\n');
  const at = lines.findIndex((l) => l.startsWith(marker));
  const table = at < 0 ? undefined : tablesOf(lines, at)[0];
  if (!table) throw new Error(`spec: no table after '${marker}'`);
  return table;
}

// ---- parameter cells ----

export interface SpecParam {
  readonly name: string;
  /** true: marked required; false: marked opt/optional; undefined: the spec does not say. */
  readonly required: boolean | undefined;
  /** The spec's type word ('int64', 'array of string', ...), where the spec gives one. */
  readonly type?: string;
  /** Fields of the array elements, for cells like `list array of {a string required, ...}`. */
  readonly items?: readonly SpecParam[];
  /** The allowed values of an int32 field whose field table states them ('0-12', 'minimum 1, maximum 2'). */
  readonly range?: readonly [min: number, max: number];
}

/** What a Body cell stands for when it is not a parameter list. */
type BodyRef = 'send-body' | 'push-body' | 'bare-string';

/** A body that is a JSON array itself (8.3), with the fields of each item. */
export interface SpecArrayBody {
  readonly array: true;
  readonly required: boolean;
  readonly items: readonly SpecParam[];
}

// What may follow a parameter name in a cell; anything else makes the piece prose.
const AFTER_NAME = /^(?::|(?:string|strings|int32|int64|double|boolean|array|required|optional|opt|as in)\b)/;
// Pieces that are prose, not parameters; listed so that unknown prose still fails the parser.
const PROSE = new Set(['all others optional']);
// A parenthesis that carries a marker ("(required)", "(all required)", "(optional strings)") is kept;
// any other parenthesis is commentary and dropped.
const MARKER_PARENS = /^(all )?(required|optional|opt)?( ?strings)?$/;

const markerOf = (text: string): boolean | undefined =>
  /\brequired\b/.test(text) ? true : /\b(opt|optional)\b/.test(text) ? false : undefined;

/** The first type word of a description; arrays with their element type ('array of object' for braces). */
function typeOf(text: string): string | undefined {
  const m = /\b(array|strings?|int32|int64|double|boolean)\b(?:(?: optional| required)? of (int64|string|§))?/.exec(text);
  if (!m) return undefined;
  if (m[1] === 'array') return m[2] === '§' ? 'array of object' : m[2] ? `array of ${m[2]}` : 'array';
  return m[1] === 'strings' ? 'string' : m[1];
}

/**
 * Parses one Query/Body cell into parameters. Rules, all taken from how the spec writes cells:
 * - 'none', '-', 'common' and '' list nothing;
 * - clauses are split on ';' and names on ','; a piece's leading identifier is the name, the
 *   words after it its type and marker; pieces starting with a digit are code lists ("0,1,2,3");
 * - 'all required' / 'all optional' (anywhere, also as an 'all optional:' prefix) apply to the cell;
 * - bare names before a piece described as '... strings' share its marker ("alias, sign: optional strings");
 * - {...} holds the fields of array elements.
 */
export function parseParamCell(cell: string): SpecParam[] {
  let text = cell.trim();
  if (['', '-', 'none', 'common'].includes(text)) return [];
  const nested: string[] = [];
  text = text.replace(/\{([^}]*)\}/g, (_, inner: string) => ` §${nested.push(inner) - 1}`);
  text = text.replace(/\(([^()]*)\)/g, (_, inner: string) => (MARKER_PARENS.test(inner.trim()) ? ` ${inner}` : ''));
  const all = /\ball (required|optional)\b/.exec(text);
  const cellDefault = all ? all[1] === 'required' : undefined;
  text = text.replace(/^all (required|optional):/, '');

  const params: SpecParam[] = [];
  for (const clause of text.split(';')) {
    let bareRun: string[] = [];
    for (const raw of clause.split(',')) {
      const piece = raw.trim().replace(/\s+/g, ' ');
      if (piece === '' || /^\d/.test(piece) || PROSE.has(piece)) continue;
      const m = /^([A-Za-z_]\w*)\s*(.*)$/.exec(piece);
      const [name = '', rest = ''] = m ? [m[1], m[2]] : [];
      if (!m || (rest !== '' && !AFTER_NAME.test(rest))) throw new Error(`spec: cannot read '${piece}' in cell '${cell}'`);
      if (rest === '') {
        bareRun.push(name);
        continue;
      }
      const own = markerOf(rest.replace(/§\d+/g, ''));
      const type = typeOf(rest.replace(/§\d+/g, '§'));
      // '... strings' describes the run of bare names before it too.
      const shares = /\bstrings\b/.test(rest);
      for (const bare of bareRun) {
        params.push({ name: bare, required: (shares ? own : undefined) ?? cellDefault, ...(shares ? { type } : {}) });
      }
      bareRun = [];
      const ref = /§(\d+)/.exec(rest);
      const items = ref ? parseParamCell(nested[Number(ref[1])] ?? '') : undefined;
      params.push({ name, required: own ?? cellDefault, ...(type ? { type } : {}), ...(items ? { items } : {}) });
    }
    for (const bare of bareRun) params.push({ name: bare, required: cellDefault });
  }
  return params;
}

// ---- endpoint rows of the three documents ----

export interface SpecEndpoint {
  readonly doc: string;
  /** Section number; '2' for the token rows, which have no number column. */
  readonly no: string;
  readonly methods: readonly string[];
  readonly path: string;
  readonly query: readonly SpecParam[];
  readonly body: readonly SpecParam[] | BodyRef | SpecArrayBody;
  /** Marked 'no group_id header' (in the Methods or the Headers column). */
  readonly noGroupIdHeader: boolean;
}

const dropParens = (s: string) => s.replace(/\([^()]*\)/g, '').trim();

/**
 * 8.3: "a JSON array, required (the body itself is the array, ...); each item: <parameters>".
 * Undefined for any other cell.
 */
export function parseArrayBodyCell(cell: string): SpecArrayBody | undefined {
  const m = /^a JSON array, (required|optional)(?: \([^()]*\))?; each item: (.+)$/.exec(cell);
  return m ? { array: true, required: m[1] === 'required', items: parseParamCell(m[2] ?? '') } : undefined;
}

function bodyOf(doc: string, cell: string): SpecEndpoint['body'] {
  if (cell.startsWith('send-body')) return 'send-body';
  if (cell.startsWith('push-body')) return 'push-body';
  if (cell.startsWith('a single required string')) return 'bare-string';
  if (cell.startsWith('a JSON array')) {
    const array = parseArrayBodyCell(cell);
    if (!array) throw new Error(`spec: cannot read the array body '${cell}'`);
    return array;
  }
  // 1.36: the fields of the user settings object table, user_id required and the rest optional.
  const settings = /^the user settings fields; (\w+) int64 required, all others optional$/.exec(cell);
  if (settings) {
    return userSettingsFields().map((f) => ({ ...f, required: f.name === settings[1] }));
  }
  // 8.2: "application request: <parameters>", the fields of the document's table of that name.
  const labelled = /^([a-z][a-z ]*[a-z]): (.+)$/.exec(cell);
  if (labelled && !/^all (required|optional)$/.test(labelled[1] ?? '')) {
    return labelledParams(doc, labelled[1] ?? '', labelled[2] ?? '');
  }
  return parseParamCell(cell);
}

/**
 * A cell that names a field table of its document before listing the parameters: the list must
 * agree with that table, field for field (name, type, required), or the spec contradicts itself.
 */
function labelledParams(doc: string, label: string, rest: string): SpecParam[] {
  const heading = readSpec(doc)
    .split('\n')
    .find((l) => l.toLowerCase().startsWith(`### ${label} (`) || l.toLowerCase() === `### ${label}`);
  if (!heading) throw new Error(`spec: '${label}:' names no field table of ${doc}`);
  const params = parseParamCell(rest);
  const table = fieldTable(readSpec(doc), heading);
  const show = (ps: readonly SpecParam[]) => ps.map((p) => `${p.name} ${p.type ?? '?'} ${String(p.required)}`).join('; ');
  if (show(params) !== show(table)) {
    throw new Error(`spec: '${label}' is listed as '${show(params)}' but its table says '${show(table)}'`);
  }
  return params;
}

/** The endpoints of documents 1-4, one per row of their endpoint tables. */
export function readSpecEndpoints(): SpecEndpoint[] {
  const out: SpecEndpoint[] = [];
  for (const doc of DOCS) out.push(...endpointRowsOf(doc, out));
  return out;
}

/**
 * The rows of a document's endpoint tables (those with a Path column and a Query or Body column);
 * `earlier` holds the endpoints read before, which an 'as in N.M' cell may name.
 */
export function endpointRowsOf(doc: string, earlier: readonly SpecEndpoint[] = []): SpecEndpoint[] {
  const text = readSpec(doc);
  const out: SpecEndpoint[] = [];
  // The token rows have no method column; their method is stated once above the table.
  const tokenMethod = /All three: method (\w+)/.exec(text)?.[1];
  for (const table of tablesOf(text.split('\n'))) {
    const header = table[0] ?? {};
    if (!('Path' in header) || !['Query', 'Body', 'Body fields'].some((k) => k in header)) continue;
    for (const row of table) {
      const path = row.Path ?? '';
      const methodsCell = row.Methods ?? row.Method ?? tokenMethod;
      if (!methodsCell) throw new Error(`${doc}: no method for ${path}`);
      const noHeader = /no group_id header/;
      out.push({
        doc,
        no: row['No.'] ?? '2',
        methods: dropParens(methodsCell)
          .split(',')
          .map((m) => m.trim()),
        path: dropParens(path),
        query: parseParamCell(row.Query ?? '').map((p) => resolveAsIn(p, row.Query ?? '', [...earlier, ...out])),
        body: bodyOf(doc, row.Body ?? row['Body fields'] ?? ''),
        noGroupIdHeader: noHeader.test(methodsCell) || noHeader.test(row.Headers ?? ''),
      });
    }
  }
  return out;
}

/**
 * "image_type, w, h, ... as in 6.1" (6.2): the named parameters take type and marker from that
 * earlier endpoint's parameter of the same name.
 */
function resolveAsIn(p: SpecParam, cell: string, earlier: readonly SpecEndpoint[]): SpecParam {
  const m = /([\w, ]+) as in (\d+\.\d+)/.exec(cell);
  if (!m || !(m[1] ?? '').split(',').some((n) => n.trim() === p.name)) return p;
  const source = earlier.find((e) => e.no === m[2])?.query.find((q) => q.name === p.name);
  if (!source) throw new Error(`spec: '${p.name} as in ${m[2] ?? ''}' names nothing there`);
  return { ...source, ...p, required: p.required ?? source.required, type: p.type ?? source.type };
}

// ---- the field tables some cells refer to ----

const DOC1 = DOCS[0];

const FIELD_TYPES = new Set(['int32', 'int64', 'string', 'boolean', 'double', 'array of int64', 'array of string', 'array of object']);

/**
 * A field table (Field, Type, Required, Meaning) after `marker`: each field with its type, its
 * Required column ('yes ...' / 'no ...') and, for int32 fields, the range its Meaning states.
 * A type or Required cell it cannot classify throws.
 */
export function fieldTable(doc: string, marker: string): SpecParam[] {
  return tableAfter(doc, marker).map((r) => {
    const name = r.Field ?? '';
    const type = r.Type ?? '';
    const mark = r.Required ?? '';
    const required = /^yes\b/.test(mark) ? true : /^no\b/.test(mark) ? false : undefined;
    if (!FIELD_TYPES.has(type) || required === undefined) throw new Error(`spec: cannot read the field row '${name} | ${type} | ${mark}'`);
    const range = type === 'int32' ? rangeOf(r.Meaning ?? '') : undefined;
    return { name, type, required, ...(range ? { range } : {}) };
  });
}

/**
 * The allowed values a field's Meaning states, in the ways the spec writes them: '0-12, ...' or
 * '0..7 ...' leading, '(minimum 1, maximum 2)', or '1 (...) is the only allowed value'.
 */
export function rangeOf(meaning: string): readonly [number, number] | undefined {
  const m =
    /^(\d+)(?:-|\.\.)(\d+)\b/.exec(meaning) ??
    /\(minimum (\d+), maximum (\d+)\)/.exec(meaning) ??
    /\b(\d+) (?:\([^()]*\) )?is the only allowed value/.exec(meaning);
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2] ?? m[1])];
}

/** Send-body of 5.4 and 5.6 as document 1 gives it (document 5 changes it: changes-2026.ts). */
export function sendBodyFields(): SpecParam[] {
  return fieldTable(readSpec(DOC1), 'Send-body');
}

/**
 * Push-body of 7.2: the top-level fields (no dot) and, per top-level object, its child fields
 * ("message.xiaomi, message.oppo" rows name several). Top-level fields are optional "in form",
 * as the lead-in line says; the children carry no markers.
 */
export function pushBodyFields(): { topLevel: SpecParam[]; children: ReadonlyMap<string, readonly string[]> } {
  const doc = readSpec(DOC1);
  const optional = /^Push-body.*all top-level fields are optional/m.test(doc);
  const topLevel: SpecParam[] = [];
  const children = new Map<string, string[]>();
  for (const row of tableAfter(doc, 'Push-body')) {
    for (const field of (row.Field ?? '').split(',').map((f) => f.trim())) {
      const [parent = '', child] = field.split('.');
      if (child === undefined) topLevel.push({ name: parent, required: optional ? false : undefined, type: row.Type ?? '' });
      else children.set(parent, [...(children.get(parent) ?? []), child]);
    }
  }
  return { topLevel, children };
}

/** Fields (name and type) of the user settings object (document 2), the body of 1.36. */
function userSettingsFields(): Array<{ name: string; type: string }> {
  return tableAfter(readSpec(DOCS[1]), '### User settings object').map((r) => ({ name: r.Field ?? '', type: r.Type ?? '' }));
}

// ---- document-wide rules stated in prose ----

/** Document 3: "group_id is a required parameter (int64) of every operation below". */
export function groupIdRequiredInGroupDoc(): boolean {
  return /group_id is a required parameter \(int64\) of every operation below/.test(readSpec(DOCS[2]));
}

/** Document 3: the list paging parameters cursor, limit and version (with their types) are optional. */
export function pagingOptionalInGroupDoc(): Array<{ name: string; type: string }> {
  const m = /List paging parameters (cursor) \((\w+)[^)]*\), (limit) \((\w+)[^)]*\) and (version) \((\w+)\) are optional/.exec(
    readSpec(DOCS[2]),
  );
  if (!m) return [];
  return [0, 2, 4].map((k) => ({ name: m[k + 1] ?? '', type: m[k + 2] ?? '' }));
}

export const GROUP_DOC = DOCS[2];
