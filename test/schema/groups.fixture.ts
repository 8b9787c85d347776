// Shared set-up of the group schema tests: a stack (emulator + gateway), users, groups with members
// and admins made through raw REST, GraphQL as a user, and the REST calls a request caused.
import { expect } from 'vitest';
import type { Group } from '../../src/rest/records';
import type { TestEmulator } from '../helpers/emulator';
import { type GqlReply, startStack, type Stack } from '../helpers/stack';

export type TestUser = Awaited<ReturnType<TestEmulator['user']>>;
/** Who sends a GraphQL request: a user with their own token, or the app backend's admin token. */
export type Caller = TestUser | 'admin';

export interface GroupsStack {
  stack: Stack;
  emu: TestEmulator;
  /** A registered, logged-in user; `confirm` makes invitations wait for the user's answer. */
  user(opts?: { confirm?: boolean }): Promise<TestUser>;
  /** A group owned by `owner`, with `members` joined and `admins` joined and promoted. */
  group(owner: TestUser, opts?: { members?: TestUser[]; admins?: TestUser[]; type?: 0 | 2; name?: string }): Promise<number>;
  /** A GraphQL request as the user (or the bare admin token); the recorded calls are reset first. */
  gql<T = Record<string, unknown>>(as: Caller, query: string, variables?: Record<string, unknown>): Promise<GqlReply<T>>;
  /** Like gql, but fails on any error and answers data. */
  data<T = Record<string, unknown>>(as: Caller, query: string, variables?: Record<string, unknown>): Promise<T>;
  /** The endpoints the emulator received since the last request, in order. */
  endpoints(): string[];
  /** The calls of one endpoint since the last request. */
  callsTo(endpoint: string): Stack['emu']['server']['calls'];
  /** The Group record, read with the admin token (not recorded against the next request). */
  info(groupId: number): Promise<Group>;
  stop(): Promise<void>;
}

export async function startGroupsStack(): Promise<GroupsStack> {
  const stack = await startStack();
  const { emu } = stack;
  const headers = (as: Caller) => ({ 'access-token': as === 'admin' ? emu.adminToken : as.token });

  const gql: GroupsStack['gql'] = async (as, query, variables) => {
    emu.server.resetCalls();
    return stack.gql(query, variables, headers(as));
  };

  return {
    stack,
    emu,
    async user(opts = {}) {
      const u = await emu.user();
      if (opts.confirm) await emu.ok('PUT', '/user/settings', { token: u.token, body: { user_id: u.id, group_confirm: true } });
      return u;
    },
    async group(owner, opts = {}) {
      const joining = [...(opts.members ?? []), ...(opts.admins ?? [])];
      const g = await emu.ok<Group>('POST', '/group/create', {
        token: owner.token,
        body: { name: opts.name ?? 'a group', type: opts.type ?? 0, user_list: joining.map((u) => u.id) },
      });
      const id = Number(g.group_id);
      if (opts.admins?.length) {
        await emu.ok('POST', '/group/admin/add', { token: owner.token, body: { group_id: id, user_list: opts.admins.map((u) => u.id) } });
      }
      return id;
    },
    gql,
    async data(as, query, variables) {
      const reply = await gql(as, query, variables);
      expect(reply.errors).toBeUndefined();
      return reply.data as never;
    },
    endpoints: () => emu.server.calls.map((c) => c.endpoint),
    callsTo: (endpoint) => emu.server.calls.filter((c) => c.endpoint === endpoint),
    async info(groupId) {
      const before = [...emu.server.calls];
      const record = await emu.ok<Group>('GET', '/group/info', { token: emu.adminToken, query: { group_id: groupId } });
      emu.server.calls.splice(0, emu.server.calls.length, ...before);
      return record;
    },
    stop: () => stack.stop(),
  };
}

/** The first error of a reply, for asserting its path and extensions. */
export const firstError = (reply: GqlReply<unknown>) => reply.errors?.[0];
