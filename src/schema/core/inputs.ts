// Input errors raised by resolvers before any REST call: BAD_USER_INPUT naming the field.
import { GraphQLError } from 'graphql';

export function badUserInput(field: string, message: string): GraphQLError {
  return new GraphQLError(`${field}: ${message}`, { extensions: { code: 'BAD_USER_INPUT', field } });
}

/** Checks an integer argument's range; answers it unchanged. */
export function inRange(field: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw badUserInput(field, `must be an integer from ${min} to ${max}`);
  return value;
}

/** Refuses an empty (or blank) string the service needs. */
export function nonBlank(field: string, value: string): string {
  if (value.trim() === '') throw badUserInput(field, 'must not be empty');
  return value;
}

/** Refuses an empty list the service needs. */
export function nonEmptyList<T>(field: string, list: readonly T[]): readonly T[] {
  if (list.length === 0) throw badUserInput(field, 'must not be empty');
  return list;
}
