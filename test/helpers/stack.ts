// The whole product on free ports: an emulator and a gateway pointed at it.
import { createGateway, type Gateway } from '../../src/gateway/create-gateway';
import { loadConfig } from '../../src/config';
import { startEmulator, type TestEmulator } from './emulator';

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
  gql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<GqlReply<T>>;
  /** Headers acting as a user through the admin token. */
  asUser(id: number | bigint | string): Record<string, string>;
  stop(): Promise<void>;
}

/** `serviceCredential`: the gateway holds the emulator's admin token as IM_ADMIN_TOKEN (peer reads). */
export async function startStack(env: Record<string, string> = {}, opts: { serviceCredential?: boolean } = {}): Promise<Stack> {
  const emu = await startEmulator();
  const config = { ...loadConfig({ PORT: '1', ...env }), port: 0, ...(opts.serviceCredential ? { imAdminToken: emu.adminToken } : {}) };
  const gateway = createGateway({ config, imBaseUrl: emu.url });
  const url = await gateway.start();
  return {
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
    asUser: (id) => ({ 'access-token': emu.adminToken, user_id: String(id) }),
    async stop() {
      await gateway.stop();
      await emu.stop();
    },
  };
}
