// Cross-request coalescing: identical reads in flight at once, for the same identity, become one
// upstream call whose answer every waiter gets. A read is identical when the endpoint, its
// parameters and the identity the call forwards (token, app_id resolved as the client sends it,
// user_id, and group_id where the endpoint takes that header: src/identity.ts) are. Only endpoints the table marks as reads are coalesced (also
// the few POST reads, such as POST /group/info/batch): never writes, never `issue` endpoints
// (each call hands out something new), never a call made with an abort signal (one waiter's
// abort must not fail the others; subscription polls pass signals), never downloads.
//
// A read that starts after a write has started (through this client, for any identity, or a
// mutation: the write clock is the gateway's, rest/write-clock.ts) never joins one that started
// before it: it may have to see what the write changed. The waiters
// share one reply object, as the resolvers of one request already do: it is read, never changed.
import { type Caller, identityText } from '../identity';
import type { CallName, CallOptions, Reply, RestClient } from './client';
import { endpoints, type Endpoints } from './endpoints';
import { placement } from './placement';
import { stableKey } from './request-client';
import type { ParamsIn } from './table';
import { type WriteClock, writeClock } from './write-clock';

interface CoalescingOptions {
  /** The app_id the client sends for callers that name none: such a caller and one naming it are one identity. */
  defaultAppId?: string;
  /** Read your writes; default: a clock of this client's own. */
  writes?: WriteClock;
}

/** Which reads are one: the endpoint, the identity it forwards and the parameters' key. */
export function coalesceKey(name: CallName, caller: Caller, paramsKey: string, defaultAppId?: string): string {
  const groupId = placement(name).groupIdHeader ? caller.groupId : undefined;
  return `${name}\n${identityText(caller, defaultAppId, groupId)}\n${paramsKey}`;
}

export function coalescing(client: RestClient, { defaultAppId, writes = writeClock() }: CoalescingOptions = {}): RestClient {
  const inFlight = new Map<string, { epoch: number; reply: Promise<unknown> }>();
  // Ticks when a write starts and when it ends: reads in flight before then are not joined.
  const moveOn = () => writes.tick();

  function call<K extends CallName>(name: K, params: ParamsIn<Endpoints[K]>, caller: Caller, opts?: CallOptions): Promise<Reply<K>> {
    const { effect } = endpoints[name];
    if (effect === 'write') {
      moveOn();
      const written = client.call(name, params, caller, opts);
      written.then(moveOn, moveOn);
      return written;
    }
    if (effect !== 'read' || opts?.signal) return client.call(name, params, caller, opts);
    const key = coalesceKey(name, caller, opts?.paramsKey ?? stableKey(params), defaultAppId);
    const known = inFlight.get(key);
    if (known && known.epoch === writes.now) return known.reply as Promise<Reply<K>>;
    const reply = client.call(name, params, caller, opts);
    const entry = { epoch: writes.now, reply };
    inFlight.set(key, entry);
    const settled = () => {
      if (inFlight.get(key) === entry) inFlight.delete(key);
    };
    reply.then(settled, settled);
    return reply;
  }

  return { call, download: client.download, close: client.close };
}
