// How a message the callback receiver accepted reaches every replica's subscribers: with Redis,
// published once on one channel to which every replica listens (itself included); without it, in
// process. The subscription machinery's only Redis use for callbacks, in one place, so that it
// moves to the shared Redis resource as a whole. Redis trouble degrades to this replica's own
// subscribers (the other replicas' polls, the safety net, find the message), never to a failure.
import type { Redis } from 'ioredis';
import type { CallbackMessage } from './callback-message';
import { parseJson, stringifyJson } from '../rest/json';
import { connectRedis } from './redis-connection';
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
const COMMAND_TIMEOUT_MS = 1_000;

export async function redisFanout(url: string, prefix: string, receive: Receive): Promise<CallbackFanout> {
  const [pub, sub] = (await connectRedis(url, ['im-gateway-callbacks', 'im-gateway-callbacks-sub'], {
    commandTimeoutMs: COMMAND_TIMEOUT_MS,
    warn,
  })) as [Redis, Redis];
  const channel = `${prefix}callbacks`;
  // Heard through a pattern that matches this one channel alone (glob characters escaped): the
  // channels PUBSUB CHANNELS lists stay the topics' (one per poll, what operators count), and any
  // Redis version serves it.
  const pattern = channel.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
  sub.on('pmessage', (_pattern: string, from: string, text: string) => {
    if (from !== channel) return;
    let message: CallbackMessage;
    try {
      message = parseJson(text) as CallbackMessage;
    } catch (err) {
      return warn(`a callback could not be read: ${(err as Error).message}`); // a foreign publisher
    }
    receive(message);
  });
  await sub.psubscribe(pattern);
  return {
    publish(message) {
      pub.publish(channel, stringifyJson(message)).catch((err: Error) => {
        warn(`publishing a callback failed (${err.message}): delivered on this replica only`);
        receive(message);
      });
    },
    async close() {
      await Promise.all([pub.quit(), sub.quit()]).catch(() => {
        pub.disconnect();
        sub.disconnect();
      });
    },
  };
}
