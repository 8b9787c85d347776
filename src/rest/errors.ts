// What can go wrong with an upstream call, as one error class, and the pure mapping of such an
// error onto the gateway's small fixed set of error codes. Nothing here knows GraphQL: these are
// plain values below src/schema, and schema/core/upstream-errors.ts is the one place they become
// GraphQL errors (`extensions.code = classifyUpstreamError(e)`).

/**
 * - envelope: HTTP 2xx, but the envelope's `code` is not 200 (the usual business error);
 * - http: a non-2xx status (the envelope's code and message are kept when the body has one);
 * - invalid-body: a 2xx answer whose body is empty, not JSON, not an envelope, or too large;
 * - unavailable: no answer at all (connection refused or reset, DNS, connect timeout);
 * - timeout: connected, but no complete answer within the call timeout.
 */
export type UpstreamErrorKind = 'envelope' | 'http' | 'invalid-body' | 'unavailable' | 'timeout';

export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'BAD_USER_INPUT'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'UPSTREAM_ERROR'
  | 'UPSTREAM_UNAVAILABLE';

export interface UpstreamErrorInit {
  /** The endpoint table key, e.g. 'GET /group/info'. */
  endpoint: string;
  kind: UpstreamErrorKind;
  httpStatus?: number;
  code?: number;
  /** The envelope's message, with the caller's secrets already removed. */
  upstreamMessage?: string;
  /** What happened, for kinds without an envelope ('connection refused', 'body is not JSON'). */
  detail?: string;
  /** A body over the size cap (kind invalid-body): its first bytes, for readers that recover an item from them. */
  bodyHead?: string;
  cause?: unknown;
}

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly endpoint: string;
  readonly kind: UpstreamErrorKind;
  readonly httpStatus?: number;
  readonly code?: number;
  readonly upstreamMessage?: string;
  readonly detail?: string;
  readonly bodyHead?: string;

  constructor(init: UpstreamErrorInit) {
    super(describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.endpoint = init.endpoint;
    this.kind = init.kind;
    if (init.httpStatus !== undefined) this.httpStatus = init.httpStatus;
    if (init.code !== undefined) this.code = init.code;
    if (init.upstreamMessage !== undefined) this.upstreamMessage = init.upstreamMessage;
    if (init.detail !== undefined) this.detail = init.detail;
    if (init.bodyHead !== undefined) this.bodyHead = init.bodyHead;
  }
}

/**
 * A failure the gateway reports itself (a file part missing, a subscription that missed updates),
 * with a code of the same set. A plain value like UpstreamError; the GraphQL edge words both.
 * INTERNAL_SERVER_ERROR is the masked form of a failure already logged where it happened.
 */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';

  constructor(
    message: string,
    readonly code: ErrorCode | 'INTERNAL_SERVER_ERROR' | 'UPSTREAM_BUDGET_EXCEEDED',
    /** The argument or input field at fault, when one is. */
    readonly field?: string,
    /** More for the client to act on (a limit, the endpoint not called). */
    readonly details?: Readonly<Record<string, string | number>>,
  ) {
    super(message);
  }
}

// 'GET /group/info failed: upstream code 20001: group does not exist'
// 'GET /group/info failed: HTTP 502: bad gateway'
function describe(init: UpstreamErrorInit): string {
  const parts: string[] = [];
  if (init.kind === 'http' && init.httpStatus !== undefined) parts.push(`HTTP ${init.httpStatus}`);
  if (init.code !== undefined) parts.push(`upstream code ${init.code}`);
  if (init.upstreamMessage) parts.push(init.upstreamMessage);
  if (init.detail) parts.push(init.detail);
  return `${init.endpoint} failed: ${parts.join(': ') || init.kind}`;
}

/*
 * Envelope codes (spec/upstream-notes.md) and why each maps where it does.
 *
 * | code                  | meaning                                 | maps to         | why                                               |
 * |-----------------------|-----------------------------------------|-----------------|---------------------------------------------------|
 * | 402                   | token expired or invalid                | UNAUTHENTICATED | the official SDK re-logs-in on it                 |
 * | 10003                 | access-token missing                    | UNAUTHENTICATED |                                                   |
 * | 10008                 | access-token invalid                    | UNAUTHENTICATED |                                                   |
 * | 10010                 | no permission                           | FORBIDDEN       |                                                   |
 * | 12006                 | push not enabled for the app            | FORBIDDEN       | the app may not push; retrying cannot help        |
 * | 20011 / 20012 / 20013 | member / admin / owner permission needed| FORBIDDEN       | the acting user lacks the role                    |
 * | 20018                 | user is on the group blacklist          | FORBIDDEN       | the acting user is refused by the group           |
 * | 20023                 | no permission on the shared file        | FORBIDDEN       |                                                   |
 * | 10000                 | user does not exist                     | NOT_FOUND       | at /token/*: UNAUTHENTICATED (see below)          |
 * | 20001                 | group does not exist                    | NOT_FOUND       |                                                   |
 * | 20020                 | announcement does not exist             | NOT_FOUND       |                                                   |
 * | 20022                 | shared file does not exist              | NOT_FOUND       |                                                   |
 * | 40000                 | app_id does not exist                   | NOT_FOUND       | the app named by the caller's app_id is unknown   |
 * | 10002                 | invalid request parameter               | BAD_USER_INPUT  | the message names the parameter                   |
 * | 12002                 | push image over 1 MB                    | BAD_USER_INPUT  | a smaller image succeeds                          |
 * | 12005                 | push audience over 500                  | BAD_USER_INPUT  | a shorter list succeeds                           |
 * | 20002                 | user is not a group member              | BAD_USER_INPUT  | names a target user of the request (the actor's   |
 * |                       |                                         |                 | own membership is 20011)                          |
 * | 20004                 | the owner cannot leave                  | BAD_USER_INPUT  | the request is wrong for the owner: transfer first|
 * | 20005                 | transfer target is not a member         | BAD_USER_INPUT  | a target of the request is invalid                |
 * | 20010                 | group capacity reached                  | BAD_USER_INPUT  | fewer invitees (or a larger group) succeed        |
 * | 20014                 | application expired or already handled  | BAD_USER_INPUT  | the application named is no longer actionable     |
 * | 20015                 | invitation expired or already handled   | BAD_USER_INPUT  | the invitation named is no longer actionable      |
 * | 20024 / 20025         | group QR code invalid / expired         | BAD_USER_INPUT  | the qr_info given is unusable                     |
 * | 10004                 | user already exists                     | CONFLICT        | the name is taken                                 |
 * | 20017                 | already a member                        | CONFLICT        |                                                   |
 *
 * No code is documented for rate limiting; HTTP 429 covers it. Any other code → UPSTREAM_ERROR.
 *
 * The /token/* endpoints answer 10000 for an unknown user and for a wrong password alike (so that
 * names cannot be probed): a failed login, reported as UNAUTHENTICATED there.
 */
const LOGIN_ENDPOINT = /^POST \/token\//;

/** Codes and HTTP statuses that say the caller's token is missing, invalid or expired. */
const TOKEN_REFUSALS: ReadonlySet<number> = new Set([10003, 10008]);
const TOKEN_REFUSAL_STATUSES: ReadonlySet<number> = new Set([401, 402]);

/** Whether the upstream refused the caller's token itself (not one of its rights). */
export function isTokenRefusal(err: unknown): boolean {
  if (!(err instanceof UpstreamError)) return false;
  return (
    (err.code !== undefined && (TOKEN_REFUSALS.has(err.code) || err.code === 402)) ||
    (err.httpStatus !== undefined && TOKEN_REFUSAL_STATUSES.has(err.httpStatus))
  );
}

const BY_UPSTREAM_CODE: ReadonlyMap<number, ErrorCode> = new Map<number, ErrorCode>([
  [402, 'UNAUTHENTICATED'],
  [10003, 'UNAUTHENTICATED'],
  [10008, 'UNAUTHENTICATED'],
  [10010, 'FORBIDDEN'],
  [12006, 'FORBIDDEN'],
  [20011, 'FORBIDDEN'],
  [20012, 'FORBIDDEN'],
  [20013, 'FORBIDDEN'],
  [20018, 'FORBIDDEN'],
  [20023, 'FORBIDDEN'],
  [10000, 'NOT_FOUND'],
  [20001, 'NOT_FOUND'],
  [20020, 'NOT_FOUND'],
  [20022, 'NOT_FOUND'],
  [40000, 'NOT_FOUND'],
  [10002, 'BAD_USER_INPUT'],
  [12002, 'BAD_USER_INPUT'],
  [12005, 'BAD_USER_INPUT'],
  [20002, 'BAD_USER_INPUT'],
  [20004, 'BAD_USER_INPUT'],
  [20005, 'BAD_USER_INPUT'],
  [20010, 'BAD_USER_INPUT'],
  [20014, 'BAD_USER_INPUT'],
  [20015, 'BAD_USER_INPUT'],
  [20024, 'BAD_USER_INPUT'],
  [20025, 'BAD_USER_INPUT'],
  [10004, 'CONFLICT'],
  [20017, 'CONFLICT'],
]);

/*
 * HTTP statuses, used when the body carries no known envelope code. 400 and 409 are not in the
 * upstream's documented vocabulary, but mean the same as 10002 and 10004/20017 would.
 */
const BY_HTTP_STATUS: ReadonlyMap<number, ErrorCode> = new Map<number, ErrorCode>([
  [400, 'BAD_USER_INPUT'],
  [401, 'UNAUTHENTICATED'],
  [403, 'FORBIDDEN'],
  [404, 'NOT_FOUND'],
  [409, 'CONFLICT'],
  [429, 'RATE_LIMITED'],
]);

/** The gateway's error code for an upstream failure. Pure; a known envelope code wins over the HTTP status. */
export function classifyUpstreamError(err: UpstreamError): ErrorCode {
  if (err.kind === 'unavailable' || err.kind === 'timeout') return 'UPSTREAM_UNAVAILABLE';
  if (err.code === 10000 && LOGIN_ENDPOINT.test(err.endpoint)) return 'UNAUTHENTICATED';
  const byCode = err.code === undefined ? undefined : BY_UPSTREAM_CODE.get(err.code);
  if (byCode) return byCode;
  if (err.kind === 'http' && err.httpStatus !== undefined) {
    if (err.httpStatus >= 500) return 'UPSTREAM_UNAVAILABLE';
    const byStatus = BY_HTTP_STATUS.get(err.httpStatus);
    if (byStatus) return byStatus;
  }
  return 'UPSTREAM_ERROR';
}
