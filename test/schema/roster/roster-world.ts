// What the roster schema tests share: one stack per file, users, and typed GraphQL as a user.
import { expect } from 'vitest';
import type { EndpointName } from '../../../src/rest/endpoints';
import { type Caller, type Stack, useStack } from '../../helpers/stack';
import type { TestUser } from '../../helpers/users';

export interface RosterWorld {
  stack: Stack;
  user(): Promise<TestUser>;
  /** The operation's data as `as`; the test fails on any error. */
  data<T>(as: Caller, query: string, variables?: Record<string, unknown>): Promise<T>;
  /** The endpoints the emulator received since the last mark, in order. */
  endpoints(): EndpointName[];
  mark(): void;
}

export function useRosterWorld(): RosterWorld {
  const stack = useStack();
  const world: RosterWorld = {
    stack,
    user: () => stack.emu.user(),
    async data<T>(as: Caller, query: string, variables?: Record<string, unknown>) {
      const reply = await stack.gqlAs<T>(as, query, variables);
      expect(reply.errors).toBeUndefined();
      return reply.data as T;
    },
    endpoints: () => stack.emu.server.calls.map((c) => c.endpoint),
    mark: () => stack.emu.server.resetCalls(),
  };
  return world;
}

/** The IDs the emulator's roster lists of `u` hold, read with raw REST. */
export async function friendIdsOf(stack: Stack, u: TestUser): Promise<number[]> {
  return stack.emu.ok<number[]>('GET', '/roster/list', { token: u.token });
}
