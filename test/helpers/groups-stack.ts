// Shared set-up of the group schema tests: a stack (emulator + gateway), users, groups with members
// and admins made through raw REST, GraphQL as a user, and the REST calls a request caused.
import { afterAll, beforeAll, expect } from 'vitest';
import type { RecordedCall } from '../../src/emulator/server';
import type { EndpointName } from '../../src/rest/endpoints';
import type { Group } from '../../src/rest/records';
import type { TestEmulator, TestUser } from './emulator';
import { createGroup, type GroupSetup, groupUser } from './groups';
import { lateBound } from './late-bound';
import { type Caller, type GqlReply, startStack, type Stack } from './stack';

export type { Caller, TestUser };

export interface GroupsStack {
  stack: Stack;
  emu: TestEmulator;
  /** A registered, logged-in user; `confirm` makes invitations wait for the user's answer. */
  user(opts?: { confirm?: boolean }): Promise<TestUser>;
  /** A group owned by `owner`, with `members` joined and `admins` joined and promoted. */
  group(owner: TestUser, opts?: GroupSetup): Promise<number>;
  /** A GraphQL request as the user (or the bare admin token); the recorded calls are reset first. */
  gql<T = Record<string, unknown>>(as: Caller, query: string, variables?: Record<string, unknown>): Promise<GqlReply<T>>;
  /** Like gql, but fails on any error and answers data. */
  data<T = Record<string, unknown>>(as: Caller, query: string, variables?: Record<string, unknown>): Promise<T>;
  /** The endpoints the emulator received since the last request, in order. */
  endpoints(): string[];
  /** The calls of one endpoint since the last request. */
  callsTo(endpoint: EndpointName): RecordedCall[];
  /** The Group record, read with the admin token (not recorded against the next request). */
  info(groupId: number): Promise<Group>;
  stop(): Promise<void>;
}

async function startGroupsStack(): Promise<GroupsStack> {
  const stack = await startStack();
  const { emu } = stack;

  const gql: GroupsStack['gql'] = async (as, query, variables) => {
    emu.mark();
    return stack.gqlAs(as, query, variables);
  };

  return {
    stack,
    emu,
    user: (opts) => groupUser(emu, opts),
    group: (owner, opts) => createGroup(emu, owner, opts),
    gql,
    async data(as, query, variables) {
      const reply = await gql(as, query, variables);
      expect(reply.errors).toBeUndefined();
      return reply.data as never;
    },
    endpoints: () => emu.calls().map((c) => c.endpoint),
    callsTo: (endpoint) => emu.calls(endpoint),
    async info(groupId) {
      const before = [...emu.server.calls];
      const record = await emu.ok<Group>('GET', '/group/info', { token: emu.adminToken, query: { group_id: groupId } });
      emu.server.calls.splice(0, emu.server.calls.length, ...before);
      return record;
    },
    stop: () => stack.stop(),
  };
}

/** One GroupsStack for the test file: started before its tests, stopped after. */
export function useGroupsStack(): GroupsStack {
  let g: GroupsStack | undefined;
  beforeAll(async () => {
    g = await startGroupsStack();
  });
  afterAll(() => g?.stop());
  return lateBound(() => g, 'the groups stack');
}

/**
 * The calls of a request refused at a Group field's argument: `group(id:)` read whether the group
 * exists (a read, changing nothing), and nothing else, the field's own endpoint included.
 */
export const EXISTENCE_READ = ['POST /group/info/batch'];
