// The sign-in limits (SIGN_IN_LIMIT_ADDRESS, SIGN_IN_LIMIT_NAME; on by default, RATE_LIMIT or
// not): a password can be guessed only so fast, from one address across names, and at one name
// from any number of addresses. Each sign-in field of an operation takes one from its client
// address's bucket and one from the bucket of each login name it tries (app and name), before the
// operation runs; over either, the operation is refused with RATE_LIMITED, and no REST call is
// made. Both are token buckets (bucket.ts) in memory, or in Redis with REDIS_URL.
import { createHash } from 'node:crypto';
import type { GraphQLError } from 'graphql';
import type { RateLimit } from '../../config';
import type { SharedRedis } from '../../redis/shared-redis';
import { buckets, type Buckets } from './buckets';
import { rateLimited, type Transport, windowText } from './limiter';

interface SignInLimiterOptions {
  /** Sign-in fields per client address; undefined: not limited. */
  address: RateLimit | undefined;
  /** Tries per login name; undefined: not limited. */
  name: RateLimit | undefined;
  /** Set: buckets shared by every replica on this Redis (keys `sign-in:<kind>:<digest>`). */
  redis?: SharedRedis | undefined;
  /** Operations refused. */
  onRefused?: ((transport: Transport, operations: number) => void) | undefined;
  onStoreFailure?: (() => void) | undefined;
  now?: (() => number) | undefined;
}

/** What one operation tries: its sign-in fields, and the names they try (a name tried twice, twice). */
export interface SignInTry {
  readonly address: string | undefined;
  readonly appId: string;
  readonly fields: number;
  readonly names: readonly string[];
}

export interface SignInLimiter {
  start(): Promise<void>;
  /** Takes the operation's tries: the refusal to answer with, or undefined when allowed. */
  admit(tried: SignInTry, transport: Transport): Promise<GraphQLError | undefined>;
  close(): Promise<void>;
}

const digest = (parts: readonly string[]) => createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);

interface Limit {
  readonly rate: RateLimit;
  readonly buckets: Buckets;
}

export function createSignInLimiter(options: SignInLimiterOptions): SignInLimiter {
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
    return rateLimited(`Too many sign-in attempts ${what}: the limit is ${rate.limit} per ${windowText(rate.windowMs)}`, waitMs, rate);
  };

  return {
    start: async () => {
      for (const l of limits) await l.buckets.start();
    },
    async admit({ address, appId, fields, names }, transport) {
      if (byAddress && fields > 0) {
        const wait = await byAddress.buckets.take(digest([address ?? '']), fields);
        if (wait > 0) return refuse('from this address', byAddress.rate, wait, transport);
      }
      if (byName) {
        const counts = new Map<string, number>();
        for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
        for (const [name, count] of counts) {
          const wait = await byName.buckets.take(digest([appId, name]), count);
          if (wait > 0) return refuse('for this login name', byName.rate, wait, transport);
        }
      }
      return undefined;
    },
    close: async () => {
      for (const l of limits) await l.buckets.close();
    },
  };
}
