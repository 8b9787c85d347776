// The one record of the tokens the IM service has accepted, per app: "has the service accepted
// this token" asked by the rate limit (a proven token has a bucket of its own), the peers' trust
// model (the service credential reads other users' public faces only for a proven caller), the
// early proof and the subscription hub's check of a connection. One lifetime, PROOF_TTL_MS from
// the last call that proved the token, and one invalidation: a call refused for the token
// (10003/10008, HTTP 401/402) clears it for all of them at once.
// A token is proven by any call made with it, on an endpoint that checks tokens, that the service
// answered (the REST client's onTokenAccepted); the caller's own profile read also tells whom the
// token acts as alone (its user, or none: an admin token acting as nobody), which is what the
// peers' reads need. Kept per replica, in memory: another replica proves a token on its first sight.
import { appIdOf, type Caller } from '../identity';
import type { Int64 } from './json';

/** How long a proof holds without a new call proving the token again. */
export const PROOF_TTL_MS = 60_000;
/** Tokens remembered at most; beyond it the oldest proofs are forgotten (those tokens prove themselves again). */
const MAX_PROOFS = 100_000;
/** A proof is renewed at most this often (most calls come from proven tokens). */
const RENEW_AFTER_MS = PROOF_TTL_MS / 10;

/** Whom a token acts as when it names nobody: its user, or null (an admin token acting as no user). */
export type Acting = Int64 | null;

export interface ProvenTokens {
  /** Whether the caller's token is proven for its app (no I/O); the gateway's own token always is. */
  isProven(caller: Caller): boolean;
  /**
   * Whom the caller's token acts as, when the token alone (no user_id or group_id header, which
   * change who it acts as) is proven and whom it acts as was read: then no proof round is needed.
   */
  actingOf(caller: Caller): Acting | undefined;
  /**
   * Whom the caller acts as: remembered, else `read()` (the caller's own profile read with its
   * own token), shared by concurrent askers and remembered when it answers. A caller with a
   * user_id or group_id header is read each time.
   */
  prove(caller: Caller, read: () => Promise<Acting>): Promise<Acting>;
  /** A call with the caller's token on an endpoint that checks it was answered. */
  accepted(caller: Caller): void;
  /** The service refused the caller's token: forgotten for every use at once. */
  refused(caller: Caller): void;
}

interface ProvenTokensOptions {
  defaultAppId: string;
  /** The gateway's own admin token: proven from the start for its app. */
  serviceToken?: string | undefined;
  now?: () => number;
}

interface Proof {
  until: number;
  /** Whom the token alone acts as, once read. */
  acting?: Acting;
}

const alone = (caller: Caller) => caller.userId === undefined && caller.groupId === undefined;

export function provenTokens(options: ProvenTokensOptions): ProvenTokens {
  const now = options.now ?? Date.now;
  // By app and token, in the order last renewed: the first is the oldest.
  const proofs = new Map<string, Proof>();
  const reading = new Map<string, Promise<Acting>>();
  const keyOf = (caller: Caller) => `${appIdOf(caller, options.defaultAppId)}\n${caller.token}`;
  const service = options.serviceToken !== undefined ? keyOf({ appId: options.defaultAppId, token: options.serviceToken }) : undefined;

  const live = (key: string): Proof | undefined => {
    const proof = proofs.get(key);
    return proof && proof.until > now() ? proof : undefined;
  };
  const record = (key: string, acting?: Acting) => {
    const known = proofs.get(key);
    proofs.delete(key);
    const kept = acting !== undefined ? acting : known?.acting;
    proofs.set(key, { until: now() + PROOF_TTL_MS, ...(kept !== undefined ? { acting: kept } : {}) });
    if (proofs.size > MAX_PROOFS) proofs.delete(proofs.keys().next().value!);
  };
  const actingOf = (caller: Caller) => (caller.token !== undefined && alone(caller) ? live(keyOf(caller))?.acting : undefined);

  return {
    isProven(caller) {
      if (caller.token === undefined) return false;
      const key = keyOf(caller);
      return key === service || live(key) !== undefined;
    },
    actingOf,
    prove(caller, read) {
      if (caller.token === undefined || !alone(caller)) return read();
      const known = actingOf(caller);
      if (known !== undefined) return Promise.resolve(known);
      const key = keyOf(caller);
      const pending = reading.get(key);
      if (pending) return pending;
      const asked = read();
      reading.set(key, asked);
      // Unless refused meanwhile (refused() dropped the read).
      const ours = () => reading.get(key) === asked && reading.delete(key);
      asked.then((acting) => ours() && record(key, acting), ours);
      return asked;
    },
    accepted(caller) {
      if (caller.token === undefined) return;
      const key = keyOf(caller);
      const proof = live(key);
      if (!proof || proof.until - now() < PROOF_TTL_MS - RENEW_AFTER_MS) record(key);
    },
    refused(caller) {
      if (caller.token === undefined) return;
      const key = keyOf(caller);
      proofs.delete(key);
      reading.delete(key);
    },
  };
}
