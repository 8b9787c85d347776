// Resume after a standard reconnect. graphql-ws's retry (Apollo's GraphQLWsLink) re-sends each
// subscription with its original variables once a dropped socket is back. A connection that names
// a `clientKey` in its connectionParams (stable for the client's life: the same on every retry)
// gives each subscription a slot in the resume ledger, keyed by a digest of the identity, the
// client key, and the operation with its variables: the subscription marks there the position of
// what it delivered, and the same subscription re-sent within the window starts after it. Fields
// that have positions (conversationEvents, friendRequestReceived) use the slot; others ignore it.
import { createHash } from 'node:crypto';
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
    .update(JSON.stringify([identity.key, clientKey, payload.operationName ?? null, payload.variables ?? null]))
    .update('\n')
    .update(payload.query)
    .digest('base64url');
  const from = await ledger.get(key);
  return { key, from, mark: (position) => ledger.set(key, position) };
}
