// Caps on an answer, applied when execution is done (each event of a subscription alike), on
// every transport and request path: envelop's onExecuteDone, as jit.ts rewrites results (yoga's
// onExecutionResult hooks run only for HTTP, not for graphql-ws).
// - at most maxErrors errors: the first maxErrors - 1 are kept, and one TOO_MANY_ERRORS error
//   says how many more there were (a failing field under a list of 1,000 repeats its error 1,000
//   times: issue 20 saw 803,000 in one answer);
// - at most maxResponseBytes: a larger answer is replaced by one RESPONSE_TOO_LARGE error. The
//   size is estimated by a walk that stops at the limit (no second serialization of every answer).
import { type ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

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

function capped(result: ExecutionResult, caps: ResultCaps): ExecutionResult | undefined {
  const errors = result.errors;
  // Errors are written with their messages, paths and extensions: counted in the size too.
  if (
    sizeWithin([result.data, result.extensions, errors?.slice(0, caps.maxErrors).map((e) => e.toJSON())], caps.maxResponseBytes) ===
    Number.POSITIVE_INFINITY
  ) {
    return {
      data: null,
      errors: [
        new GraphQLError(
          `The answer is larger than ${caps.maxResponseBytes} bytes (MAX_RESPONSE_BYTES): select fewer fields or smaller pages`,
          {
            extensions: { code: 'RESPONSE_TOO_LARGE', limit: caps.maxResponseBytes },
          },
        ),
      ],
    };
  }
  if (!errors || errors.length <= caps.maxErrors) return undefined;
  const left = errors.length - (caps.maxErrors - 1);
  const summary = new GraphQLError(`${left} more errors left out of this answer (at most ${caps.maxErrors} are listed)`, {
    extensions: { code: 'TOO_MANY_ERRORS', count: left, total: errors.length, limit: caps.maxErrors },
  });
  return { ...result, errors: [...errors.slice(0, caps.maxErrors - 1), summary] };
}

export function useResultCaps(caps: ResultCaps): Plugin {
  const done = {
    onExecuteDone({
      result,
      setResult,
    }: {
      result: ExecutionResult | AsyncIterable<ExecutionResult>;
      setResult: (r: ExecutionResult) => void;
    }) {
      if (Symbol.asyncIterator in result) {
        return {
          onNext({ result: event, setResult: setEvent }: { result: ExecutionResult; setResult: (r: ExecutionResult) => void }) {
            const replaced = capped(event, caps);
            if (replaced) setEvent(replaced);
          },
        };
      }
      const replaced = capped(result, caps);
      if (replaced) setResult(replaced);
      return undefined;
    },
  };
  return {
    onExecute: () => done,
    onSubscribe: () => ({ onSubscribeResult: done.onExecuteDone }),
  };
}
