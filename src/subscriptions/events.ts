// What flows from a poller to the subscribers of its topic, in process or through Redis: plain
// data, so that one replica can hand it to another (int64-exact JSON on the wire).
import { GraphQLError } from 'graphql';
import { classifyUpstreamError, type ErrorCode, UpstreamError } from '../rest/errors';
import { toGraphQLError } from '../rest/graphql-error';
import { parseJson, stringifyJson } from '../rest/json';

/** A GraphQL error as data: what a subscriber receives, whichever replica polled. */
export interface WireError {
  message: string;
  extensions: Record<string, unknown>;
}

export type TopicEvent<P> =
  /**
   * A round that moved the source's state from `after` (absent: a poll that started afresh) to
   * `state`, with what subscribers receive (absent: the state moved, nothing to deliver, as on a
   * stream's first round). `seq` orders the values of state sources across pollers (poller.ts).
   */
  | { type: 'value'; seq: number; state: string; after?: string; payload?: P }
  /** A failed round: the poll goes on, backing off. */
  | { type: 'error'; error: WireError }
  /** A failure no retry can mend (a rejected token): the subscriptions end with it. */
  | { type: 'end'; error: WireError };

/** What a topic's latest state looks like in Redis: enough for another replica to carry on. */
export interface Snapshot<P> {
  seq: number;
  /** The source's state (source.ts). */
  state: string;
  /** The latest payload, for sources that replay it to new subscribers. */
  latest?: P;
}

/**
 * The end of a stream whose continuity cannot be vouched for (too much came in at once, or
 * catching up after an outage failed): the client refetches and subscribes again.
 */
export const GAP: WireError = {
  message: 'Some updates may have been missed: fetch the conversation again and subscribe anew.',
  extensions: { code: 'UPSTREAM_UNAVAILABLE' },
};

// Unexpected failures (bugs) stay masked, as they are for queries.
const UNEXPECTED: WireError = { message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } };

/** Failures that polling again cannot mend: the subscription ends instead of backing off. */
const TERMINAL: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['UNAUTHENTICATED', 'NOT_FOUND', 'BAD_USER_INPUT']);

export function isTerminal(err: unknown): boolean {
  return err instanceof UpstreamError && TERMINAL.has(classifyUpstreamError(err));
}

export function toWireError(err: unknown): WireError {
  if (!(err instanceof UpstreamError)) return UNEXPECTED;
  const gql = toGraphQLError(err);
  return { message: gql.message, extensions: { ...gql.extensions } };
}

export function fromWireError(error: WireError): GraphQLError {
  return new GraphQLError(error.message, { extensions: error.extensions });
}

export const encode = (value: TopicEvent<unknown> | Snapshot<unknown>): string => stringifyJson(value);
export const decodeEvent = (text: string) => parseJson(text) as TopicEvent<unknown>;
export const decodeSnapshot = (text: string) => parseJson(text) as Snapshot<unknown>;
