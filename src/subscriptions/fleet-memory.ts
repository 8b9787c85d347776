// Single-process mode: one poller per topic, publishing straight to it.
import { type Fleet, pollerOptions, type PollSettings } from './fleet';
import { Poller } from './poller';
import type { Topic } from './topic';

export function memoryFleet(settings: PollSettings): Fleet {
  const pollers = new Map<Topic<unknown>, Poller<unknown>>();
  return {
    join(topic) {
      const poller = new Poller({
        ...pollerOptions(settings, topic),
        publish: async ({ event }) => {
          if (event) topic.receive(event);
          return true;
        },
      });
      pollers.set(topic, poller);
      poller.start();
    },
    poke(topic) {
      pollers.get(topic)?.poke();
    },
    async leave(topic) {
      const poller = pollers.get(topic);
      pollers.delete(topic);
      await poller?.stop();
    },
    async close() {
      const all = [...pollers.values()];
      pollers.clear();
      await Promise.all(all.map((p) => p.stop()));
    },
  };
}
