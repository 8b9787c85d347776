// Production errors say nothing of the inside. In production an upstream failure told the client
// the REST method and path, the service's message and `ECONNREFUSED`. With ERROR_DETAIL=masked
// (NODE_ENV=production's default) an error from the service or the gateway's inside carries its
// code, an upstreamCode the client can act on, and a requestId that one JSON log line also has,
// with the detail; ERROR_DETAIL=full (development's default) keeps the detail in the answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config';
import { setLogger } from '../../../src/log/logger';
import { captureLog } from '../../helpers/log-capture';
import { failure, type ScriptedServer, startScriptedServer } from '../../helpers/scripted-server';
import { freePort } from '../../helpers/free-port';
import { gatewayVia, type GqlReply } from '../../helpers/stack';
import type { Gateway } from '../../../src/gateway/create-gateway';

const log = captureLog('info');
let service: ScriptedServer;
const gateways: Gateway[] = [];
/** Gateways by their ERROR_DETAIL, over the scripted service and over a port nobody listens on. */
const origins: Record<string, { refusing: string; unreachable: string }> = {};

beforeAll(async () => {
  setLogger(log.logger);
  // The service refuses every call as the real one does, naming the app in its message.
  service = await startScriptedServer(() => failure(10010, 'no permission: app welovemaxim, user 2000000000001'));
  const nobody = `http://127.0.0.1:${await freePort()}`;
  for (const detail of ['masked', 'full']) {
    const env = { ERROR_DETAIL: detail, IM_RETRIES: '0' };
    const refusing = await gatewayVia(service.url, env);
    const unreachable = await gatewayVia(nobody, env);
    gateways.push(refusing.gateway, unreachable.gateway);
    origins[detail] = { refusing: refusing.url, unreachable: unreachable.url };
  }
});
afterAll(async () => {
  await Promise.all(gateways.map((g) => g.stop()));
  await service.close();
});

async function me(origin: string): Promise<{ text: string; reply: GqlReply }> {
  const res = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'access-token': 't' },
    body: '{"query":"{ me { username } }"}',
  });
  const text = await res.text();
  return { text, reply: JSON.parse(text) as GqlReply };
}

/** What no masked answer may hold: a REST path or method, the service's words, a socket error. */
const INSIDE = [/\/user\//, /\bGET\b/, /welovemaxim/, /ECONNREFUSED/i, /connection refused/i, /endpoint/, /upstreamMessage/];

describe('ERROR_DETAIL=masked', () => {
  it("tells a refusal's code, its upstreamCode and a request ID that the log line with the detail has", async () => {
    const { text, reply } = await me(origins.masked!.refusing);
    for (const inside of INSIDE) expect(text).not.toMatch(inside);
    const error = reply.errors![0]!;
    expect(error.extensions).toEqual({ code: 'FORBIDDEN', upstreamCode: 10010, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const line = log.entries.find((e) => e.request_id === error.extensions!.requestId);
    expect(line).toMatchObject({
      level: 'info',
      errors: [{ code: 'FORBIDDEN', upstream_code: 10010, endpoint: expect.stringMatching(/^GET \//) }],
    });
    expect(JSON.stringify(line)).toContain('welovemaxim');
  });

  it('tells an unreachable service as UPSTREAM_UNAVAILABLE with a request ID, no socket error, and logs it at warn', async () => {
    const { text, reply } = await me(origins.masked!.unreachable);
    for (const inside of INSIDE) expect(text).not.toMatch(inside);
    const error = reply.errors![0]!;
    expect(error).toMatchObject({ message: 'The IM service is unavailable.' });
    expect(error.extensions).toEqual({ code: 'UPSTREAM_UNAVAILABLE', requestId: expect.any(String) });
    const line = log.entries.find((e) => e.request_id === error.extensions!.requestId);
    expect(line).toMatchObject({ level: 'warn', errors: [{ code: 'UPSTREAM_UNAVAILABLE', kind: 'unavailable' }] });
  });
});

describe('ERROR_DETAIL=full', () => {
  it('keeps the endpoint, the service message and the socket error in the answer', async () => {
    const refused = (await me(origins.full!.refusing)).reply.errors![0]!;
    expect(refused.extensions).toMatchObject({ code: 'FORBIDDEN', upstreamCode: 10010, endpoint: expect.stringMatching(/^GET \//) });
    expect(refused.extensions!.upstreamMessage).toContain('welovemaxim');
    expect(refused.extensions!.requestId).toBeUndefined();
    const unreachable = (await me(origins.full!.unreachable)).reply.errors![0]!;
    expect(unreachable.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', endpoint: expect.any(String) });
  });
});

describe('the default', () => {
  it('is masked with NODE_ENV=production and full otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).errorDetail).toBe('masked');
    expect(loadConfig({ NODE_ENV: 'development' }).errorDetail).toBe('full');
    expect(loadConfig({}).errorDetail).toBe('full');
    expect(loadConfig({ NODE_ENV: 'production', ERROR_DETAIL: 'full' }).errorDetail).toBe('full');
  });
});
