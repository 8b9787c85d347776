// What the roster mutations answer: the user they changed and the acting user, both read fresh
// after the write (the request's loaders go with it), so a normalized client cache takes the new
// relation, notes and lists from the payload alone (select `me { friends(first: …) { … } }`).
import type { FieldMap, ObjectFieldBuilder } from '@pothos/core';
import type { Int64 } from '../../rest/json';
import type { SchemaTypes } from '../core/builder';
import { fromResult, type Outcome, payloadType } from '../core/mutation';
import { UserRef } from '../core/refs';
import { actingUser } from '../core/profile';

type PayloadFields<T> = (t: ObjectFieldBuilder<SchemaTypes, Outcome<T>>) => FieldMap;

/** A write about one other user: whether the service said it was done, and who. */
export interface ContactChange {
  ok: boolean;
  userId: Int64;
}

/** The ok of a write answering boolean data. */
export const contactChange = (data: unknown, userId: Int64): ContactChange => ({ ok: data !== false, userId });

/** `me`: the acting user after the write; null when refused. */
export const meField = <T>(t: ObjectFieldBuilder<SchemaTypes, Outcome<T>>) =>
  t.field({
    type: UserRef,
    description:
      'The acting user after the change, read fresh: select the lists it changed (friends, blockedUsers, friendRequests) ' +
      'with the arguments your screen uses and a normalized cache shows them current. Null when refused.',
    resolve: fromResult((_c: T, ctx) => actingUser(ctx)),
  });

/** `user`: the other user after the write (its relation, notes); null when refused. */
export const userField = <T extends { userId: Int64 }>(t: ObjectFieldBuilder<SchemaTypes, Outcome<T>>) =>
  t.field({
    type: UserRef,
    description: 'The user the change concerned, read fresh (its relation and notes as they are now); null when refused.',
    resolve: fromResult((c: T) => ({ id: c.userId })),
  });

/** A payload of a write about one user: `user`, `me`, and the fields `more` adds. */
export function contactPayload(name: `${string}Payload`, description: string, more?: PayloadFields<ContactChange>) {
  return payloadType<ContactChange>(name, {
    description,
    ok: (c) => c.ok,
    fields: (t) => ({ user: userField(t), me: meField(t), ...more?.(t) }),
  });
}

/** An ID field naming the user a list lost (Relay's @deleteEdge, Apollo's cache eviction). */
export const removedIdField = (t: ObjectFieldBuilder<SchemaTypes, Outcome<ContactChange>>, description: string) =>
  t.field({ type: 'ID', description: `${description} Null when refused.`, resolve: fromResult((c: ContactChange) => c.userId) });
