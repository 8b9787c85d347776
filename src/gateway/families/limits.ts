// The limits family: what bounds a caller's use of the gateway — the rate limit (its identities
// proven by the record of accepted tokens), the sign-in limits, the bounds on cost in flight
// (admission) and the subscription slots per socket and identity; shared through Redis when set.
import type { Config } from '../../config';
import type { Identity } from '../../identity';
import type { RestClient } from '../../rest/client';
import type { ProvenTokens } from '../../rest/proven-tokens';
import type { BackgroundGate } from '../../rest/background';
import type { SharedRedis } from '../../redis/shared-redis';
import { subscriptionSlots } from '../../subscriptions/slots';
import { Admission } from '../admission/admission';
import type { Resource } from '../lifecycle/resources';
import type { GatewayMetrics, LimitStats } from '../observability/metrics';
import { bucketKey, createRateLimiter } from '../rate-limit/limiter';
import { accountLimits } from '../rate-limit/account-limits';
import { tokenProofs } from '../rate-limit/token-proofs';
import { socketSlots } from '../ws/socket-slots';

interface LimitsParts {
  readonly redis: SharedRedis | undefined;
  readonly tokens: ProvenTokens;
  readonly rest: Pick<RestClient, 'call'>;
  readonly pollGate: BackgroundGate;
  readonly metrics: GatewayMetrics | undefined;
  /** How long a dead replica's subscription slots outlive it in Redis (tests shorten it). */
  readonly subscriptionLeaseMs: number | undefined;
}

export function limitsFamily(config: Config, { redis, tokens, rest, pollGate, metrics, subscriptionLeaseMs }: LimitsParts) {
  // The rate limit's identities, and their proofs in the background (rate-limit/token-proofs.ts).
  const proofs = config.rateLimit && tokenProofs({ defaultAppId: config.imAppId, tokens, rate: config.rateLimit, rest: () => rest });
  const counted = metrics ? { onRefused: metrics.rateLimited, onStoreFailure: metrics.rateLimitStoreFailure } : {};
  const limiter =
    config.rateLimit &&
    createRateLimiter({ ...config.rateLimit, defaultAppId: config.imAppId, redis, ...(proofs ? { proofs } : {}), ...counted });
  // Guessing passwords (per address and account), registrations per address, recipients per identity.
  const accounts = accountLimits(config, {
    redis,
    ownProfile: async (caller) => (await rest.call('GET /user/profile', {}, caller)).data,
    ...counted,
  });
  // At most so many subscriptions per identity, over every transport and replica.
  const slots = subscriptionSlots({
    limit: config.maxSubscriptionsPerIdentity,
    redis,
    ...(subscriptionLeaseMs ? { leaseMs: subscriptionLeaseMs } : {}),
  });
  const wsSlots = socketSlots(config.maxSubscriptionsPerSocket, slots);
  const stats = (): LimitStats => {
    const { refused, failedOpen } = slots.stats();
    return { refused: { socket: wsSlots.refused(), identity: refused }, failedOpen, pollsQueued: pollGate.stats().queued };
  };
  const resources: (Resource | undefined)[] = [
    limiter ? { name: 'rate-limit', start: () => limiter.start(), close: () => limiter.close() } : undefined,
    ...accounts.resources,
    // Drained after the sockets and the hub (made after it): their subscriptions give their slots back first.
    { name: 'subscription-slots', start: () => slots.start(), drain: () => slots.close() },
  ];
  return {
    limiter: limiter || undefined,
    signInLimiter: accounts.signIn,
    fanOutLimiter: accounts.fanOut,
    // Bounds the estimated cost in flight per identity and on this replica (gateway/admission/).
    admission: new Admission({
      replica: config.maxCostInFlight,
      perIdentity: config.maxCostInFlightPerIdentity,
      queue: config.admissionQueue,
      waitMs: config.admissionWaitMs,
    }),
    // With proofs (RATE_LIMIT set), the rate limit's bucket: an unproven token counts as its address.
    admissionKey: proofs ? (identity: Identity) => bucketKey(identity, config.imAppId, proofs.isProven) : undefined,
    slots,
    wsSlots,
    stats,
    resources,
  };
}

export type LimitsFamily = ReturnType<typeof limitsFamily>;
