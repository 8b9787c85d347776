// Which tokens the gateway has seen the IM service accept, per app: the rate limit gives a token
// a bucket of its own only once it is proven here (limiter.ts), so a made-up token, or a real
// one sent with another app_id, is not a new identity. A token is proven by any call made with
// it (and that app) that the service answered, on an endpoint that checks tokens (the REST
// client tells: rest/client.ts onTokenAccepted): the reads requests make anyway (`me`, the peers'
// proof, a socket's check at connect) prove it, at no cost of its own. A token refused while it
// is unproven (its address's bucket was empty) is proven by its own profile read in the
// background, at most as often as that address may send operations: a client behind a busy
// shared address gets out of it, and a flood of made-up tokens costs a few reads, not one each.
// What is proven is the gateway's one record (rest/proven-tokens.ts): its lifetime, and a refused
// token forgotten at once for every use.
import { appIdOf, type Caller } from '../../identity';
import type { RestClient } from '../../rest/client';
import { UpstreamError } from '../../rest/errors';
import type { ProvenTokens } from '../../rest/proven-tokens';
import type { BucketRate } from './bucket';
import { memoryStore } from './store';

/** The service's code for an invalid parameter: its own-profile read by an admin token acting as nobody (peers.ts). */
const INVALID_PARAMETER = 10002;

export interface TokenProofs {
  /** Whether the caller's token is proven for its app (no I/O). */
  isProven(caller: Caller): boolean;
  /** A call with the caller's token on an endpoint that checks it was answered. */
  accepted(caller: Caller): void;
  /** The service refused the caller's token. */
  refused(caller: Caller): void;
  /** Proves an unproven token in the background, if its address's proof budget allows. */
  prove(caller: Caller, address: string | undefined): void;
}

interface TokenProofOptions {
  defaultAppId: string;
  /** The gateway's record of proven tokens. */
  tokens: ProvenTokens;
  /** Proofs made per address: the rate limit's own rate. */
  rate: BucketRate;
  /** Made lazily: the REST client is created with this store's hooks. */
  rest: () => Pick<RestClient, 'call'>;
  now?: () => number;
}

export function tokenProofs(options: TokenProofOptions): TokenProofs {
  const now = options.now ?? Date.now;
  const { tokens } = options;
  // Proofs under way, by app and token (in this process only, as the identity's own text is).
  const proving = new Set<string>();
  const budget = memoryStore(options.rate);
  const keyOf = (caller: Caller) => `${appIdOf(caller, options.defaultAppId)}\n${caller.token}`;

  return {
    isProven: tokens.isProven,
    accepted: tokens.accepted,
    refused: tokens.refused,
    prove(caller, address) {
      if (caller.token === undefined || tokens.isProven(caller)) return;
      const key = keyOf(caller);
      if (proving.has(key)) return;
      void budget.take(address ?? '', 1, now()).then((wait) => {
        if (wait > 0 || proving.has(key)) return;
        proving.add(key);
        // The token alone and its app: the token is one identity whichever user or group it acts as.
        const own: Caller = { appId: appIdOf(caller, options.defaultAppId), token: caller.token! };
        options
          .rest()
          .call('GET /user/profile', {}, own)
          .then(
            () => tokens.accepted(own),
            (err: unknown) => {
              // An admin token acting as nobody: the service knew the token, and asks whom it acts as.
              if (err instanceof UpstreamError && err.code === INVALID_PARAMETER) tokens.accepted(own);
            },
          )
          .finally(() => proving.delete(key));
      });
    },
  };
}
