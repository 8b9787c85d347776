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
