// What flows from a poller to the subscribers of its topic, in process or through Redis: plain
// data, so that one replica can hand it to another (int64-exact JSON on the wire).
import { classifyUpstreamError, type ErrorCode, GatewayError, UpstreamError, type UpstreamErrorInit } from '../rest/errors';
import { parseJson, stringifyJson } from '../rest/json';

/**
 * A failure as data, whichever replica polled: an upstream failure (rebuilt as the UpstreamError
 * it was), or one of the gateway's own. Subscribers get the rebuilt error; the schema words it.
 */
export type WireError =
  { upstream: Omit<UpstreamErrorInit, 'cause'> } | { gateway: { message: string; code: GatewayError['code']; field?: string } };

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
  gateway: { message: 'Some updates may have been missed: fetch the conversation again and subscribe anew.', code: 'UPSTREAM_UNAVAILABLE' },
};

// Unexpected failures (bugs) stay masked, as they are for queries (the poller logs them).
const UNEXPECTED: Extract<WireError, { gateway: unknown }> = { gateway: { message: 'Unexpected error.', code: 'INTERNAL_SERVER_ERROR' } };

/** Failures that polling again cannot mend: the subscription ends instead of backing off. */
const TERMINAL: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['UNAUTHENTICATED', 'NOT_FOUND', 'BAD_USER_INPUT']);

export function isTerminal(err: unknown): boolean {
  return err instanceof UpstreamError && TERMINAL.has(classifyUpstreamError(err));
}

export function toWireError(err: unknown): WireError {
  if (err instanceof GatewayError)
    return { gateway: { message: err.message, code: err.code, ...(err.field === undefined ? {} : { field: err.field }) } };
  if (!(err instanceof UpstreamError)) return UNEXPECTED;
  const { endpoint, kind, httpStatus, code, upstreamMessage, detail } = err;
  return { upstream: { endpoint, kind, httpStatus, code, upstreamMessage, detail } };
}

export function fromWireError(error: WireError): UpstreamError | GatewayError {
  if ('upstream' in error) return new UpstreamError(error.upstream);
  // Another shape comes from a replica of another version (a rolling deploy): masked, not a crash.
  const { message, code, field } = 'gateway' in error ? error.gateway : UNEXPECTED.gateway;
  return new GatewayError(message, code, field);
}

export const encode = (value: TopicEvent<unknown> | Snapshot<unknown>): string => stringifyJson(value);
export const decodeEvent = (text: string) => parseJson(text) as TopicEvent<unknown>;
export const decodeSnapshot = (text: string) => parseJson(text) as Snapshot<unknown>;

/** One event of a subscription: a value, or a failure (after which more may follow; the schema words it). */
export type SubscriptionEvent<T> =
  /** `pushed`: brought by a callback, ahead of the poll that confirms it (resume.ts delivers it once). */
  { value: T; pushed?: true } | { error: UpstreamError | GatewayError };
