// Probe: a write reaches the service, and its answer is lost (the connection is reset after the
// request was read). The client gets UPSTREAM_UNAVAILABLE and must be able to retry without a
// double send: the error carries the de-duplication key the gateway sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-server';
import type { GqlReply } from '../helpers/stack';

let upstream: ScriptedServer;
let gateway: Gateway;
let url: string;

beforeAll(async () => {
  // Every call is read in full, then its connection is cut before any answer.
  upstream = await startScriptedServer((_req, res) => {
    res.socket?.destroy();
  });
  gateway = createGateway({ ...loadConfig({ PORT: '1', IM_RETRIES: '0' }), port: 0 }, { imBaseUrl: upstream.url });
  url = await gateway.start();
});
afterAll(async () => {
  await gateway.stop();
  await upstream.close();
});

async function gql(query: string, variables: Record<string, unknown>): Promise<GqlReply> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'access-token': 'admin-token', app_id: 'app' },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as GqlReply;
}

/** The int64 transaction_id of the last body the service read, exactly as sent. */
const sentTransactionId = () => upstream.requests.at(-1)?.rawBody.match(/"transaction_id":(\d+)/)?.[1];

describe('a write whose answer was lost', () => {
  it('sendMessage: UPSTREAM_UNAVAILABLE with the transactionId it made up', async () => {
    const reply = await gql('mutation($i: SendMessageInput!) { sendMessage(input: $i) { ok } }', {
      i: { targets: ['2000000000001'], targetType: 'USER', type: 'TEXT', content: 'hello' },
    });
    const error = reply.errors?.[0];
    expect(error?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', endpoint: 'PUT /message/send' });
    expect(sentTransactionId()).toMatch(/^\d+$/);
    expect(error?.extensions?.transactionId).toBe(sentTransactionId());
  });

  it('sendMessage: the transactionId the client gave', async () => {
    const reply = await gql('mutation($i: SendMessageInput!) { sendMessage(input: $i) { ok } }', {
      i: { targets: ['2000000000001'], targetType: 'USER', type: 'TEXT', content: 'hello', transactionId: '9223372036854775801' },
    });
    expect(reply.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', transactionId: '9223372036854775801' });
    expect(sentTransactionId()).toBe('9223372036854775801');
  });

  it('sendNotification: UPSTREAM_UNAVAILABLE with the transactionId sent', async () => {
    const reply = await gql('mutation($i: SendNotificationInput!) { sendNotification(input: $i) { ok } }', {
      i: { targets: ['2000000000001'], targetType: 'USER', type: 'TEXT', content: 'system' },
    });
    expect(reply.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', endpoint: 'PUT /message/notify' });
    expect(reply.errors?.[0]?.extensions?.transactionId).toBe(sentTransactionId());
  });

  it('sendPush: UPSTREAM_UNAVAILABLE with the requestId sent (made up when the client gave none)', async () => {
    const reply = await gql('mutation($i: SendPushInput!) { sendPush(input: $i) { ok } }', {
      i: { audience: { all: true }, message: { body: 'x' } },
    });
    const sent = JSON.parse(upstream.requests.at(-1)!.rawBody) as { setting?: { request_id?: string } };
    expect(sent.setting?.request_id).toMatch(/^gw-/);
    expect(reply.errors?.[0]?.extensions).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      endpoint: 'POST /push/notify',
      requestId: sent.setting?.request_id,
    });

    const again = await gql('mutation($i: SendPushInput!) { sendPush(input: $i) { ok } }', {
      i: { audience: { all: true }, setting: { requestId: 'client-7' }, message: { body: 'x' } },
    });
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', requestId: 'client-7' });
  });
});
