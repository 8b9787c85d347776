// GraphiQL as the gateway serves it: assets inlined (no CDN, so it works offline), the
// ready-made operations of examples/ as its default document, the identity headers pre-filled,
// subscriptions over WebSocket.
import { readFileSync } from 'node:fs';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { GraphiQLOptions } from 'graphql-yoga';

export { renderGraphiQL };

/** The examples GraphiQL opens with, in the order a newcomer tries them. */
const EXAMPLES = ['me', 'home', 'groups', 'messages', 'login', 'subscriptions'];

const INTRO = `# The IM GraphQL gateway. Press the run button and pick an operation.
# The headers below carry your identity (app_id, access-token), as the IM service expects.
# Operations that take variables (SendText, History...) read them from the Variables tab.
`;

/** Read once at start: examples/ ships with the gateway, and codegen checks it against the schema. */
export const DEFAULT_DOCUMENT = [
  INTRO,
  ...EXAMPLES.map((name) => readFileSync(new URL(`../../examples/${name}.graphql`, import.meta.url), 'utf8')),
].join('\n');

export function graphiqlOptions(headers: Record<string, string> | undefined): GraphiQLOptions {
  return {
    title: 'IM GraphQL gateway',
    subscriptionsProtocol: 'WS',
    defaultQuery: DEFAULT_DOCUMENT,
    ...(headers ? { headers: JSON.stringify(headers, null, 2) } : {}),
  };
}
