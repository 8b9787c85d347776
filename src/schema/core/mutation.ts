// The one way to declare a mutation and its payload. A mutation takes one `input` (or a single
// ID, when that is the whole input, or nothing) and answers a `…Payload`: `ok`, `userErrors`
// for refusals the client can act on, and the changed things, each resolved only when selected,
// so a client that selects `ok` or `userErrors` alone pays for the write call and nothing else.
import type {
  FieldMap,
  InputFieldBuilder,
  InputFieldMap,
  InputObjectRef,
  InputShapeFromFields,
  ObjectFieldBuilder,
  ObjectRef,
} from '@pothos/core';
import type { GraphQLResolveInfo } from 'graphql';
import type { GatewayContext } from '../../context';
import type { EndpointName } from '../../rest/endpoints';
import type { Int64 } from '../../rest/json';
import { builder, reaches, type SchemaTypes } from './builder';
import { type Refusals, refusalOf, UserErrorRef, type UserErrorShape } from './user-errors';
import { idInput, type IdKinds } from './id-kinds';
import { type FanOut, fanOutField } from './fan-out';
import { type SignInNames, signInField, signInSucceeded } from './sign-in';

type Types = SchemaTypes;

/** What a mutation's resolver hands its payload: the result, or null when the service refused. */
export interface Outcome<T> {
  result: T | null;
  userErrors: readonly UserErrorShape[];
}

type PayloadRef<T> = ObjectRef<Types, Outcome<T>>;

/**
 * Declares a `…Payload` type: `ok` (no userErrors, and `ok(result)` when given), `userErrors`
 * (the refusals of the call, then `entryErrors(result)`: the refused entries of a batch), and the
 * `fields` the caller adds, which read the result through `fromResult`.
 */
export function payloadType<T>(
  name: `${string}Payload`,
  o: {
    description: string;
    ok?: (result: T) => boolean;
    entryErrors?: (result: T) => UserErrorShape[];
    fields: (t: ObjectFieldBuilder<Types, Outcome<T>>) => FieldMap;
  },
): PayloadRef<T> {
  const errorsOf = (p: Outcome<T>): UserErrorShape[] => [
    ...p.userErrors,
    ...(p.result !== null && o.entryErrors ? o.entryErrors(p.result) : []),
  ];
  return builder.objectRef<Outcome<T>>(name).implement({
    description: o.description,
    fields: (t) => ({
      ok: t.boolean({
        nullable: false,
        description: 'Whether the service made the change: true when userErrors is empty and the service reported success.',
        resolve: (p) => p.result !== null && errorsOf(p).length === 0 && (o.ok?.(p.result) ?? true),
      }),
      userErrors: t.field({
        type: [UserErrorRef],
        nullable: false,
        description:
          'Refusals of the service the client can act on (empty on success), each with a code and the input field at fault; ' +
          "a batch's refused entries are here too, their field ending with the entry's index. Other failures are GraphQL errors.",
        resolve: errorsOf,
      }),
      ...o.fields(t),
    }),
  });
}

/** A payload field's resolver on the result: null when the service refused (no result). */
export const fromResult =
  <T, R>(read: (result: T, ctx: GatewayContext) => R) =>
  (p: Outcome<T>, _args: object, ctx: GatewayContext): R | null =>
    p.result === null ? null : read(p.result, ctx);

/** Reports a failure as a user error when it is a refusal; rethrows anything else. */
export type Refuse = (err: unknown, field?: readonly string[]) => void;

interface Common<T> {
  description: string;
  /** Every endpoint the mutation may call (the first is its write). */
  endpoints: readonly [EndpointName, ...EndpointName[]];
  payload: PayloadRef<T>;
  /** This mutation's reading of upstream codes, beyond the common refusals (user-errors.ts). */
  refusals?: Refusals;
  /** A sign-in or password mutation: the login names it tries (sign-in.ts). */
  signIn?: SignInNames;
  /** What the mutation does to others: the users it registers, the recipients it reaches (fan-out.ts). */
  fanOut?: FanOut;
}

/** The single ID argument of a mutation, with the kinds of ID it takes. */
interface IdArgument {
  name: string;
  for: IdKinds;
  description: string;
}

type Resolve<A, T> = (input: A, ctx: GatewayContext, refuse: Refuse, info: GraphQLResolveInfo) => Promise<T>;

/** The argument naming the group, for refusals without a field of their own (the caller's rank or membership in it). */
function groupFieldOf(given: unknown, idName: string | undefined): readonly string[] | null {
  if (idName === 'groupId') return ['groupId'];
  return typeof given === 'object' && given !== null && 'groupId' in given ? ['input', 'groupId'] : null;
}

/** `input` given as fields: the input type is named `<Mutation>Input`. */
export function mutation<T, F extends InputFieldMap>(
  name: string,
  spec: Common<T> & {
    input: (t: InputFieldBuilder<Types, 'InputObject'>) => F;
    inputDescription: string;
    resolve: Resolve<InputShapeFromFields<F>, T>;
  },
): void;
/** `input` of an input type declared elsewhere (shared with a list or another mutation). */
export function mutation<T, S>(name: string, spec: Common<T> & { input: InputObjectRef<Types, S>; resolve: Resolve<S, T> }): void;
/** A single ID argument that is the whole input, of the kinds it names. */
export function mutation<T>(name: string, spec: Common<T> & { id: IdArgument; resolve: Resolve<Int64, T> }): void;
/** No argument at all (the acting user is the whole input). */
export function mutation<T>(name: string, spec: Common<T> & { resolve: Resolve<undefined, T> }): void;
export function mutation(
  name: string,
  spec: Common<unknown> & {
    input?: ((t: InputFieldBuilder<Types, 'InputObject'>) => InputFieldMap) | InputObjectRef<Types, unknown>;
    inputDescription?: string;
    id?: IdArgument;
    resolve: Resolve<never, unknown>;
  },
): void {
  const input =
    typeof spec.input === 'function'
      ? builder.inputType(`${name[0]?.toUpperCase()}${name.slice(1)}Input`, {
          description: spec.inputDescription ?? '',
          fields: spec.input,
        })
      : spec.input;
  const resolve = spec.resolve as Resolve<unknown, unknown>;
  builder.mutationField(name, (t) =>
    t.field({
      type: spec.payload,
      description: spec.description,
      extensions: {
        ...reaches(...spec.endpoints),
        ...(spec.signIn ? signInField(spec.signIn) : {}),
        ...(spec.fanOut ? fanOutField(spec.fanOut) : {}),
      },
      args: input
        ? { input: t.arg({ type: input, required: true, description: 'What to change.' }) }
        : spec.id
          ? { [spec.id.name]: t.arg(idInput({ for: spec.id.for, required: true, description: spec.id.description })) }
          : {},
      resolve: async (_root, args: Record<string, unknown>, ctx, info) => {
        const given = input ? args.input : spec.id ? args[spec.id.name] : undefined;
        const userErrors: UserErrorShape[] = [];
        const refuse: Refuse = (err, field) => {
          const refusal = refusalOf(err, spec.refusals);
          if (!refusal) throw err;
          // No field of its own: the group the mutation names is at fault (the caller's rank or membership in it).
          const at = refusal.field ?? field ?? groupFieldOf(given, spec.id?.name);
          userErrors.push({ ...refusal, field: at });
        };
        try {
          const result = await resolve(given, ctx, refuse, info);
          // Only wrong passwords count against the sign-in limits: a success gives its try back.
          if (spec.signIn && userErrors.length === 0) signInSucceeded(ctx, String(info.path.key), result);
          return { result, userErrors };
        } catch (err) {
          refuse(err);
          return { result: null, userErrors };
        }
      },
    }),
  );
}
