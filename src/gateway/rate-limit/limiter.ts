// Per-identity rate limits (RATE_LIMIT=<n>/<window>): every GraphQL operation an identity sends
// (an HTTP request, each operation of a batch, each WebSocket `subscribe`) takes one from its
// bucket (bucket.ts) before anything parses it; an empty bucket refuses it with RATE_LIMITED and
// when to retry. The identity is the caller as proven, never as claimed: a token the service has
// accepted for its app (token-proofs.ts) has a bucket of its own; any other caller (no token, a
// token not proven yet or refused, a real token with another app_id) shares its client address's
// bucket, so made-up tokens buy nothing; a token not proven yet also takes from its own bucket, so
// its proof gives it no second burst. Keys are digests, never tokens. Buckets are shared
// through Redis when REDIS_URL is set, else kept in memory. If Redis cannot answer, the operation
// is let through (and counted): a rate limit never fails a request.
import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import type { RateLimit } from '../../config';
import { appIdOf, type Caller } from '../../identity';
import type { SharedRedis } from '../../redis/shared-redis';
import { buckets } from './buckets';
import type { TokenProofs } from './token-proofs';

/** Who sends an operation: the caller it names and the address it comes from (an Identity is one). */
export interface Sender {
  readonly caller: Caller;
  readonly address: string | undefined;
}

export type Transport = 'http' | 'ws';

/** What the limits of one request's effects (sign-in, fan-out) take besides their rates. */
export interface LimitOptions {
  /** Set: buckets shared by every replica on this Redis. */
  redis?: SharedRedis | undefined;
  /** Operations refused. */
  onRefused?: ((transport: Transport, operations: number) => void) | undefined;
  /** A take let through because Redis could not answer. */
  onStoreFailure?: (() => void) | undefined;
  /** Default Date.now (tests move their own clock). */
  now?: (() => number) | undefined;
}

interface RateLimiterOptions extends RateLimit {
  /** The app of callers that name none. */
  defaultAppId: string;
  /** The tokens proven so far; without it every caller is known by its address. */
  proofs?: TokenProofs;
  /** Set: buckets shared by every replica on this Redis (keys `ratelimit:<digest>`). */
  redis?: SharedRedis | undefined;
  /** Operations refused (a batch's all together). */
  onRefused?: (transport: Transport, operations: number) => void;
  /** An operation let through because Redis could not answer. */
  onStoreFailure?: () => void;
  /** Default Date.now (tests move their own clock). */
  now?: () => number;
  /** Default: the process's logger, at `warn`. */
  log?: (line: string) => void;
}

export interface RateLimiter {
  /** Readies the buckets (never fails: the limit is open until Redis answers). */
  start(): Promise<void>;
  /** Takes `cost` operations for the sender: the refusal to answer with, or undefined when allowed. */
  admit(sender: Sender, cost: number, transport: Transport): Promise<GraphQLError | undefined>;
  close(): Promise<void>;
}

/**
 * The sender's bucket: a digest of app and token once the token is proven (the acting user and
 * group share the token's bucket), else of the address.
 */
export function bucketKey({ caller, address }: Sender, defaultAppId: string, proven: (caller: Caller) => boolean): string {
  const parts =
    caller.token !== undefined && proven(caller) ? ['token', appIdOf(caller, defaultAppId), caller.token] : ['address', address ?? ''];
  return keyDigest(parts);
}

/** A bucket's key from its parts: never a token or an address in the clear. */
export function keyDigest(parts: readonly string[]): string {
  // JSON keeps the parts apart; 128 bits of the digest are plenty to tell identities apart.
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

/** `1s`, `500ms`, `10m`: the window as RATE_LIMIT would write it. */
export const windowText = (ms: number) =>
  ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : ms % 60_000 === 0 ? `${ms / 60_000}m` : ms % 1_000 === 0 ? `${ms / 1_000}s` : `${ms}ms`;

/** The refusal: HTTP 429 with Retry-After (whole seconds, at least 1), and the same in extensions. */
export function rateLimited(message: string, retryAfterMs: number, rate: RateLimit): GraphQLError {
  const retryAfter = Math.max(1, Math.ceil(retryAfterMs / 1_000));
  return new GraphQLError(`${message}; retry after ${retryAfter} s`, {
    extensions: {
      code: 'RATE_LIMITED',
      retryAfter,
      limit: rate.limit,
      window: windowText(rate.windowMs),
      http: { status: 429, headers: { 'retry-after': String(retryAfter) } },
    },
  });
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const rate = { limit: options.limit, windowMs: options.windowMs };
  const per = `${rate.limit} operations per ${windowText(rate.windowMs)}`;
  const store = buckets(rate, {
    redis: options.redis,
    space: ['ratelimit'],
    onStoreFailure: options.onStoreFailure,
    now: options.now,
    log: options.log,
  });
  const proofs = options.proofs;
  const proven = proofs ? proofs.isProven : () => false;
  const asProven = () => true;
  /**
   * A proven token takes from its own bucket. Any other caller from its address's; an unproven
   * token from its own as well (once the address allowed it), so that its bucket is not full when
   * its proof arrives: otherwise a new user gets the address's burst and then a whole one of its
   * own, per replica (issue 40: 10 of a burst of 12 through two replicas at RATE_LIMIT=5/1s).
   */
  const takeFor = async (sender: Sender, cost: number): Promise<number> => {
    const waitMs = await store.take(bucketKey(sender, options.defaultAppId, proven), cost);
    // Without proofs no token is ever its own identity: the address is the whole story.
    if (waitMs > 0 || !proofs || sender.caller.token === undefined || proven(sender.caller)) return waitMs;
    return store.take(bucketKey(sender, options.defaultAppId, asProven), cost);
  };

  return {
    start: () => store.start(),
    async admit(sender, cost, transport) {
      if (cost > rate.limit) {
        // No wait lets it through: the whole window is the honest answer, and the message says why.
        options.onRefused?.(transport, cost);
        return rateLimited(
          `This request holds ${cost} operations, more than the rate limit of ${per} lets through at once`,
          rate.windowMs,
          rate,
        );
      }
      const waitMs = await takeFor(sender, cost);
      if (waitMs === 0) return undefined;
      // A real token behind a busy shared address would wait for it for ever: its proof lets it out.
      if (sender.caller.token !== undefined) proofs?.prove(sender.caller, sender.address);
      options.onRefused?.(transport, cost);
      return rateLimited(`Too many operations: the rate limit is ${per} for each identity`, waitMs, rate);
    },
    close: () => store.close(),
  };
}
