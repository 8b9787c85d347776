// How a message the callback receiver accepted reaches every replica's subscribers: with Redis,
// published once on one channel to which every replica listens (itself included); without it, in
// process. On the gateway's one Redis resource (src/redis/): its command connection publishes,
// its subscriber connection listens. Redis trouble degrades to this replica's own
// subscribers (the other replicas' polls, the safety net, find the message), never to a failure.
import type { SharedRedis } from '../redis/shared-redis';
import type { CallbackMessage } from './callback-message';
import { parseJson, stringifyJson } from '../rest/json';
import { warner } from './warn';

export interface CallbackFanout {
  publish(message: CallbackMessage): void;
  close(): Promise<void>;
}

type Receive = (message: CallbackMessage) => void;

/** In process: the message is handled here, after the receiver's own turn (it answers first). */
export function localFanout(receive: Receive): CallbackFanout {
  return {
    publish: (message) => setImmediate(() => receive(message)),
    close: () => Promise.resolve(),
  };
}

const warn = warner('subscriptions (callbacks)');

export async function redisFanout(redis: SharedRedis, receive: Receive): Promise<CallbackFanout> {
  const channel = redis.key('callbacks');
  // Heard through a pattern that matches this one channel alone (glob characters escaped): the
  // channels PUBSUB CHANNELS lists stay the topics' (one per poll, what operators count), and any
  // Redis version serves it.
  const pattern = channel.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
  const heard = (_pattern: string, from: string, text: string) => {
    if (from !== channel) return;
    let message: CallbackMessage;
    try {
      message = parseJson(text) as CallbackMessage;
    } catch (err) {
      return warn(`a callback could not be read: ${(err as Error).message}`); // a foreign publisher
    }
    receive(message);
  };
  const sub = redis.subscriber;
  sub.on('pmessage', heard);
  await sub.psubscribe(pattern);
  return {
    publish(message) {
      redis.command.publish(channel, stringifyJson(message)).catch((err: Error) => {
        warn(`publishing a callback failed (${err.message}): delivered on this replica only`);
        receive(message);
      });
    },
    async close() {
      // The connections are the resource's (closed after every store): only this listener goes.
      sub.off('pmessage', heard);
      await sub.punsubscribe(pattern).catch(() => undefined);
    },
  };
}
