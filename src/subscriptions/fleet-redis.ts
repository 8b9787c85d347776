// Multi-replica mode: replicas share one poller per topic through Redis. A replica with
// subscribers for a topic subscribes to its channel and replays its snapshot; if nobody holds the
// topic's lease it takes it and polls, publishing through Redis to every replica (itself
// included). Holders renew their leases every tick; the others try to take them, so a dead
// holder's topics move to a live replica within two intervals, resuming from the snapshot.
import { randomBytes } from 'node:crypto';
import type { Redis, RedisOptions } from 'ioredis';
import { decodeEvent, decodeSnapshot, encode } from './events';
import type { Fleet, PollSettings } from './fleet';
import { defineLeaseScripts, type LeaseTimings, leaseTimings, type TopicKeys, topicKeys } from './lease';
import { Poller } from './poller';
import type { Topic } from './topic';
import { warner } from './warn';

export interface RedisFleetOptions extends PollSettings {
  url: string;
  /** Prepended to every key and channel (several deployments, or tests, may share one Redis). */
  prefix: string;
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
}

const warn = warner('subscriptions (Redis)');

/** Connects (failing with a clear message when Redis cannot be reached) and answers the fleet. */
export async function redisFleet(options: RedisFleetOptions): Promise<Fleet> {
  // Loaded only in this mode: without REDIS_URL the gateway never needs the package.
  const { Redis } = await import('ioredis');
  const connection: RedisOptions = { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 5_000 };
  const cmd = new Redis(options.url, { ...connection, connectionName: 'im-gateway' });
  const sub = new Redis(options.url, { ...connection, connectionName: 'im-gateway-sub' });
  let connecting = true;
  let cause = '';
  for (const client of [cmd, sub]) {
    client.on('error', (err: Error) => (connecting ? (cause = err.message) : warn(err.message)));
  }
  try {
    await Promise.all([cmd.connect(), sub.connect()]);
    connecting = false;
  } catch (err) {
    cmd.disconnect();
    sub.disconnect();
    throw new Error(`cannot connect to Redis at ${new URL(options.url).host}: ${cause || (err as Error).message}`);
  }
  defineLeaseScripts(cmd);
  return new RedisFleet(cmd, sub, options);
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

  constructor(
    private readonly cmd: Redis,
    private readonly sub: Redis,
    private readonly options: RedisFleetOptions,
  ) {
    this.timings = leaseTimings(options.intervalMs);
    sub.on('message', (channel: string, text: string) => {
      let event: ReturnType<typeof decodeEvent>;
      try {
        event = decodeEvent(text);
      } catch (err) {
        return warn(`an event could not be read: ${(err as Error).message}`); // not ours: a foreign publisher
      }
      this.entries.get(channel)?.topic.receive(event);
    });
    this.timer = setInterval(() => void this.tick(), this.timings.tickMs);
    this.timer.unref();
  }

  join(topic: Topic<unknown>): void {
    const keys = topicKeys(this.options.prefix, topic.key);
    const entry: Entry = { topic, keys, ready: Promise.resolve(), settingUp: false, joined: false, left: false };
    this.entries.set(keys.channel, entry);
    this.startSetUp(entry, this.leaving.get(topic.key) ?? Promise.resolve());
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
    if (entry.left) return;
    await this.sub.subscribe(entry.keys.channel);
    if (entry.left) return;
    const text = await this.cmd.get(entry.keys.snapshot);
    if (text && !entry.left) entry.topic.restore(decodeSnapshot(text));
    entry.joined = true;
    // Whoever comes first polls; the others wait for the tick.
    const token = this.newToken();
    if ((await this.cmd.set(entry.keys.lease, token, 'PX', this.timings.leaseMs, 'NX')) === 'OK') this.startHolding(entry, token);
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

  /** Starts polling under the lease just taken, from the snapshot the last holder left. */
  private async hold(entry: Entry, token: string): Promise<void> {
    const { keys, topic } = entry;
    const text = entry.left ? null : await this.cmd.get(keys.snapshot);
    if (entry.left) {
      await this.cmd.leaseRelease(keys.lease, token);
      return;
    }
    const poller = new Poller({
      rest: this.options.rest,
      intervalMs: this.options.intervalMs,
      source: topic.source,
      caller: topic.caller,
      ...(text ? { from: decodeSnapshot(text) } : {}),
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
    poller.start();
  }

  /** Holders renew their leases; the others try to take free ones: one round trip for all. */
  private async tick(): Promise<void> {
    if (this.ticking) return;
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
    } finally {
      this.ticking = false;
    }
  }

  async leave(topic: Topic<unknown>): Promise<void> {
    const keys = topicKeys(this.options.prefix, topic.key);
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
    clearInterval(this.timer);
    await Promise.all([...this.entries.values()].map((e) => this.leave(e.topic)));
    await Promise.all(this.leaving.values());
    await Promise.all([this.cmd.quit(), this.sub.quit()]).catch(() => {
      this.cmd.disconnect();
      this.sub.disconnect();
    });
  }
}
