// Cross-request coalescing: identical reads in flight at once, for the same identity, become one
// upstream call whose answer every waiter gets. A read is identical when the endpoint, its
// parameters and the identity the call forwards (token, app_id, user_id, and group_id where the
// endpoint takes that header) are. Only endpoints the table marks as reads are coalesced (also
// the few POST reads, such as POST /group/info/batch): never writes, never `issue` endpoints
// (each call hands out something new), never a call made with an abort signal (one waiter's
// abort must not fail the others; subscription polls pass signals), never downloads.
//
// A read that starts after a write has started (through this client, for any identity) never
// joins one that started before it: it may have to see what the write changed. The waiters
// share one reply object, as the resolvers of one request already do: it is read, never changed.
import type { Caller } from './caller';
import type { CallName, CallOptions, Reply, RestClient } from './client';
import { endpoints, type Endpoints } from './endpoints';
import { placement } from './placement';
import { stableKey } from './request-client';
import type { ParamsIn } from './table';

/** One identity field of a key: set or not, and no value can pass for another (header values hold no newline). */
const part = (value: string | undefined) => (value === undefined ? '\n-' : `\n=${value}`);

export function coalescing(client: RestClient): RestClient {
  const inFlight = new Map<string, { epoch: number; reply: Promise<unknown> }>();
  // Moves when a write starts and when it ends: reads in flight before then are not joined.
  let epoch = 0;
  const moveOn = () => {
    epoch++;
  };

  function call<K extends CallName>(name: K, params: ParamsIn<Endpoints[K]>, caller: Caller, opts?: CallOptions): Promise<Reply<K>> {
    const { effect } = endpoints[name];
    if (effect === 'write') {
      moveOn();
      const written = client.call(name, params, caller, opts);
      written.then(moveOn, moveOn);
      return written;
    }
    if (effect !== 'read' || opts?.signal) return client.call(name, params, caller, opts);
    const groupId = placement(name).groupIdHeader ? caller.groupId : undefined;
    const key = `${name}${part(caller.token)}${part(caller.appId)}${part(caller.userId)}${part(groupId)}\n${opts?.paramsKey ?? stableKey(params)}`;
    const known = inFlight.get(key);
    if (known && known.epoch === epoch) return known.reply as Promise<Reply<K>>;
    const reply = client.call(name, params, caller, opts);
    const entry = { epoch, reply };
    inFlight.set(key, entry);
    const settled = () => {
      if (inFlight.get(key) === entry) inFlight.delete(key);
    };
    reply.then(settled, settled);
    return reply;
  }

  return { call, download: client.download, close: client.close };
}
