// The subscription limits as a client meets them: a subscription refused with SUBSCRIPTION_LIMIT
// (an `error` message over WebSocket, a result with errors over SSE), or admitted (its first
// result came); and a subscription retried until a slot frees (a release is the server's own
// business: a client sees it only by being admitted).
import type { Feed } from './clients';
import { EVENT_DEADLINE_MS, sleep } from '../wait';

type Extensions = Record<string, unknown>;

const limitOf = (errors: unknown): Extensions | undefined => {
  const first = (Array.isArray(errors) ? errors[0] : undefined) as { extensions?: Extensions } | undefined;
  return first?.extensions?.code === 'SUBSCRIPTION_LIMIT' ? first.extensions : undefined;
};

/** The refusal's extensions when the subscription was refused at a limit; undefined once its first result came. */
export async function limitRefusal(feed: Feed<unknown>): Promise<Extensions | undefined> {
  // The first result (taken), or the end: SSE sends a refusal as a result and then completes.
  const ending = await Promise.race([
    feed.next().then(
      () => undefined,
      () => feed.ending,
    ),
    feed.ending,
  ]);
  const first = feed.results[0];
  if (first) {
    const refused = limitOf(first.errors);
    if (refused || !first.errors) return refused;
    throw new Error(`unexpected errors: ${JSON.stringify(first.errors)}`);
  }
  const refused = ending && 'error' in ending ? limitOf(ending.error) : undefined;
  if (!refused) throw new Error(`the subscription ended: ${JSON.stringify(ending)}`);
  return refused;
}

/** Opens a subscription until one is admitted (a slot freed); answers it, its first result taken. */
export async function admittedEventually<T>(open: () => Feed<T>, ms = EVENT_DEADLINE_MS): Promise<Feed<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const feed = open();
    if (!(await limitRefusal(feed as Feed<unknown>))) return feed;
    await feed.close();
    if (Date.now() > deadline) throw new Error(`no slot freed within ${ms} ms`);
    await sleep(20);
  }
}
