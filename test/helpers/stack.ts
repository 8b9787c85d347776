// The whole product on free ports: an emulator and a gateway pointed at it.
import { afterAll, beforeAll, expect } from 'vitest';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway';
import { type Config, loadConfig } from '../../src/config';
import type { CreateEmulatorOptions } from '../../src/emulator';
import { startEmulator, type TestEmulator, type TestUser } from './emulator';
import { lateBound } from './late-bound';

/** Who sends a GraphQL request: a user with their own token, or the app backend's admin token. */
export type Caller = TestUser | 'admin';

export interface GqlReply<T = Record<string, unknown>> {
  data?: T | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
}

export interface Stack {
  emu: TestEmulator;
  gateway: Gateway;
  /** The gateway's origin. */
  url: string;
  /** POSTs a GraphQL operation over real HTTP. */
  gql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<GqlReply<T>>;
  /** A GraphQL operation with the user's own token (or the bare admin token). */
  gqlAs<T = Record<string, unknown>>(as: Caller, query: string, variables?: Record<string, unknown>): Promise<GqlReply<T>>;
  /** Headers acting as a user through the admin token. */
  asUser(id: number | bigint | string): Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Operations are compiled on their first run (GRAPHQL_JIT_AFTER=1, not the default 2), so that the
 * suite runs its operations compiled, as a busy gateway does; GRAPHQL_JIT=false in the test run's
 * environment runs them on graphql-js instead (npm run test:graphql-js).
 */
export const suiteEnv = (): Record<string, string> => ({
  GRAPHQL_JIT_AFTER: '1',
  // Replies are shared (coalescing, a request's resolvers): a resolver that changes one fails here.
  IM_FREEZE_REPLIES: 'true',
  // Every test signs in and registers from 127.0.0.1: the per-address sign-in limit (on by default)
  // is off here, and probe-sign-in-limit.test.ts sets it again. The per-name limit stays on. So is
  // the per-address registration limit (probe-fan-out-limits.test.ts sets it again).
  SIGN_IN_LIMIT_ADDRESS: 'off',
  REGISTRATION_LIMIT_ADDRESS: 'off',
  ...(process.env.GRAPHQL_JIT ? { GRAPHQL_JIT: process.env.GRAPHQL_JIT } : {}),
});

/**
 * A gateway of its own in front of `imBaseUrl`, with the suite's settings and `env`, on a free port;
 * `settings` replace parsed ones.
 */
export async function gatewayVia(
  imBaseUrl: string,
  env: Record<string, string> = {},
  settings: Partial<Config> = {},
): Promise<{ gateway: Gateway; url: string }> {
  const gateway = createGateway({ ...loadConfig({ PORT: '1', ...suiteEnv(), ...env }), port: 0, ...settings }, { imBaseUrl });
  return { gateway, url: await gateway.start() };
}

/**
 * `serviceCredential`: the gateway holds the emulator's admin token as IM_ADMIN_TOKEN (peer reads);
 * `emulator`: the emulator's own options.
 */
export async function startStack(
  env: Record<string, string> = {},
  opts: { serviceCredential?: boolean; emulator?: Partial<CreateEmulatorOptions> } = {},
): Promise<Stack> {
  const emu = await startEmulator(opts.emulator);
  const { gateway, url } = await gatewayVia(emu.url, env, opts.serviceCredential ? { imAdminToken: emu.adminToken } : {});
  const stack: Stack = {
    emu,
    gateway,
    url,
    async gql(query, variables, headers = {}) {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', app_id: emu.appId, ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return (await res.json()) as GqlReply<never>;
    },
    gqlAs: (as, query, variables) => stack.gql(query, variables, { 'access-token': as === 'admin' ? emu.adminToken : as.token }),
    asUser: (id) => ({ 'access-token': emu.adminToken, user_id: String(id) }),
    async stop() {
      await gateway.stop();
      await emu.stop();
    },
  };
  return stack;
}

/** One stack for the test file: started before its tests, stopped after; usable from beforeAll on. */
export function useStack(env: Record<string, string> = {}): Stack {
  let stack: Stack | undefined;
  beforeAll(async () => {
    stack = await startStack(env);
  });
  afterAll(() => stack?.stop());
  return lateBound(() => stack, 'the stack');
}

/**
 * Two stacks for the test file, started together before its tests and stopped after: one whose
 * gateway holds the service credential (peer reads), one without it.
 */
export function useCredentialStacks(): { withCredential: Stack; without: Stack } {
  let stacks: [Stack, Stack] | undefined;
  beforeAll(async () => {
    stacks = await Promise.all([startStack({}, { serviceCredential: true }), startStack()]);
  });
  afterAll(async () => {
    if (stacks) await Promise.all(stacks.map((s) => s.stop()));
  });
  return {
    withCredential: lateBound(() => stacks?.[0], 'the stack with a service credential'),
    without: lateBound(() => stacks?.[1], 'the stack without a service credential'),
  };
}

/** The reply's one error (the test fails when there is none, or more than one). */
export function onlyError(reply: GqlReply<unknown>): NonNullable<GqlReply['errors']>[number] {
  expect(reply.errors).toHaveLength(1);
  return reply.errors![0]!;
}
