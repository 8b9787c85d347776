// The GraphQL edge of failures. Below src/schema a failure is a plain value (an UpstreamError, or a
// GatewayError of the gateway's own); this file is the one place either becomes a GraphQL error:
// extensions.code from the fixed set, plus upstreamCode, upstreamMessage and endpoint. Results are
// worded by useUpstreamErrors before yoga masks them, whatever else is thrown by yoga's maskError,
// and user-errors.ts reads refusals for payloads through upstreamCause. Anything else stays masked.
import { type ExecutionResult, GraphQLError } from 'graphql';
import { handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';
import { classifyUpstreamError, GatewayError, UpstreamError } from '../../rest/errors';
import { mapPayloadErrors } from './payloads';

/**
 * A failed write whose retry a de-duplication key makes safe: when the answer was lost
 * (UPSTREAM_UNAVAILABLE after the request was sent) the write may have happened, and sending again
 * with the same key cannot do it twice. The key goes into the error's extensions.
 */
class KeyedFailure extends Error {
  constructor(
    readonly failure: UpstreamError | GatewayError,
    readonly key: Readonly<Record<string, string>>,
  ) {
    super(failure.message, { cause: failure });
  }
}

/** The plain failure behind an error graphql-js (or graphql-jit) located: it keeps it as originalError. */
function plainCause(error: unknown): UpstreamError | GatewayError | KeyedFailure | undefined {
  for (let at = error; at instanceof Error; at = at instanceof GraphQLError ? at.originalError : undefined) {
    if (at instanceof UpstreamError || at instanceof GatewayError || at instanceof KeyedFailure) return at;
  }
  return undefined;
}

function extensionsOf(failure: UpstreamError | GatewayError): Record<string, unknown> {
  if (failure instanceof GatewayError) {
    return { code: failure.code, ...(failure.field === undefined ? {} : { field: failure.field }), ...failure.details };
  }
  return {
    code: classifyUpstreamError(failure),
    endpoint: failure.endpoint,
    ...(failure.code === undefined ? {} : { upstreamCode: failure.code }),
    ...(failure.upstreamMessage === undefined ? {} : { upstreamMessage: failure.upstreamMessage }),
    ...(failure.httpStatus === undefined ? {} : { httpStatus: failure.httpStatus }),
  };
}

/**
 * The failure as a GraphQL error. `from` lends it the location and path of the field that failed.
 * No originalError: yoga treats an error wrapping a non-GraphQL error as unexpected, and masks it.
 */
export function toGraphQLError(failure: UpstreamError | GatewayError, from?: GraphQLError, more?: Record<string, string>): GraphQLError {
  return new GraphQLError(failure.message, {
    ...(from ? { nodes: from.nodes, source: from.source, positions: from.positions, path: from.path } : {}),
    extensions: { ...extensionsOf(failure), ...more },
  });
}

/** The GraphQL error for a thrown error with a plain failure behind it; undefined for anything else (to be masked). */
export function graphqlErrorOf(error: unknown): GraphQLError | undefined {
  const cause = plainCause(error);
  if (!cause) return undefined;
  const located = error instanceof GraphQLError ? error : undefined;
  return cause instanceof KeyedFailure ? toGraphQLError(cause.failure, located, cause.key) : toGraphQLError(cause, located);
}

/** The failure behind an error, without a retry key it may carry. */
function failureOf(error: unknown): UpstreamError | GatewayError | undefined {
  const cause = plainCause(error);
  return cause instanceof KeyedFailure ? cause.failure : cause;
}

/** The UpstreamError behind a resolver's error, if that is what it is. */
export function upstreamCause(error: unknown): UpstreamError | undefined {
  const failure = failureOf(error);
  return failure instanceof UpstreamError ? failure : undefined;
}

/** The upstream's envelope code behind an error. */
export const upstreamCodeOf = (error: unknown): number | undefined => upstreamCause(error)?.code;

/** The extensions.code an error gets at the edge, for resolvers that answer some failures (null for FORBIDDEN). */
export function errorCodeOf(error: unknown): string | undefined {
  const failure = failureOf(error);
  return failure instanceof GatewayError ? failure.code : failure && classifyUpstreamError(failure);
}

/** Awaits a write made safe to retry by a de-duplication key (transactionId, requestId); its failure carries the key. */
export async function withRetryKey<T>(key: Record<string, string>, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    throw err instanceof UpstreamError || err instanceof GatewayError ? new KeyedFailure(err, key) : err;
  }
}

const wordedErrors = (errors: readonly GraphQLError[]) =>
  errors.some((e) => plainCause(e)) ? errors.map((e) => graphqlErrorOf(e) ?? e) : undefined;

/** The result with its failures worded, those of deferred and streamed parts too; undefined when none is. */
function worded(result: ExecutionResult): ExecutionResult | undefined {
  const mapped = mapPayloadErrors(result, wordedErrors);
  return mapped === result ? undefined : mapped;
}

/**
 * Words the failures of every result (queries, mutations, each subscription event, each deferred
 * or streamed payload) before yoga's masking sees them: yoga logs every error its masking
 * replaces, and a missing group is an answer, not a crash. Listed after compiled execution, whose hook gives its errors their nodes.
 */
export function useUpstreamErrors(): Plugin {
  const onDone = (payload: { result: ExecutionResult; setResult: (r: ExecutionResult) => void }) => {
    const result = worded(payload.result);
    if (result) payload.setResult(result);
  };
  return {
    onExecute: () => ({ onExecuteDone: (payload) => handleStreamOrSingleExecutionResult(payload, onDone) }),
    onSubscribe: () => ({ onSubscribeResult: (payload) => handleStreamOrSingleExecutionResult(payload, onDone) }),
  };
}
