// Refusals of a request that cannot be read say what is wrong and nothing more: yoga's JSON
// parser attached the parser's own message (which quotes the body) as `extensions.originalError`,
// in production too, and a GET whose `variables` or `extensions` parameter is not JSON reached
// the client as a masked 500. A body that cannot be read is no well-formed GraphQL-over-HTTP
// request, so it is a 4xx whatever the Accept (yoga marks its refusal as one that application/json
// clients get with 200; only the quoted parser message kept it at 400).
import { createGraphQLError, type Plugin } from 'graphql-yoga';

const isGraphQLError = (err: unknown): err is Error & { extensions: Record<string, unknown> } =>
  err instanceof Error && 'extensions' in err && typeof err.extensions === 'object' && err.extensions !== null;

function cleaned(err: unknown): unknown {
  if (isGraphQLError(err)) {
    const { originalError: _dropped, http, ...extensions } = err.extensions;
    const status = (http as { status?: number } | undefined)?.status;
    return createGraphQLError(err.message, { extensions: { ...extensions, ...(status ? { http: { status } } : {}) } });
  }
  if (err instanceof SyntaxError) {
    return createGraphQLError('The `variables` or `extensions` parameter is not valid JSON', {
      extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
    });
  }
  return err;
}

const isThenable = <T>(value: T | PromiseLike<T>): value is PromiseLike<T> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

/** Put it after every plugin that picks a request parser, so that it wraps the one chosen. */
export function useRequestParseErrors(): Plugin {
  return {
    onRequestParse({ requestParser, setRequestParser }) {
      if (!requestParser) return;
      // Not an async function: yoga's parsers may answer synchronously (a body the front parsed),
      // and a promise of our own would cost every request a turn of the promise queue.
      setRequestParser((request) => {
        try {
          const parsed = requestParser(request);
          return isThenable(parsed)
            ? parsed.then(undefined, (err: unknown) => {
                throw cleaned(err);
              })
            : parsed;
        } catch (err) {
          throw cleaned(err);
        }
      });
    },
  };
}
