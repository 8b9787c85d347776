// The fan-out limits (REGISTRATION_LIMIT_ADDRESS, RECIPIENT_LIMIT; on by default, RATE_LIMIT or
// not): what one request does to others is charged by how many others it touches, not as one
// operation (issue 40: one tokenless registerUsers of 999 names × 5 took one address charge; one
// new account sent 60,000 friend requests in 1.8 s). Before a mutation runs, its root fields'
// declarations (schema/core/fan-out.ts) are summed, every alias and fragment: the users it
// registers are taken from its client address's registration bucket, the recipients it reaches
// from its identity's recipient bucket (a token's own, or the address's without one). Over either
// (or more at once than a bucket holds), the operation is refused whole with RATE_LIMITED and no
// REST call is made. Token buckets (bucket.ts) in memory, or in Redis with REDIS_URL.
import type { GraphQLError } from 'graphql';
import type { RateLimit } from '../../config';
import { buckets, type Buckets } from './buckets';
import { keyDigest, type LimitOptions, rateLimited, type Transport, windowText } from './limiter';

interface FanOutLimiterOptions extends LimitOptions {
  /** Users registered per client address; undefined: not limited. */
  registration: RateLimit | undefined;
  /** Recipients per identity; undefined: not limited. */
  recipients: RateLimit | undefined;
}

/** What one operation does to others. */
export interface FanOutCharge {
  readonly address: string | undefined;
  /** The identity's key when it carries a token; undefined: the address stands for it. */
  readonly identityKey: string | undefined;
  readonly registers: number;
  readonly recipients: number;
}

export interface FanOutLimiter {
  start(): Promise<void>;
  /** Takes the operation's registrations and recipients: the refusal to answer with, or undefined when allowed. */
  admit(charge: FanOutCharge, transport: Transport): Promise<GraphQLError | undefined>;
  close(): Promise<void>;
}

interface Limit {
  readonly rate: RateLimit;
  readonly buckets: Buckets;
  /** What is counted, plural: the refusal's words. */
  readonly what: string;
}

export function createFanOutLimiter(options: FanOutLimiterOptions): FanOutLimiter {
  const limit = (rate: RateLimit | undefined, kind: string, what: string): Limit | undefined =>
    rate && {
      rate,
      what,
      buckets: buckets(rate, {
        redis: options.redis,
        space: [kind],
        onStoreFailure: options.onStoreFailure,
        now: options.now,
      }),
    };
  const registration = limit(options.registration, 'registration', 'users registered from this address');
  const recipients = limit(options.recipients, 'recipients', 'recipients reached by this caller');
  const limits = [registration, recipients].filter((l): l is Limit => l !== undefined);

  /** Takes `cost` from `key`'s bucket of `l`: the refusal, or undefined. */
  const take = async (l: Limit | undefined, key: string, cost: number, transport: Transport) => {
    if (!l || cost <= 0) return undefined;
    const per = `${l.rate.limit} per ${windowText(l.rate.windowMs)}`;
    if (cost > l.rate.limit) {
      // No wait lets it through: the whole window is the honest answer, and the message says why.
      options.onRefused?.(transport, 1);
      return rateLimited(
        `This operation counts ${cost} ${l.what}, more than the limit of ${per} lets through at once`,
        l.rate.windowMs,
        l.rate,
      );
    }
    const wait = await l.buckets.take(key, cost);
    if (wait === 0) return undefined;
    options.onRefused?.(transport, 1);
    return rateLimited(`Too many ${l.what}: the limit is ${per}`, wait, l.rate);
  };

  return {
    start: async () => {
      for (const l of limits) await l.buckets.start();
    },
    async admit(charge, transport) {
      const address = keyDigest(['address', charge.address ?? '']);
      return (
        (await take(registration, address, charge.registers, transport)) ??
        (await take(
          recipients,
          charge.identityKey === undefined ? address : keyDigest(['identity', charge.identityKey]),
          charge.recipients,
          transport,
        ))
      );
    },
    close: async () => {
      for (const l of limits) await l.buckets.close();
    },
  };
}
