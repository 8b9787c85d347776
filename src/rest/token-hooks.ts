// What a call tells about the caller's token as it ends: accepted (a call of an endpoint that
// checks it was answered) or refused (10003/10008, HTTP 401/402). The gateway's record of proven
// tokens listens; a hook never changes the call's own answer or failure.
import type { Caller } from './caller';
import { isTokenRefusal } from './errors';
import type { Prepared } from './prepare';

export interface TokenHooks {
  /** Called when the upstream refuses the caller's token: what the gateway remembers about it is forgotten at once. */
  onTokenRefused?: (caller: Caller) => void;
  /** Called when the upstream answered a call of an endpoint that checks the caller's token: the token is good for its app. */
  onTokenAccepted?: (caller: Caller) => void;
}

/** Tells that the caller's token was accepted, when the endpoint checks it, then answers as the call did. */
export function tokenAccepted<R>(hooks: TokenHooks, prepared: Prepared, caller: Caller, reply: R): R {
  if (hooks.onTokenAccepted && prepared.p.checksToken && caller.token !== undefined) {
    try {
      hooks.onTokenAccepted(caller);
    } catch {
      // A hook must never change the call's own answer.
    }
  }
  return reply;
}

/** Tells of a refused token, when `err` is one, then fails as the call did. */
export function tokenRefused(hooks: TokenHooks, err: unknown, caller: Caller): never {
  if (hooks.onTokenRefused && isTokenRefusal(err)) {
    try {
      hooks.onTokenRefused(caller);
    } catch {
      // A hook must never change the call's own failure.
    }
  }
  throw err;
}
