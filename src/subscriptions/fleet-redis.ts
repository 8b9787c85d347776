// Multi-replica mode: replicas share one poller per topic through Redis. A replica with
// subscribers for a topic subscribes to its channel and replays its snapshot; if nobody holds the
// topic's lease it takes it and polls, publishing through Redis to every replica (itself
// included). Holders renew their leases every tick; the others try to take them, so a dead
// holder's topics move to a live replica within two intervals, resuming from the snapshot.
//
// When Redis goes away (a connection closes, a command times out) every replica polls its own
// topics itself, from where its subscribers stand (topic.ts), until Redis is back. Then each
// topic rejoins: it replays the snapshot if there is one (a stream behind it catches up), else one
// replica takes the lease and resumes from its own position, announcing it; the others keep
// polling for themselves until that announcement is in Redis.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { decodeEvent, decodeSnapshot, encode } from './events';
import { type Fleet, pollerOptions, type PollSettings } from './fleet';
import type { SharedRedis } from '../redis/shared-redis';
import { withScripts } from '../redis/scripts';
import { LEASE_SCRIPTS, type LeaseTimings, leaseTimings, type TopicKeys, topicKeys } from './lease';
import { Poller } from './poller';
import type { Topic } from './topic';
import { warner } from './warn';

interface RedisFleetOptions extends PollSettings {
  /** The gateway's Redis, connected (src/redis/): its two connections, and the topics' keys. */
  redis: SharedRedis;
}

interface Entry {
  readonly topic: Topic<unknown>;
  readonly keys: TopicKeys;
  /** Subscribed and the snapshot replayed (after any earlier entry of the key has left). */
  ready: Promise<void>;
  /** setUp is under way (the tick retries one that failed). */
  settingUp: boolean;
  joined: boolean;
  left: boolean;
  /** An acquisition under way. */
  acquiring?: Promise<void>;
  /** While this replica holds the lease. */
  held?: { token: string; poller: Poller<unknown> };
  /** While the topic is not fed through Redis (Redis away, or back without this poll): our own. */
  local?: Poller<unknown>;
}

const warn = warner('subscriptions (Redis)');

/**
 * The fleet on the gateway's Redis, once it is connected. The connections' command timeout
 * (src/redis/policy.ts) also catches a silent partition: the fleet then polls in process.
 */
export function redisFleet(options: RedisFleetOptions): Fleet {
  return new RedisFleet(withScripts(options.redis, LEASE_SCRIPTS)(), options.redis.subscriber, options);
}

class RedisFleet implements Fleet {
  private readonly entries = new Map<string, Entry>();
  /** Keys whose last entry is still leaving: a new entry of the key waits for it. */
  private readonly leaving = new Map<string, Promise<void>>();
  private readonly timings: LeaseTimings;
  private readonly replica = randomBytes(8).toString('hex');
  private tokens = 0;
  private readonly timer: NodeJS.Timeout;
  private ticking = false;
  /** Both connections up (as far as we know): topics are fed through Redis. */
  private online = true;
  private closing = false;

  constructor(
    private readonly cmd: Redis,
    private readonly sub: Redis,
    private readonly options: RedisFleetOptions,
  ) {
    this.timings = leaseTimings(options.intervalMs);
    // The subscriber connection is shared (src/redis/shared-redis.ts): other channels are not ours.
    sub.on('message', (channel: string, text: string) => {
      const entry = this.entries.get(channel);
      if (!entry) return;
      let event: ReturnType<typeof decodeEvent>;
      try {
        event = decodeEvent(text);
      } catch (err) {
        return warn(`an event could not be read: ${(err as Error).message}`); // not ours: a foreign publisher
      }
      entry.topic.receive(event);
    });
    for (const client of [cmd, sub]) {
      client.on('close', () => this.goOffline());
      client.on('ready', () => this.comeBack());
    }
    this.timer = setInterval(() => void this.tick(), this.timings.tickMs);
    this.timer.unref();
  }

  join(topic: Topic<unknown>): void {
    const keys = topicKeys(this.options.redis.key, topic.key);
    const entry: Entry = { topic, keys, ready: Promise.resolve(), settingUp: false, joined: false, left: false };
    this.entries.set(keys.channel, entry);
    // Offline: polled here from its first round, so a new subscriber gets fresh values.
    if (!this.online) this.pollHere(entry);
    else this.startSetUp(entry, this.leaving.get(topic.key) ?? Promise.resolve());
  }

  private get reachable(): boolean {
    return this.cmd.status === 'ready' && this.sub.status === 'ready';
  }

  /** Redis is away: every topic is polled here until it returns. */
  private goOffline(): void {
    if (!this.online || this.closing) return;
    this.online = false;
    warn('Redis is unreachable: each replica polls its own subscriptions until it returns');
    for (const entry of this.entries.values()) this.pollHere(entry);
  }

  private comeBack(): void {
    if (this.online || this.closing || !this.reachable) return;
    this.online = true;
    warn('Redis is back: subscriptions share their pollers again');
    void this.tick();
  }

  /** Feeds the topic from a poller of this replica's, from where its subscribers stand. */
  private pollHere(entry: Entry): void {
    entry.joined = false;
    const held = entry.held;
    entry.held = undefined;
    void held?.poller.stop();
    if (entry.local || entry.left) return;
    const { topic } = entry;
    const from = topic.position();
    entry.local = new Poller({
      ...pollerOptions(this.options, topic),
      ...(from ? { from } : {}),
      publish: async ({ event }) => {
        if (event) topic.receive(event);
        return true;
      },
    });
    entry.local.start();
  }

  private stopPollingHere(entry: Entry): void {
    void entry.local?.stop();
    entry.local = undefined;
  }

  private startSetUp(entry: Entry, after: Promise<void>): void {
    entry.settingUp = true;
    entry.ready = after
      .then(() => this.setUp(entry))
      .catch((err: unknown) => warn(`joining a topic failed: ${(err as Error).message}`))
      .finally(() => {
        entry.settingUp = false;
      });
  }

  private async setUp(entry: Entry): Promise<void> {
    if (entry.left || !this.online) return;
    await this.sub.subscribe(entry.keys.channel);
    if (entry.left) return;
    const text = await this.cmd.get(entry.keys.snapshot);
    if (entry.left || !this.online) return;
    if (text) {
      // The shared poll's position: replayed (a stream behind it catches up by itself).
      entry.topic.restore(decodeSnapshot(text));
      this.stopPollingHere(entry);
      entry.joined = true;
    }
    // Whoever comes first polls; the others wait for the tick.
    const token = this.newToken();
    if ((await this.cmd.set(entry.keys.lease, token, 'PX', this.timings.leaseMs, 'NX')) === 'OK') {
      entry.joined = true;
      this.startHolding(entry, token);
    } else if (!entry.local) {
      // A holder's first publication is on its way through the channel.
      entry.joined = true;
    }
    // Else Redis came back empty and another replica took the lease: this one polls for itself
    // until the holder's announcement is in Redis (the next tick looks again).
  }

  private newToken(): string {
    return `${this.replica}:${++this.tokens}`;
  }

  private startHolding(entry: Entry, token: string): void {
    entry.acquiring = this.hold(entry, token)
      .catch((err: unknown) => warn(`taking a lease failed: ${(err as Error).message}`))
      .finally(() => {
        entry.acquiring = undefined;
      });
  }

  /**
   * Starts polling under the lease just taken, from the snapshot the last holder left, or when
   * Redis has none (it came back empty) from this topic's own position, announced at once.
   */
  private async hold(entry: Entry, token: string): Promise<void> {
    const { keys, topic } = entry;
    const text = entry.left ? null : await this.cmd.get(keys.snapshot);
    if (entry.left || !this.online) {
      await this.cmd.leaseRelease(keys.lease, token);
      return;
    }
    const from = text ? decodeSnapshot(text) : topic.position();
    const poller = new Poller({
      ...pollerOptions(this.options, topic),
      ...(from ? { from } : {}),
      announce: !text && from !== undefined,
      publish: async ({ snapshot, event }) => {
        const done = await this.cmd.leasePublish(
          keys.lease,
          keys.snapshot,
          token,
          keys.channel,
          snapshot ? encode(snapshot) : '',
          event ? encode(event) : '',
          this.timings.snapshotMs,
        );
        if (done === 1) return true;
        if (entry.held?.token === token) entry.held = undefined; // lost: the tick may take it again
        return false;
      },
      onPublishError: (err) => warn(`publishing failed: ${(err as Error).message}`),
    });
    entry.held = { token, poller };
    this.stopPollingHere(entry);
    poller.start();
  }

  /** Holders renew their leases; the others try to take free ones: one round trip for all. */
  private async tick(): Promise<void> {
    if (this.ticking || this.closing) return;
    if (!this.online) return this.comeBack();
    this.ticking = true;
    try {
      const pipeline = this.cmd.pipeline();
      const plan: { entry: Entry; token: string; renew: boolean }[] = [];
      const { leaseMs, snapshotMs } = this.timings;
      for (const entry of this.entries.values()) {
        if (!entry.joined && !entry.settingUp && !entry.left) this.startSetUp(entry, Promise.resolve());
        if (!entry.joined || entry.left || entry.acquiring) continue;
        if (entry.held) {
          pipeline.leaseRenew(entry.keys.lease, entry.keys.snapshot, entry.held.token, leaseMs, snapshotMs);
          plan.push({ entry, token: entry.held.token, renew: true });
        } else {
          const token = this.newToken();
          pipeline.set(entry.keys.lease, token, 'PX', leaseMs, 'NX');
          plan.push({ entry, token, renew: false });
        }
      }
      if (plan.length === 0) return;
      const results = (await pipeline.exec()) ?? [];
      plan.forEach(({ entry, token, renew }, i) => {
        const [err, reply] = results[i] ?? [new Error('no reply')];
        if (err) return warn(`lease ${renew ? 'renewal' : 'take-over'} failed: ${err.message}`);
        if (renew && reply === 0 && entry.held?.token === token) {
          // Lost (this replica stalled past the lease): another replica polls now.
          void entry.held.poller.stop();
          entry.held = undefined;
        } else if (!renew && reply === 'OK') {
          this.startHolding(entry, token);
        }
      });
    } catch (err) {
      warn(`lease tick failed: ${(err as Error).message}`);
      // No answer in time: treat the connection as lost (it reconnects; we poll here meanwhile).
      if (/timed? ?out/i.test((err as Error).message)) this.cmd.disconnect(true);
    } finally {
      this.ticking = false;
    }
  }

  poke(topic: Topic<unknown>): void {
    const entry = this.entries.get(topicKeys(this.options.redis.key, topic.key).channel);
    if (entry?.topic === topic) (entry.held?.poller ?? entry.local)?.poke();
  }

  async leave(topic: Topic<unknown>): Promise<void> {
    const keys = topicKeys(this.options.redis.key, topic.key);
    const entry = this.entries.get(keys.channel);
    if (!entry || entry.topic !== topic) return;
    entry.left = true;
    this.entries.delete(keys.channel);
    const done = this.tearDown(entry).catch((err: unknown) => warn(`leaving a topic failed: ${(err as Error).message}`));
    this.leaving.set(topic.key, done);
    await done;
    if (this.leaving.get(topic.key) === done) this.leaving.delete(topic.key);
  }

  private async tearDown(entry: Entry): Promise<void> {
    await entry.ready;
    await entry.acquiring;
    this.stopPollingHere(entry);
    const held = entry.held;
    entry.held = undefined;
    if (held) {
      await held.poller.stop();
      await this.cmd.leaseRelease(entry.keys.lease, held.token);
    }
    // A new entry of the key subscribes again once this one is gone (join waits for it).
    await this.sub.unsubscribe(entry.keys.channel);
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    await Promise.all([...this.entries.values()].map((e) => this.leave(e.topic)));
    await Promise.all(this.leaving.values());
    // The connections are the gateway's: closed with it.
  }
}
