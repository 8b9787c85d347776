// Reads document 5 (the vendor's 2026 changes) on top of documents 1-4: its new endpoints (rows
// of its endpoint tables, or one endpoint named by a '## New:' heading with its own body table or
// the send-body), and the changed send-body, which replaces document 1's. Document 5 also lists
// every change in its numbering table; that list is checked against what the rest of the document
// defines, and any change the rules below cannot classify throws.
import { endpointRowsOf, fieldTable, readSpec, sendBodyFields, type SpecEndpoint, type SpecParam, tableAfter } from './parse-spec';

const DOC5 = 'rest-5-changes-2026.md';

/** What document 5 adds: its new endpoints and the send-body it gives 5.4, 5.6 and 9.1. */
export interface Changes2026 {
  readonly endpoints: readonly SpecEndpoint[];
  readonly sendBody: readonly SpecParam[];
}

const METHOD_LIST = '(?:GET|PUT|POST|DELETE)(?:, (?:GET|PUT|POST|DELETE))*';
// '## New: 5.8 POST /message/broadcast' names one endpoint; '## New: 1.42-1.44 conversation pins' does not.
const ENDPOINT_HEADING = new RegExp(`^## New: (\\d+\\.\\d+) (${METHOD_LIST}) (/\\S+)`);

// Changes that touch answers or value formats only, never a parameter's name, place, type or marker.
const ANSWER_OR_FORMAT_ONLY = [/^group object gains \w+$/, /^accepted \w+ format widened$/];

/** `before`: the endpoints of documents 1-4, which the changed and unchanged rows must name. */
export function readChanges2026(before: readonly SpecEndpoint[]): Changes2026 {
  const doc = readSpec(DOC5);
  if (!/^## Removed\n+Nothing\./m.test(doc)) throw new Error('spec: document 5 no longer says that nothing was removed');
  const endpoints = [...endpointRowsOf(DOC5, before), ...headingEndpoints(doc)];
  const sendBody = changedSendBody(doc);
  checkChangeList(doc, before, endpoints);
  return { endpoints, sendBody };
}

/** One section per '## ' heading: the heading and the lines up to the next one. */
function sectionsOf(doc: string): Array<{ heading: string; lines: string[] }> {
  const sections: Array<{ heading: string; lines: string[] }> = [];
  for (const line of doc.split('\n')) {
    if (line.startsWith('## ')) sections.push({ heading: line, lines: [] });
    else sections.at(-1)?.lines.push(line);
  }
  return sections;
}

/**
 * The endpoints a '## New:' heading names (5.8, 9.1). The body is the send-body where the section
 * says 'Body: the send-body', else the section's first table with a Required column.
 */
function headingEndpoints(doc: string): SpecEndpoint[] {
  return sectionsOf(doc).flatMap(({ heading, lines }) => {
    const m = ENDPOINT_HEADING.exec(heading);
    if (!m) return [];
    const [, no = '', methods = '', path = ''] = m;
    let body: SpecEndpoint['body'];
    if (lines.some((l) => /\bBody: the send-body\b/.test(l))) body = 'send-body';
    else {
      const tableHeader = lines.find((l) => /^\|.*\| Required \|/.test(l));
      if (!tableHeader) throw new Error(`spec: '${heading}' gives neither the send-body nor a body table`);
      body = fieldTable(lines.join('\n'), tableHeader);
    }
    return [{ doc: DOC5, no, methods: methods.split(', '), path, query: [], body, noGroupIdHeader: false }];
  });
}

/**
 * The send-body of document 5, checked against document 1's by its 'Against document 1' column:
 * 'same' fields must be equal there, 'new' ones absent, 'was required' ones required there, and
 * 'range was A-B' ones have that range there; no field of document 1 may be missing.
 */
function changedSendBody(doc: string): SpecParam[] {
  const marker = '## Changed: the send-body';
  const fields = fieldTable(doc, marker);
  const against = tableAfter(doc, marker);
  const old = sendBodyFields();
  const show = (p: SpecParam | undefined) => (p ? `${p.type ?? '?'} ${String(p.required)}` : 'absent');
  fields.forEach((field, k) => {
    const note = against[k]?.['Against document 1'] ?? '';
    const before = old.find((p) => p.name === field.name);
    const was = /^range was (\d+)-(\d+)$/.exec(note);
    const consistent =
      note === 'same'
        ? show(before) === show(field)
        : note === 'new'
          ? before === undefined
          : note === 'was required'
            ? before?.required === true && !field.required
            : was
              ? before?.range?.join('-') === `${was[1]}-${was[2]}`
              : undefined;
    if (consistent === undefined) throw new Error(`spec: cannot read '${note}' (send-body field ${field.name})`);
    if (!consistent) throw new Error(`spec: send-body field ${field.name} is '${note}', but document 1 has it ${show(before)}`);
  });
  const dropped = old.filter((p) => !fields.some((f) => f.name === p.name));
  if (dropped.length > 0) throw new Error(`spec: document 5's send-body drops ${dropped.map((p) => p.name).join(', ')}`);
  return fields;
}

/**
 * The numbering table lists every change: 'new' rows are exactly the endpoints document 5 defines,
 * 'request ... changed' rows are the send-body endpoints of documents 1-4, and the rows kept 'as
 * before' change answers or formats only.
 */
function checkChangeList(doc: string, before: readonly SpecEndpoint[], added: readonly SpecEndpoint[]): void {
  const key = (e: { no: string; methods: readonly string[]; path: string }) => `${e.no} ${e.methods.join(',')} ${e.path}`;
  const listedNew: string[] = [];
  const listedChanged: string[] = [];
  for (const row of tableAfter(doc, '## Numbering')) {
    const nos = (row['No.'] ?? '').split(', ');
    const paths = (row.Path ?? '').split(', ');
    const change = row.Change ?? '';
    if (nos.length !== paths.length) throw new Error(`spec: numbering row '${row['No.'] ?? ''}' pairs no numbers with paths`);
    if (row.Methods === 'as before') {
      if (!ANSWER_OR_FORMAT_ONLY.some((r) => r.test(change))) throw new Error(`spec: cannot classify the change '${change}'`);
      nos.forEach((no, k) => {
        if (!before.some((e) => e.no === no && e.path === paths[k]))
          throw new Error(`spec: numbering row names ${no} ${paths[k] ?? ''}, unknown`);
      });
      continue;
    }
    const rowKeys = nos.map((no, k) => key({ no, methods: (row.Methods ?? '').split(', '), path: paths[k] ?? '' }));
    if (change === 'new') listedNew.push(...rowKeys);
    else if (/^request( and answer)? changed$/.test(change)) listedChanged.push(...rowKeys);
    else throw new Error(`spec: cannot classify the change '${change}'`);
  }
  const same = (a: string[], b: string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
  const defined = added.map(key);
  if (!same(listedNew, defined)) throw new Error(`spec: document 5 lists as new ${listedNew.join('; ')} but defines ${defined.join('; ')}`);
  const sendBodyOnes = before.filter((e) => e.body === 'send-body').map(key);
  if (!same(listedChanged, sendBodyOnes)) {
    throw new Error(
      `spec: document 5 changes the request of ${listedChanged.join('; ')}, the send-body is that of ${sendBodyOnes.join('; ')}`,
    );
  }
}
