// Caps on an answer, applied when execution is done (each event of a subscription alike, and the
// payloads of a deferred or streamed answer together), on
// every transport and request path: envelop's onExecuteDone, as jit.ts rewrites results (yoga's
// onExecutionResult hooks run only for HTTP, not for graphql-ws).
// - at most maxErrors errors: the first maxErrors - 1 are kept, and one TOO_MANY_ERRORS error
//   says how many more there were (a failing field under a list of 1,000 repeats its error 1,000
//   times: issue 20 saw 803,000 in one answer);
// - at most maxResponseBytes: a larger answer is replaced by one RESPONSE_TOO_LARGE error. The
//   size is estimated by a walk that stops at the limit (no second serialization of every answer).
import { type ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { mapPayloadErrors, type Payload } from '../../schema/core/payloads';

interface ResultCaps {
  maxErrors: number;
  maxResponseBytes: number;
}

/** JSON bytes of a value, estimated from above, or Infinity as soon as they pass `budget`. */
function sizeWithin(value: unknown, budget: number): number {
  let size = 0;
  // An explicit stack: answers may nest deeply, and recursion would cost a frame per level.
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      // Up to 3 bytes per UTF-16 unit in UTF-8, plus quotes: only long strings are worth measuring.
      size += 2 + (item.length > 64 ? Buffer.byteLength(item) + item.length / 8 : item.length * 3);
    } else if (item === null || typeof item !== 'object') {
      size += 24;
    } else if (Array.isArray(item)) {
      size += 2 + item.length;
      for (const element of item) stack.push(element);
    } else {
      size += 2;
      for (const key in item) {
        size += key.length + 4;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
    if (size > budget) return Number.POSITIVE_INFINITY;
  }
  return size;
}

const tooLarge = (caps: ResultCaps) =>
  new GraphQLError(`The answer is larger than ${caps.maxResponseBytes} bytes (MAX_RESPONSE_BYTES): select fewer fields or smaller pages`, {
    extensions: { code: 'RESPONSE_TOO_LARGE', limit: caps.maxResponseBytes },
  });

/** Bytes of a payload, estimated (Infinity past `budget`): errors are written with messages, paths and extensions. */
function payloadSize(payload: Payload, caps: ResultCaps, budget: number): number {
  const errorsOf = (errors: readonly GraphQLError[] | undefined) => errors?.slice(0, caps.maxErrors).map((e) => e.toJSON());
  const parts = payload.incremental?.map((p) => [p.data, p.items, p.path, p.extensions, errorsOf(p.errors)]);
  return sizeWithin([payload.data, payload.extensions, errorsOf(payload.errors), parts], budget);
}

/** A list of errors cut to maxErrors, the last one saying how many more there were; undefined when within. */
function fewerErrors(errors: readonly GraphQLError[], caps: ResultCaps): GraphQLError[] | undefined {
  if (errors.length <= caps.maxErrors) return undefined;
  const left = errors.length - (caps.maxErrors - 1);
  const summary = new GraphQLError(`${left} more errors left out of this answer (at most ${caps.maxErrors} are listed)`, {
    extensions: { code: 'TOO_MANY_ERRORS', count: left, total: errors.length, limit: caps.maxErrors },
  });
  return [...errors.slice(0, caps.maxErrors - 1), summary];
}

/** One result or subscription event, capped; undefined when within the caps. */
function capped(result: ExecutionResult, caps: ResultCaps): ExecutionResult | undefined {
  if (payloadSize(result, caps, caps.maxResponseBytes) === Number.POSITIVE_INFINITY) return { data: null, errors: [tooLarge(caps)] };
  const errors = result.errors && fewerErrors(result.errors, caps);
  return errors ? { ...result, errors } : undefined;
}

/**
 * The payloads of a deferred or streamed answer, capped: MAX_RESPONSE_BYTES bounds them all
 * together, and the payload that would pass it ends the answer with RESPONSE_TOO_LARGE (the first
 * payload loses its data, a later one is replaced); MAX_ERRORS bounds each list of errors (the
 * payload's own and each deferred part's).
 */
async function* cappedPayloads(payloads: AsyncIterable<Payload>, caps: ResultCaps): AsyncGenerator<Payload> {
  let left = caps.maxResponseBytes;
  let first = true;
  // Leaving the loop (done, too large, or the client gone) ends the execution too.
  for await (const payload of payloads) {
    const size = payloadSize(payload, caps, left);
    if (size === Number.POSITIVE_INFINITY) {
      yield first ? { data: null, errors: [tooLarge(caps)], hasNext: false } : { errors: [tooLarge(caps)], hasNext: false };
      return;
    }
    left -= size;
    first = false;
    yield mapPayloadErrors(payload, (errors) => fewerErrors(errors, caps));
  }
}

/** What an onExecute hook hands on to the execution's end. */
export type AfterExecute = Exclude<Awaited<ReturnType<NonNullable<Plugin['onExecute']>>>, void | undefined>;

export function useResultCaps(caps: ResultCaps): Plugin {
  const onEvent = ({ result: event, setResult: setEvent }: { result: ExecutionResult; setResult: (r: ExecutionResult) => void }) => {
    const replaced = capped(event, caps);
    if (replaced) setEvent(replaced);
  };
  // The same hooks for every operation: they hold nothing of it (an object and a closure less per request).
  const afterExecute: AfterExecute = {
    onExecuteDone({ result, setResult }) {
      if (Symbol.asyncIterator in result) {
        // Incremental delivery: its payloads make one answer.
        setResult(cappedPayloads(result, caps));
        return;
      }
      onEvent({ result, setResult });
    },
  };
  return {
    onExecute: () => afterExecute,
    // Each event of a subscription is an answer of its own.
    onSubscribe: () => ({
      onSubscribeResult({ result, setResult }) {
        if (Symbol.asyncIterator in result) return { onNext: onEvent };
        onEvent({ result, setResult });
        return undefined;
      },
    }),
  };
}
