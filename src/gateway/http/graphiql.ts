// GraphiQL as the gateway serves it: assets inlined (no CDN, so it works offline), one tab per
// file of examples/ with its variables filled from the demo data and the identity headers
// pre-filled, subscriptions over WebSocket.
//
// A reload must not open an empty tab. GraphiQL keeps its tabs in localStorage and, on a reload,
// looks for a stored tab holding the page's initial query; with none given it finds none and adds
// an empty `<untitled>` tab (whose run is a syntax error). So the page names the first example as
// its initial query too: a reload finds its tab (or, if that tab was edited, opens it afresh).
import { existsSync, readFileSync } from 'node:fs';
import type { GraphiQLOptions } from 'graphql-yoga';

/** The example files GraphiQL opens with, one tab each, in the order a newcomer tries them. */
const EXAMPLES = ['me', 'home', 'groups', 'contacts', 'messages', 'assistant', 'subscriptions', 'files', 'login', 'node', 'admin'];

const INTRO = `# The IM GraphQL gateway. Press the run button and pick an operation; each tab holds one file of
# examples/, its variables (the Variables tab) filled from the demo data when npm start seeds it.
# The headers (the Headers tab) carry your identity (app_id, access-token), as the IM service expects.
`;

/** What npm start's demo gives GraphiQL (main.ts; none against a real service). */
export interface GraphiQLDemo {
  /** The identity every tab starts with (the demo viewer's token with the emulator). */
  headers: Record<string, string>;
  /** Variables by operation name (src/emulator/seed.ts). */
  variables?: Record<string, Record<string, unknown>>;
  /** The identity of the admin examples (the emulator's admin token). */
  adminHeaders?: Record<string, string>;
}

/** examples/ sits at the package root: three levels above this file in src/, one above the bundle in dist/. */
function examplesDir(): URL {
  const dir = ['../../../examples/', '../examples/'].map((up) => new URL(up, import.meta.url)).find((url) => existsSync(url));
  if (!dir) throw new Error(`examples/ not found beside ${import.meta.url}`);
  return dir;
}

/** Read once at start: examples/ ships with the gateway, and codegen checks it against the schema. */
const dir = examplesDir();
const FILES = EXAMPLES.map((name, i) => ({ name, text: (i === 0 ? INTRO : '') + readFileSync(new URL(`${name}.graphql`, dir), 'utf8') }));
/** Every example in one document (the tests check it against the schema). */
export const DEFAULT_DOCUMENT = FILES.map((f) => f.text).join('\n');

const operationNames = (text: string) => [...text.matchAll(/^(?:query|mutation|subscription) (\w+)/gm)].map((m) => m[1]!);

/** One tab's variables: those of each of its operations (a name two share has one value). */
function tabVariables(text: string, variables: GraphiQLDemo['variables']): string | null {
  const merged = Object.assign({}, ...operationNames(text).map((name) => variables?.[name] ?? {})) as Record<string, unknown>;
  return Object.keys(merged).length > 0 ? JSON.stringify(merged, null, 2) : null;
}

export function graphiqlOptions(demo: GraphiQLDemo | undefined): GraphiQLOptions {
  const json = (headers: Record<string, string> | undefined) => (headers ? JSON.stringify(headers, null, 2) : undefined);
  const headers = json(demo?.headers);
  const tabs = FILES.map(({ name, text }) => ({
    query: text,
    variables: tabVariables(text, demo?.variables),
    headers: (name === 'admin' ? json(demo?.adminHeaders) : undefined) ?? headers ?? null,
  }));
  const first = tabs[0]!;
  // `query` and `variables` are yoga's renderer's initial query (not in its type): see the top of this file.
  return {
    title: 'IM GraphQL gateway',
    subscriptionsProtocol: 'WS',
    defaultTabs: tabs,
    defaultQuery: first.query,
    ...(headers ? { headers } : {}),
    ...{ query: first.query, variables: first.variables },
  };
}
