// The limits on what a request does to accounts and to others (sign-in, registration, recipients),
// made from the configuration in one place: the root takes the limiters for its plugins and the
// resources that connect and close their buckets.
import type { Config } from '../../config';
import type { Caller } from '../../identity';
import type { SharedRedis } from '../../redis/shared-redis';
import type { Transport } from './limiter';
import { createFanOutLimiter, type FanOutLimiter } from './fan-out-limiter';
import type { AccountSpellings } from './sign-in-accounts';
import { createSignInLimiter, type SignInLimiter } from './sign-in-limiter';

interface AccountLimitOptions {
  redis: SharedRedis | undefined;
  /** Reads a user's own profile with its token (the sign-in limit learns the account's spellings). */
  ownProfile: (caller: Caller) => Promise<AccountSpellings>;
  onRefused?: ((transport: Transport, operations: number) => void) | undefined;
  onStoreFailure?: (() => void) | undefined;
}

export interface AccountLimits {
  readonly signIn: SignInLimiter | undefined;
  readonly fanOut: FanOutLimiter | undefined;
  /** Connect and close the buckets (Redis with REDIS_URL). */
  readonly resources: readonly { name: string; start: () => Promise<void>; close: () => Promise<void> }[];
}

export function accountLimits(config: Config, options: AccountLimitOptions): AccountLimits {
  const shared = {
    redis: options.redis,
    onRefused: options.onRefused,
    onStoreFailure: options.onStoreFailure,
  };
  const signIn =
    config.signInLimitAddress || config.signInLimitName
      ? createSignInLimiter({
          ...shared,
          address: config.signInLimitAddress,
          name: config.signInLimitName,
          profile: (appId, token) => options.ownProfile({ appId, token }),
        })
      : undefined;
  const fanOut =
    config.registrationLimitAddress || config.recipientLimit
      ? createFanOutLimiter({ ...shared, registration: config.registrationLimitAddress, recipients: config.recipientLimit })
      : undefined;
  return {
    signIn,
    fanOut,
    resources: [
      ...(signIn ? [{ name: 'sign-in-limit', start: () => signIn.start(), close: () => signIn.close() }] : []),
      ...(fanOut ? [{ name: 'fan-out-limit', start: () => fanOut.start(), close: () => fanOut.close() }] : []),
    ],
  };
}
