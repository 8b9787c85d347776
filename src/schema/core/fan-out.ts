// What a mutation does to others, declared on the field as sign-in names are (sign-in.ts), so
// every way of sending it (aliases, batches, WebSocket, persisted documents) counts the same:
// - `registers`: the users a registration creates, charged per client address
//   (REGISTRATION_LIMIT_ADDRESS), so one request cannot register (or probe) a thousand names;
// - `recipients`: the other users or groups it reaches, charged per identity (RECIPIENT_LIMIT),
//   so one account cannot reach thousands of users a second;
// - `upstreamBytes`: the bytes of the upstream body it builds where that body repeats the input
//   per recipient (a friend request's message per user), which admission counts beside the calls.
// Each reads the field's `input` as given (coerced at run time, raw in the cost estimate): counts
// only, never a throw; a malformed input counts what it can and execution refuses it.
import type { GraphQLField } from 'graphql';

type Input = Readonly<Record<string, unknown>>;

export interface FanOut {
  readonly registers?: (input: Input) => number;
  readonly recipients?: (input: Input) => number;
  readonly upstreamBytes?: (input: Input) => number;
}

const FAN_OUT = 'fanOut';

/** The field's extensions declaring its fan-out. */
export const fanOutField = (fanOut: FanOut) => ({ [FAN_OUT]: fanOut });

/** What the field declares, if anything. */
export const fanOutOf = (field: GraphQLField<unknown, unknown>): FanOut | undefined => field.extensions[FAN_OUT] as FanOut | undefined;

/** The length of a list input (0 when it is not one). */
export const listLength = (value: unknown): number => (Array.isArray(value) ? value.length : 0);

/** How many different entries a list input holds: a user named twice is reached once. */
export const distinctEntries = (value: unknown): number =>
  Array.isArray(value) ? new Set(value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v)))).size : 0;

/**
 * The recipients a list input names (distinct), or 0 when it is longer than the mutation takes:
 * execution refuses that as bad input before any call, which says more than a limit would.
 */
export const recipientsIn = (value: unknown, max: number): number => (listLength(value) > max ? 0 : distinctEntries(value));

/** The UTF-8 bytes of a string input (0 when absent). */
export const textBytes = (value: unknown): number => (typeof value === 'string' ? Buffer.byteLength(value) : 0);

/**
 * The most bytes of an upstream body the gateway builds by repeating input per recipient (issue 40:
 * a 240 KB message for 1,000 users made one 240 MB body, RSS +1.8 GB; a 1.9 MB one threw
 * `RangeError: Invalid string length`). Above it the write is refused with TOO_LARGE before the
 * body is built. 4 MiB: a long message (tens of KB) to the largest batch, or a 1.9 MB one to two.
 */
export const MAX_FAN_OUT_BODY_BYTES = 4 * 1024 * 1024;
