// The GraphQL edge of failures. Below src/schema a failure is a plain value (an UpstreamError, or a
// GatewayError of the gateway's own); this file is the one place either becomes a GraphQL error:
// extensions.code from the fixed set, plus upstreamCode, upstreamMessage and endpoint. Results are
// worded by useUpstreamErrors before yoga masks them, whatever else is thrown by yoga's maskError,
// and user-errors.ts reads refusals for payloads through upstreamCause. Anything else stays masked.
// Masked detail (ERROR_DETAIL=masked, production's default): what comes from the service or the
// gateway's inside says only its code, the upstreamCode when the client can act on it (a refusal
// the fixed set names) and the request's ID; the REST endpoint, the service's message, socket
// errors and HTTP statuses go to the one log line that carries the same ID (Masking.masked).
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

/**
 * Masked detail: the request's ID, named by every masked error and by the log line with the detail.
 * (The gateway provides both: this layer logs nothing.)
 */
export interface Masking {
  /** The request's (or subscription's) ID: the same for every error of it. */
  requestId(context: object): string;
  /** The failures a result's errors were masked from, for the log line of the request's ID. */
  masked(requestId: string, failures: readonly (UpstreamError | GatewayError)[]): void;
}

/** Codes of the gateway's inside: their words (endpoints, limits of calls) are masked as the service's are. */
const INSIDE_CODES: ReadonlySet<string> = new Set([
  'UPSTREAM_ERROR',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_BUDGET_EXCEEDED',
  'INTERNAL_SERVER_ERROR',
]);

/** What a client is told of a masked failure, by code. */
const MASKED_MESSAGES: Readonly<Record<string, string>> = {
  UNAUTHENTICATED: 'The IM service refused the credentials.',
  FORBIDDEN: 'The IM service refused: not allowed.',
  NOT_FOUND: 'The IM service found no such object.',
  BAD_USER_INPUT: 'The IM service refused the request as invalid.',
  CONFLICT: 'The IM service refused: it exists already.',
  RATE_LIMITED: 'The IM service refused: too many requests.',
  UPSTREAM_ERROR: 'The IM service failed to answer.',
  UPSTREAM_UNAVAILABLE: 'The IM service is unavailable.',
  UPSTREAM_BUDGET_EXCEEDED: 'This request made too many calls to the IM service.',
  INTERNAL_SERVER_ERROR: 'Unexpected error.',
};

/** Whether masked detail hides this failure's words (the gateway's own refusals keep theirs). */
const masks = (failure: UpstreamError | GatewayError) => failure instanceof UpstreamError || INSIDE_CODES.has(failure.code);

/** The masked message and extensions of a failure: its code, an upstreamCode the client can act on, the request's ID. */
function maskedOf(failure: UpstreamError | GatewayError, requestId: string): { message: string; extensions: Record<string, unknown> } {
  const code = failure instanceof GatewayError ? failure.code : classifyUpstreamError(failure);
  const actionable = failure instanceof UpstreamError && failure.code !== undefined && !INSIDE_CODES.has(code);
  return {
    message: MASKED_MESSAGES[code] ?? MASKED_MESSAGES.UPSTREAM_ERROR!,
    extensions: { code, ...(actionable ? { upstreamCode: failure.code } : {}), requestId },
  };
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
 * The failure as a GraphQL error. `from` lends it the location and path of the field that failed;
 * `requestId` (masked detail) masks what the failure says of the inside.
 * No originalError: yoga treats an error wrapping a non-GraphQL error as unexpected, and masks it.
 */
export function toGraphQLError(
  failure: UpstreamError | GatewayError,
  from?: GraphQLError,
  more?: Record<string, string>,
  requestId?: string,
): GraphQLError {
  const told =
    requestId !== undefined && masks(failure)
      ? maskedOf(failure, requestId)
      : { message: failure.message, extensions: extensionsOf(failure) };
  return new GraphQLError(told.message, {
    ...(from ? { nodes: from.nodes, source: from.source, positions: from.positions, path: from.path } : {}),
    extensions: { ...told.extensions, ...more },
  });
}

/** Masked detail for one request: its ID (made on first need), and who hears of each failure masked. */
export interface MaskedRequest {
  requestId(): string;
  onMasked(failure: UpstreamError | GatewayError): void;
}

/**
 * The GraphQL error for a thrown error with a plain failure behind it; undefined for anything else
 * (to be masked). With `mask` (masked detail), masked, and `mask.onMasked` hears of the failure.
 */
export function graphqlErrorOf(error: unknown, mask?: MaskedRequest): GraphQLError | undefined {
  const cause = plainCause(error);
  if (!cause) return undefined;
  const located = error instanceof GraphQLError ? error : undefined;
  const [failure, key] = cause instanceof KeyedFailure ? [cause.failure, cause.key] : [cause, undefined];
  if (!mask || !masks(failure)) return toGraphQLError(failure, located, key);
  mask.onMasked(failure);
  return toGraphQLError(failure, located, key, mask.requestId());
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

/** The result with its failures worded (masked with `mask`), those of deferred and streamed parts too; undefined when none is. */
function worded(result: ExecutionResult, mask?: MaskedRequest): ExecutionResult | undefined {
  const mapped = mapPayloadErrors(result, (errors) =>
    errors.some((e) => plainCause(e)) ? errors.map((e) => graphqlErrorOf(e, mask) ?? e) : undefined,
  );
  return mapped === result ? undefined : mapped;
}

/**
 * Words the failures of every result (queries, mutations, each subscription event, each deferred
 * or streamed payload) before yoga's masking sees them: yoga logs every error its masking
 * replaces, and a missing group is an answer, not a crash. Listed after compiled execution, whose hook gives its errors their nodes.
 * With `masking`, the failures of the service and of the gateway's inside are masked (see above).
 */
export function useUpstreamErrors(masking?: Masking): Plugin {
  const onDoneFor = (context: object) => (payload: { result: ExecutionResult; setResult: (r: ExecutionResult) => void }) => {
    if (!masking) {
      const result = worded(payload.result);
      if (result) payload.setResult(result);
      return;
    }
    const failures: (UpstreamError | GatewayError)[] = [];
    const result = worded(payload.result, { requestId: () => masking.requestId(context), onMasked: (failure) => failures.push(failure) });
    if (result) payload.setResult(result);
    if (failures.length > 0) masking.masked(masking.requestId(context), failures);
  };
  return {
    onExecute: ({ args }) => {
      const onDone = onDoneFor(args.contextValue);
      return { onExecuteDone: (payload) => handleStreamOrSingleExecutionResult(payload, onDone) };
    },
    onSubscribe: ({ args }) => {
      const onDone = onDoneFor(args.contextValue);
      return { onSubscribeResult: (payload) => handleStreamOrSingleExecutionResult(payload, onDone) };
    },
  };
}
