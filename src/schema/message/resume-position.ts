// Where a conversationEvents subscription resumes when its variables name no `after`: the position
// the WebSocket connection sent in `connectionParams.resumeAfter` (`{ "<with>": "<message ID>" }`).
// graphql-ws re-sends a subscription's original variables on each retry but asks for its
// connectionParams anew, so a client that keeps its last message IDs there loses nothing in a drop.
import { GraphQLError } from 'graphql';
import type { Int64 } from '../../rest/json';
import { serviceIdOf } from '../core/global-id';
import { parseId } from '../core/scalars';

/** Conversations one connection may name: far more than a client has open. */
export const MAX_RESUME_ENTRIES = 1_000;

const FIELD = 'connectionParams.resumeAfter';

function refused(message: string): GraphQLError {
  return new GraphQLError(`${FIELD}: ${message}`, { extensions: { code: 'BAD_USER_INPUT', field: FIELD } });
}

/** The message to resume `conversation` after, from the connection's resumeAfter; undefined: none named. */
export function resumePosition(resumeAfter: unknown, conversation: Int64): Int64 | undefined {
  if (resumeAfter === undefined || resumeAfter === null) return undefined;
  if (typeof resumeAfter !== 'object' || Array.isArray(resumeAfter)) {
    throw refused('must be an object of message IDs by conversation (`with`), such as { "2000000000001": "1552747048460091409" }');
  }
  const entries = resumeAfter as Record<string, unknown>;
  if (Object.keys(entries).length > MAX_RESUME_ENTRIES) throw refused(`names more than ${MAX_RESUME_ENTRIES} conversations`);
  const key = String(conversation);
  if (!Object.hasOwn(entries, key)) return undefined;
  let id;
  try {
    id = serviceIdOf(parseId(entries[key]), ['Message']);
  } catch (err) {
    throw refused(`["${key}"]: ${(err as Error).message}`);
  }
  if (id === undefined) throw refused(`["${key}"]: names something other than a message`);
  return id;
}
