// Subscription slots of WebSocket operations: at most `perSocket` open at once on one socket, and
// each takes its identity's slot (subscriptions/slots.ts). Every subscription operation counts,
// also one that shares its execution with others (shared-subscriptions.ts): each is a client's
// operation, and costs its client a slot. An operation is known by its `subscribe` message's
// payload, so that an ID the client reuses at once never releases its successor's slot.
import type { GraphQLError } from 'graphql';
import type { Identity } from '../../identity';
import type { SubscriptionSlots } from '../../subscriptions/slots';
import { subscriptionLimitError } from '../execution/subscription-limits';

export interface SocketSlots {
  /** Takes the operation's slots; answers the refusal when either limit is reached. */
  admit(socket: object, operation: object, identity: Identity): Promise<GraphQLError | undefined>;
  release(socket: object, operation: object): void;
  /** The socket closed: every slot of its operations is released. */
  releaseAll(socket: object): void;
  /** Operations refused at the per-socket limit, since the start. */
  refused(): number;
}

export function socketSlots(perSocket: number, slots: SubscriptionSlots): SocketSlots {
  /** Per socket, its operations' releases (undefined while the identity's slot is being taken). */
  const sockets = new Map<object, Map<object, (() => void) | undefined>>();
  let refused = 0;

  return {
    async admit(socket, operation, identity) {
      let held = sockets.get(socket);
      if (!held) sockets.set(socket, (held = new Map()));
      if (held.size >= perSocket) {
        refused++;
        return subscriptionLimitError('socket', perSocket);
      }
      // Counted at once: operations sent together are held to the limit while they wait below.
      held.set(operation, undefined);
      const admission = await slots.acquire(identity);
      if (!admission.admitted) {
        held.delete(operation);
        return subscriptionLimitError('identity', admission.limit);
      }
      // The socket closed (or the operation ended) meanwhile: nothing holds the slot any more.
      if (sockets.get(socket) !== held || !held.has(operation)) admission.release();
      else held.set(operation, admission.release);
      return undefined;
    },
    release(socket, operation) {
      const held = sockets.get(socket);
      if (!held?.has(operation)) return;
      held.get(operation)?.();
      held.delete(operation);
      if (held.size === 0) sockets.delete(socket);
    },
    releaseAll(socket) {
      const held = sockets.get(socket);
      sockets.delete(socket);
      for (const release of held?.values() ?? []) release?.();
    },
    refused: () => refused,
  };
}
