// What the user mutations share: the acting user, input checks made before any REST call, the
// UserPayload, and table-driven single-value setters (one argument, one REST call).
import type { InputShapeFromTypeParam, InputTypeParam, ObjectRef } from '@pothos/core';
import type { GatewayContext } from '../../context';
import type { CallName } from '../../rest/client';
import type { Endpoints } from '../../rest/endpoints';
import { toInt64 } from '../../rest/json';
import type { RequestClient } from '../../rest/request-client';
import type { ParamsIn } from '../../rest/table';
import { builder, reaches, type SchemaTypes } from '../core/builder';
import { type UserParent, UserRef } from '../core/refs';

const DECIMAL_ID = /^\d{1,19}$/;

/** The acting user as a parent: with its ID when the caller names it (user_id header), saving a profile read. */
export function actingUser(ctx: GatewayContext): UserParent {
  const id = ctx.caller.userId;
  return id !== undefined && DECIMAL_ID.test(id) ? { id: toInt64(id) } : {};
}

/** GraphQL gives absent optional arguments as null; REST params take undefined. */
export const orUndefined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** What a mutation changed about a user: the user (resolved lazily) and the service's answer. */
export interface UserChange {
  ok: boolean;
  user: UserParent;
}

export const UserPayloadRef = builder.objectRef<UserChange>('UserPayload').implement({
  description: 'The answer to a change of a user: whether the service accepted it, and the user to read back.',
  fields: (t) => ({
    ok: t.exposeBoolean('ok', { nullable: false, description: 'Whether the service reported success.' }),
    user: t.field({
      type: UserRef,
      nullable: false,
      description: 'The changed user, read fresh (its fields cost REST calls only when selected).',
      resolve: (p) => p.user,
    }),
  }),
});

/** The payload of a write: `ok` from the service's data (an object counts as success). */
export function changed(data: unknown, user: UserParent): UserChange {
  return { ok: data !== false, user };
}

// ---- single-value setters, table-driven ----

type Types = SchemaTypes;

/** The value of a required argument of type A. */
type Value<A extends InputTypeParam<Types>> = InputShapeFromTypeParam<Types, A, true>;

export interface SetterSpec<E extends CallName, A extends InputTypeParam<Types>> {
  /** The mutation's name, verb first. */
  name: string;
  endpoint: E;
  description: string;
  /** The one argument: its name, GraphQL type and description. */
  arg: { name: string; type: A; description: string };
  /** REST params from the argument's value (snake_case as the endpoint table names them). */
  params: (value: Value<A>) => ParamsIn<Endpoints[E]>;
  /** Checks the value before any REST call (throws badUserInput). */
  check?: (value: Value<A>, field: string) => void;
}

/** A setter with its types closed over, so setters of different endpoints share one table. */
export interface Setter extends Omit<SetterSpec<CallName, InputTypeParam<Types>>, 'params' | 'check'> {
  /** Checks the value, then makes the call; answers the reply's data. */
  apply(rest: RequestClient, value: unknown): Promise<unknown>;
}

export function setter<E extends CallName, A extends InputTypeParam<Types>>(spec: SetterSpec<E, A>): Setter {
  const { params, check, ...described } = spec;
  return {
    ...described,
    apply: async (rest, raw) => {
      // Pothos hands the argument as declared: required, of type A.
      const value = raw as Value<A>;
      check?.(value, spec.arg.name);
      return (await rest.call(spec.endpoint, params(value))).data;
    },
  };
}

/** Adds one mutation per setter: one required argument, one REST call as the acting user. */
export function defineSetters(setters: readonly Setter[], payload: ObjectRef<Types, UserChange> = UserPayloadRef): void {
  for (const s of setters) {
    builder.mutationField(s.name, (t) =>
      t.field({
        type: payload,
        description: s.description,
        extensions: reaches(s.endpoint),
        args: { [s.arg.name]: t.arg({ type: s.arg.type, required: true, description: s.arg.description }) },
        resolve: async (_root, args, ctx) => changed(await s.apply(ctx.rest, args[s.arg.name]), actingUser(ctx)),
      }),
    );
  }
}
