// The sign-in limits (SIGN_IN_LIMIT_ADDRESS, SIGN_IN_LIMIT_NAME; on by default, RATE_LIMIT or
// not): a password can be guessed only so fast, from one address across accounts, and at one
// account from any number of addresses. Each sign-in field of an operation takes one from its
// client address's bucket and one from the bucket of each account it tries (app and account:
// sign-in-accounts.ts makes the spellings of one user one account), before the operation runs;
// over either, the operation is refused with RATE_LIMITED, and no REST call is made. What counts
// is a wrong password: a field that succeeds gives back what it took (`succeeded`), so a user
// signing in again and again is never held back by its own sign-ins, while guesses, which fail,
// stay counted. Charging first and refunding after (rather than charging failures after) keeps
// a burst of guesses sent at once within the limit. Both are token buckets (bucket.ts) in memory,
// or in Redis with REDIS_URL.
import type { GraphQLError } from 'graphql';
import type { RateLimit } from '../../config';
import { buckets, type Buckets } from './buckets';
import { keyDigest, type LimitOptions, rateLimited, type Transport, windowText } from './limiter';
import { type AccountSpellings, signInAccounts, type SignInAccounts } from './sign-in-accounts';

interface SignInLimiterOptions extends LimitOptions {
  /** Sign-in fields per client address; undefined: not limited. */
  address: RateLimit | undefined;
  /** Tries per account; undefined: not limited. */
  name: RateLimit | undefined;
  /** Reads a signed-in user's own spellings with its token (GET /user/profile); without it only the spellings tried are learned. */
  profile?: ((appId: string, token: string) => Promise<AccountSpellings>) | undefined;
}

/** What one operation tries: per sign-in field, the names it tries (a name tried twice, twice). */
export interface SignInTry {
  readonly address: string | undefined;
  readonly appId: string;
  readonly fields: readonly (readonly string[])[];
}

/** What an admitted operation took, per field (in the order of `SignInTry.fields`): what a success gives back. */
export type SignInCharge = readonly FieldCharge[];
interface FieldCharge {
  readonly address: string | undefined;
  readonly accounts: readonly string[];
}

/** A field that succeeded: the user it signed in as (and the token issued), when it answers them. */
export interface SignInSuccess {
  readonly userId?: string | undefined;
  readonly token?: string | undefined;
}

export interface SignInLimiter {
  start(): Promise<void>;
  /** Takes the operation's tries: the refusal to answer with, or what was taken. */
  admit(tried: SignInTry, transport: Transport): Promise<{ refused: GraphQLError } | { charged: SignInCharge }>;
  /** Field `index` of an admitted operation succeeded: gives its tries back, and learns the account's spellings. */
  succeeded(tried: SignInTry, charged: SignInCharge, index: number, success: SignInSuccess): Promise<void>;
  close(): Promise<void>;
}

interface Limit {
  readonly rate: RateLimit;
  readonly buckets: Buckets;
}

export function createSignInLimiter(options: SignInLimiterOptions, accounts: SignInAccounts = signInAccounts(options.now)): SignInLimiter {
  const limit = (rate: RateLimit | undefined, kind: string): Limit | undefined =>
    rate && {
      rate,
      buckets: buckets(rate, {
        redis: options.redis,
        space: ['sign-in', kind],
        onStoreFailure: options.onStoreFailure,
        now: options.now,
      }),
    };
  const byAddress = limit(options.address, 'address');
  const byName = limit(options.name, 'name');
  const limits = [byAddress, byName].filter((l): l is Limit => l !== undefined);
  const refuse = (what: string, rate: RateLimit, waitMs: number, transport: Transport) => {
    options.onRefused?.(transport, 1);
    return {
      refused: rateLimited(`Too many sign-in attempts ${what}: the limit is ${rate.limit} per ${windowText(rate.windowMs)}`, waitMs, rate),
    };
  };

  return {
    start: async () => {
      for (const l of limits) await l.buckets.start();
    },
    async admit({ address, appId, fields }, transport) {
      const addressKey = keyDigest([address ?? '']);
      if (byAddress && fields.length > 0) {
        const wait = await byAddress.buckets.take(addressKey, fields.length);
        if (wait > 0) return refuse('from this address', byAddress.rate, wait, transport);
      }
      const charged = fields.map((names) => ({
        address: byAddress ? addressKey : undefined,
        accounts: byName ? names.map((name) => keyDigest([appId, accounts.accountOf(appId, name)])) : [],
      }));
      const counts = new Map<string, number>();
      for (const key of charged.flatMap((c) => c.accounts)) counts.set(key, (counts.get(key) ?? 0) + 1);
      for (const [key, count] of counts) {
        const wait = await byName!.buckets.take(key, count);
        if (wait > 0) return refuse('for this account', byName!.rate, wait, transport);
      }
      return { charged };
    },
    async succeeded({ appId, fields }, charged, index, success) {
      const field = charged[index];
      if (!field) return;
      if (field.address !== undefined) await byAddress?.buckets.refund(field.address, 1);
      for (const key of field.accounts) await byName?.buckets.refund(key, 1);
      if (success.userId === undefined) return;
      const { token } = success;
      const profile = token !== undefined && options.profile ? () => options.profile!(appId, token) : undefined;
      accounts.learn(appId, success.userId, fields[index] ?? [], profile);
    },
    close: async () => {
      for (const l of limits) await l.buckets.close();
    },
  };
}
