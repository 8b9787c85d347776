// What the user mutations share: the UserPayload they answer, and how a write makes one.
import type { GatewayContext } from '../../context';
import { reaches } from '../core/builder';
import { cacheIdOf } from '../core/cache-id';
import { fromResult, payloadType } from '../core/mutation';
import { type UserParent, UserRef } from '../core/refs';
import { forgetPublicFace } from './peers';
import { actingUser, userIdOf } from '../core/profile';

/** GraphQL gives absent optional arguments as null; REST params take undefined. */
export const orUndefined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** What a mutation changed about a user: the user (resolved lazily) and the service's answer. */
export interface UserChange {
  ok: boolean;
  user: UserParent;
  /** The device number removeDevice removed. */
  removedDevice?: number;
}

export const UserPayloadRef = payloadType<UserChange>('UserPayload', {
  description: 'The answer to a change of a user: whether the service accepted it, and the user to read back.',
  ok: (c) => c.ok,
  fields: (t) => ({
    user: t.field({
      type: UserRef,
      description: 'The changed user, read fresh (its fields cost REST calls only when selected); null when refused.',
      resolve: fromResult((c) => c.user),
    }),
    removedDeviceIds: t.field({
      type: ['ID'],
      nullable: false,
      description:
        "The devices removeDevice removed, as Device.id answers them (the request's ID format), for Relay's @deleteEdge or a " +
        "client cache's eviction; empty for other changes. The user's ID is read from its profile unless a user_id header names it.",
      extensions: reaches('GET /user/profile'),
      resolve: async (p, _args, ctx) => {
        const c = p.result;
        if (!c?.ok || c.removedDevice === undefined) return [];
        return [cacheIdOf(ctx, 'Device', [await userIdOf(c.user, ctx), c.removedDevice])];
      },
    }),
  }),
});

/** The payload of a write: `ok` from the service's data (an object counts as success). */
export function changed(data: unknown, user: UserParent): UserChange {
  return { ok: data !== false, user };
}

/** A write of the acting user with one REST call, answering the UserPayload. */
export const byActingUser = async (ctx: GatewayContext, write: Promise<{ data: unknown }>) => changed((await write).data, actingUser(ctx));

/**
 * The same for a write of the user's public face (nickname, avatar, public info): once it
 * succeeded, the app's cache of that face is forgotten, so the user's next list shows the change.
 */
export async function byActingUserFace(ctx: GatewayContext, write: Promise<{ data: unknown }>): Promise<UserChange> {
  const change = await byActingUser(ctx, write);
  await forgetPublicFace(ctx);
  return change;
}
