// Upstream failures as GraphQL errors: extensions.code from the fixed set, plus upstreamCode,
// upstreamMessage and endpoint. Resolvers simply throw; the gateway's error masking calls this,
// so one failing field yields one error and its siblings keep their data. No originalError: yoga
// treats an error wrapping a non-GraphQL error as unexpected, and logs and masks it.
import { GraphQLError } from 'graphql';
import type { RestBudgetExceeded } from './budget';
import { classifyUpstreamError, UpstreamError } from './errors';

/**
 * The one place an upstream failure becomes a GraphQL error (as RESTDataSource's errorFromResponse):
 * the request's REST clients, the error masking, the download route and the subscriptions call it.
 * `from` lends it the location and path of the field that failed.
 */
export function toGraphQLError(err: UpstreamError, from?: GraphQLError): GraphQLError {
  return new GraphQLError(err.message, {
    ...(from ? { nodes: from.nodes, source: from.source, positions: from.positions, path: from.path } : {}),
    extensions: {
      code: classifyUpstreamError(err),
      endpoint: err.endpoint,
      ...(err.code === undefined ? {} : { upstreamCode: err.code }),
      ...(err.upstreamMessage === undefined ? {} : { upstreamMessage: err.upstreamMessage }),
      ...(err.httpStatus === undefined ? {} : { httpStatus: err.httpStatus }),
    },
  });
}

/** A call the request's REST budget refused, on the field that asked for it (its siblings keep their data). */
export function budgetGraphQLError(err: RestBudgetExceeded): GraphQLError {
  return new GraphQLError(err.message, { extensions: { code: 'UPSTREAM_BUDGET_EXCEEDED', endpoint: err.endpoint, limit: err.limit } });
}

/** The UpstreamError behind a resolver error, if that is what it is. */
export function upstreamCause(error: unknown): UpstreamError | undefined {
  if (error instanceof UpstreamError) return error;
  if (error instanceof GraphQLError && error.originalError instanceof UpstreamError) return error.originalError;
  return undefined;
}

/** The upstream's envelope code behind an error: of an UpstreamError, or of one toGraphQLError made. */
export function upstreamCodeOf(error: unknown): number | undefined {
  const code = upstreamCause(error)?.code ?? (error instanceof GraphQLError ? error.extensions.upstreamCode : undefined);
  return typeof code === 'number' ? code : undefined;
}

/**
 * Awaits a write whose retry is made safe by a de-duplication key (transactionId, requestId). Its
 * failure carries that key in `extensions`: when the answer was lost (UPSTREAM_UNAVAILABLE after
 * the request was sent) the write may have happened, and sending again with the same key cannot
 * do it twice.
 */
export async function withRetryKey<T>(key: Record<string, string>, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (!(err instanceof GraphQLError)) throw err;
    throw new GraphQLError(err.message, {
      nodes: err.nodes,
      source: err.source,
      positions: err.positions,
      path: err.path,
      ...(err.originalError ? { originalError: err.originalError } : {}),
      extensions: { ...err.extensions, ...key },
    });
  }
}
