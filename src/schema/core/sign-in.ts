// Sign-in and password fields are where passwords are guessed: each declares the login names an
// execution of it tries, and the gateway takes one per field from the client address's sign-in
// bucket and one per name from its account's, before the operation runs, and gives them back when
// the field succeeds (gateway/rate-limit/use-sign-in-limit.ts). The declaration lives on the field,
// so every way of sending it (aliases, batches, WebSocket, persisted documents) is counted the
// same. Registration guesses nothing: it declares what it does to others instead (fan-out.ts).
import type { GraphQLField } from 'graphql';
import type { Caller } from '../../rest/caller';

/**
 * The names a field's execution tries, from its coerced `input` and the caller; undefined when the
 * execution guesses nothing (an admin acting without a password).
 */
export type SignInNames = (input: Readonly<Record<string, unknown>>, caller: Readonly<Caller>) => readonly string[] | undefined;

const SIGN_IN = 'signIn';

/** The field's extensions declaring it a sign-in field. */
export const signInField = (names: SignInNames) => ({ [SIGN_IN]: names });

/** What the field declares, if it is a sign-in field. */
export const signInNamesOf = (field: GraphQLField<unknown, unknown>): SignInNames | undefined =>
  field.extensions[SIGN_IN] as SignInNames | undefined;

/** A login name as its bucket knows it: names differ by more than case or spaces around them. */
export const loginName = (name: unknown) => String(name).trim().toLowerCase();

/** The user a caller's token (or its admin's user_id header) acts as: the name a password check of its own guesses. */
export const callerName = (caller: Readonly<Caller>) => `caller:${caller.userId ?? ''}:${caller.token ?? ''}`;

/** The sign-in fields of an execution that succeeded, by context: response key → what the field answered. */
const successes = new WeakMap<object, Map<string, unknown>>();

/**
 * A sign-in field succeeded (no userError): the sign-in limits give back what it took, since
 * only wrong passwords count (gateway/rate-limit/use-sign-in-limit.ts reads it when the operation ends).
 */
export function signInSucceeded(ctx: object, responseKey: string, result: unknown): void {
  let fields = successes.get(ctx);
  if (!fields) successes.set(ctx, (fields = new Map()));
  fields.set(responseKey, result);
}

/** The sign-in fields of the execution with this context that succeeded so far. */
export const signInSuccesses = (ctx: object): ReadonlyMap<string, unknown> | undefined => successes.get(ctx);
