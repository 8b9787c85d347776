// Resume after a standard reconnect. graphql-ws's retry (Apollo's GraphQLWsLink) re-sends each
// subscription with its original variables once a dropped socket is back. A connection that names
// a `clientKey` in its connectionParams (stable for the client's life: the same on every retry)
// gives each subscription a slot in the resume ledger, keyed by a digest of the identity, the
// client key, and the operation with the variables it uses: the subscription marks there the
// position of what it delivered, and the same subscription re-sent within the window starts after
// it. Each socket of a client key keeps its own position, and a retry starts after the earliest
// (subscriptions/resume-ledger.ts): two tabs sharing a key never skip each other's events. Fields
// that have positions (conversationEvents, friendRequestReceived) use the slot; others ignore it.
import { createHash, randomUUID } from 'node:crypto';
import { GraphQLError } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import type { Identity } from '../../identity';
import type { ResumeSlot } from '../../subscriptions/resume';
import type { ResumeLedger } from '../../subscriptions/resume-ledger';

const FIELD = 'connectionParams.clientKey';
/** A client key long enough for a UUID or a device ID, short enough to be no payload. */
const MAX_KEY = 200;
const SUBSCRIPTION = /\bsubscription\b/;

/** The operation's resume slot, or undefined when the connection names no client key; a bad key throws BAD_USER_INPUT. */
export async function resumeSlot(
  ledger: ResumeLedger,
  identity: Identity,
  connectionParams: Readonly<Record<string, unknown>> | undefined,
  payload: SubscribePayload,
): Promise<ResumeSlot | undefined> {
  const clientKey = connectionParams?.clientKey;
  // Queries and mutations have nothing to resume (a document that only mentions the word costs a lookup).
  if (clientKey === undefined || clientKey === null || !SUBSCRIPTION.test(payload.query)) return undefined;
  if (typeof clientKey !== 'string' || clientKey.length === 0 || clientKey.length > MAX_KEY) {
    throw new GraphQLError(`${FIELD}: must be a string of 1 to ${MAX_KEY} characters, the same on every reconnect of one client`, {
      extensions: { code: 'BAD_USER_INPUT', field: FIELD },
    });
  }
  const key = createHash('sha256')
    .update(JSON.stringify([identity.key, clientKey, payload.operationName ?? null, usedVariables(payload)]))
    .update('\n')
    .update(payload.query)
    .digest('base64url');
  const from = await ledger.get(key);
  const writer = { holder: socketOf(connectionParams!), owner: identity.key };
  return { key, holder: writer.holder, from, mark: (position) => ledger.set(key, position, writer) };
}

/**
 * The variables the document names (`$name`), in a stable order: others change nothing of the
 * stream, and must not make every key new (each would take a place in the ledger).
 */
function usedVariables({ query, variables }: SubscribePayload): [string, unknown][] | null {
  if (!variables) return null;
  return Object.keys(variables)
    .filter((name) => new RegExp(`\\$${name.replace(/[^A-Za-z0-9_]/g, '')}\\b`).test(query))
    .sort()
    .map((name) => [name, variables[name]]);
}

/** One holder per socket (its connectionParams object): each socket of a client key keeps its own position. */
const sockets = new WeakMap<object, string>();
function socketOf(connectionParams: Readonly<Record<string, unknown>>): string {
  let id = sockets.get(connectionParams);
  if (!id) sockets.set(connectionParams, (id = randomUUID()));
  return id;
}
