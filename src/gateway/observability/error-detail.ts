// How much of a failure a client is told (ERROR_DETAIL): `full` (development's default) words it
// whole, the REST endpoint and the service's message included; `masked` (production's default)
// tells its code, an upstreamCode the client can act on, and a request ID, and writes the rest to
// one JSON log line carrying the same `request_id` (schema/core/upstream-errors.ts words both).
// Unexpected errors (bugs) are masked in either mode, as yoga does; masked detail gives them a
// request ID and a log line too.
import { randomUUID } from 'node:crypto';
import { GraphQLError } from 'graphql';
import { maskError } from 'graphql-yoga';
import { classifyUpstreamError, GatewayError, type UpstreamError } from '../../rest/errors';
import { graphqlErrorOf, type Masking } from '../../schema/core/upstream-errors';
import { log } from '../../log/logger';

export type ErrorDetail = 'full' | 'masked';

/** Codes that say the service or the gateway failed (not the client): logged at warn, the others at info. */
const TROUBLE: ReadonlySet<string> = new Set([
  'UPSTREAM_ERROR',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_BUDGET_EXCEEDED',
  'INTERNAL_SERVER_ERROR',
]);

/** What the log line says of a failure the client saw masked. */
function detailOf(failure: UpstreamError | GatewayError): Record<string, unknown> {
  if (failure instanceof GatewayError) return { code: failure.code, message: failure.message };
  return {
    code: classifyUpstreamError(failure),
    endpoint: failure.endpoint,
    kind: failure.kind,
    ...(failure.code === undefined ? {} : { upstream_code: failure.code }),
    ...(failure.httpStatus === undefined ? {} : { http_status: failure.httpStatus }),
    message: failure.message,
  };
}

/** Masked detail: one ID per request (its GraphQL context), one log line per result with masked errors. */
export function errorMasking(): Masking {
  const ids = new WeakMap<object, string>();
  return {
    requestId(context) {
      let id = ids.get(context);
      if (id === undefined) ids.set(context, (id = randomUUID()));
      return id;
    },
    masked(requestId, failures) {
      const errors = failures.map(detailOf);
      const trouble = errors.some((e) => TROUBLE.has(String(e.code)));
      log()[trouble ? 'warn' : 'info']({ request_id: requestId, errors }, `errors masked for the client (request ${requestId})`);
    },
  };
}

/** yoga's maskError for errors raised outside a result's wording (thrown before or around execution). */
export function edgeMaskError(detail: ErrorDetail): (error: unknown, message: string, isDev?: boolean) => Error {
  if (detail === 'full') return (error, message, isDev) => graphqlErrorOf(error) ?? maskError(error, message, isDev);
  const masking = errorMasking();
  return (error, message) => {
    const requestId = randomUUID();
    const worded = graphqlErrorOf(error, { requestId: () => requestId, onMasked: (failure) => masking.masked(requestId, [failure]) });
    if (worded) return worded;
    const masked = maskError(error, message, false);
    if (masked === error || !(masked instanceof GraphQLError)) return masked;
    log().error(
      { request_id: requestId, error: error instanceof Error ? error.message : String(error) },
      `unexpected error (request ${requestId})`,
    );
    masked.extensions.requestId = requestId;
    return masked;
  };
}
