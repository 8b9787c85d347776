// GraphiQL as the gateway serves it: assets inlined (no CDN, so it works offline), the
// ready-made operations of examples/ as its default document, the identity headers pre-filled,
// subscriptions over WebSocket.
import { existsSync, readFileSync } from 'node:fs';
import type { GraphiQLOptions } from 'graphql-yoga';

/** The examples GraphiQL opens with, in the order a newcomer tries them. */
const EXAMPLES = ['me', 'home', 'groups', 'contacts', 'messages', 'assistant', 'subscriptions', 'files', 'login', 'node', 'admin'];

const INTRO = `# The IM GraphQL gateway. Press the run button and pick an operation.
# The headers below carry your identity (app_id, access-token), as the IM service expects.
# Operations that take variables (SendText, Conversation...) read them from the Variables tab.
`;

/** examples/ sits at the package root: three levels above this file in src/, one above the bundle in dist/. */
function examplesDir(): URL {
  const dir = ['../../../examples/', '../examples/'].map((up) => new URL(up, import.meta.url)).find((url) => existsSync(url));
  if (!dir) throw new Error(`examples/ not found beside ${import.meta.url}`);
  return dir;
}

/** Read once at start: examples/ ships with the gateway, and codegen checks it against the schema. */
const dir = examplesDir();
export const DEFAULT_DOCUMENT = [INTRO, ...EXAMPLES.map((name) => readFileSync(new URL(`${name}.graphql`, dir), 'utf8'))].join('\n');

export function graphiqlOptions(headers: Record<string, string> | undefined): GraphiQLOptions {
  return {
    title: 'IM GraphQL gateway',
    subscriptionsProtocol: 'WS',
    defaultQuery: DEFAULT_DOCUMENT,
    ...(headers ? { headers: JSON.stringify(headers, null, 2) } : {}),
  };
}
