// What a call sends, made once per call before its first attempt: the endpoint's placement of the
// params, the caller's identity as the upstream's common headers, and the secrets its errors must
// never repeat. Every attempt of the call (a retry too) sends this same request.
import type { Caller } from './caller';
import { encodeParams, type Placement, placement } from './placement';
import { secretsOf } from './secrets';
import { GatewayError } from './errors';

export interface Prepared {
  readonly p: Placement;
  readonly path: string;
  /** What every attempt sends, unless its observer sends more. */
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  readonly secrets: readonly string[];
  /** The trace context the call's attempts hang under (opaque: the observer's). */
  readonly trace: unknown;
}

/** What a call is prepared with beside its own arguments: the client's. */
export interface PrepareDefaults {
  /** The base URL's path prefix, without its trailing slash. */
  readonly prefix: string;
  /** `app_id` sent when the caller names none. */
  readonly appId?: string;
}

// A header value may not carry these (undici would refuse the request with a less helpful error).
const BAD_HEADER_VALUE = /[\r\n\0]/;

/** Sets a caller's header; the value itself stays out of the message: it may be the token. */
function setCallerHeader(headers: Record<string, string>, header: string, value: string): void {
  if (BAD_HEADER_VALUE.test(value)) throw new TypeError(`caller's ${header} is not a valid header value`);
  headers[header] = value;
}

/**
 * The request of a call of `name` (throws a TypeError for a call through the wrong method or a
 * caller's value no header may carry). Built in place (no spreads, no entry arrays): every REST
 * call comes here.
 */

/** Why a caller with a user_id header (an admin token acting as a user) is refused here, before any call. */
const actingUserRefused = (p: Placement) =>
  new GatewayError(
    `${p.name} takes no user_id header (document 4): an admin token cannot act as a user there; call it with that user's own token`,
    'FORBIDDEN',
    undefined,
    { endpoint: p.name },
  );

export function prepare(
  defaults: PrepareDefaults,
  name: string,
  params: object,
  caller: Caller,
  want: 'json' | 'binary',
  trace: unknown,
): Prepared {
  const p = placement(name);
  if (p.binary !== (want === 'binary')) {
    throw new TypeError(`${name} answers with ${p.binary ? 'a file: use download()' : 'JSON: use call()'}`);
  }
  const record = params as Readonly<Record<string, unknown>>;
  const encoded = encodeParams(p, record);
  const headers: Record<string, string> = {};
  const appId = caller.appId ?? defaults.appId;
  if (appId !== undefined) setCallerHeader(headers, 'app_id', appId);
  if (caller.token !== undefined) setCallerHeader(headers, 'access-token', caller.token);
  if (caller.userId !== undefined) {
    // The service takes no user_id header here: sent, it would act as someone else or be refused.
    if (!p.userIdHeader) throw actingUserRefused(p);
    setCallerHeader(headers, 'user_id', caller.userId);
  }
  if (caller.groupId !== undefined && p.groupIdHeader) setCallerHeader(headers, 'group_id', caller.groupId);
  if (encoded.body !== undefined) headers['content-type'] = 'application/json';
  return { p, path: defaults.prefix + p.path + encoded.search, headers, body: encoded.body, secrets: secretsOf(caller, record), trace };
}
