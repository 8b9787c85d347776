// A gateway in this process over a scripted service (test/helpers/scripted-server.ts): for tests of
// how the gateway answers when the IM service fails, stalls or answers late.
import { loadConfig } from '../../src/config';
import { createGateway } from '../../src/gateway/create-gateway';
import { type ScriptedServer, startScriptedServer } from './scripted-server';
import type { GqlReply } from './stack';

interface ScriptedGateway {
  service: ScriptedServer;
  /** The gateway's origin (http://host:port). */
  origin: string;
  /** `{ me { id } }` with a user token. */
  query(): Promise<GqlReply>;
  ready(): Promise<{ status: number; text: string }>;
  stop(): Promise<void>;
}

/** `env`: the gateway's settings (READY_FAILED_CALLS 3 and IM_RETRIES 0 unless given). */
export async function gatewayOver(
  script: Parameters<typeof startScriptedServer>[0],
  env: Record<string, string>,
): Promise<ScriptedGateway> {
  const service = await startScriptedServer(script);
  const config = { ...loadConfig({ READY_FAILED_CALLS: '3', IM_RETRIES: '0', ...env }), port: 0 };
  const gateway = createGateway(config, { imBaseUrl: service.url });
  const url = await gateway.start();
  return {
    service,
    origin: url,
    query: () =>
      fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'access-token': 't' },
        body: '{"query":"{ me { id } }"}',
      }).then((r) => r.json() as Promise<GqlReply>),
    async ready() {
      const res = await fetch(`${url}/ready`);
      return { status: res.status, text: await res.text() };
    },
    async stop() {
      await gateway.stop();
      await service.close();
    },
  };
}
