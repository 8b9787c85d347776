// The gateway's callback route (issue 41 item 2): the service's message callbacks (document 6)
// are checked, answered 200 at once, de-duplicated by appId + msgId and handed to the sink; bad
// input is refused with its status and a one-line reason, and nothing is handed on.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, loadEmulatorConfig } from '../../../src/config';
import { createGateway, type Gateway } from '../../../src/gateway/create-gateway';
import { setLogger } from '../../../src/log/logger';
import { callbackBody, CALLBACK_SECRET, metric, newMsgId, postCallback, recordingSink } from '../../helpers/callbacks';
import { useEmulator } from '../../helpers/emulator';
import { captureLog } from '../../helpers/log-capture';
import { suiteEnv } from '../../helpers/stack';
import { until } from '../../helpers/wait';

const emu = useEmulator();
const started: Gateway[] = [];

async function receiver(env: Record<string, string> = {}) {
  const sink = recordingSink();
  const config = loadConfig({ PORT: '1', ...suiteEnv(), IM_APP_ID: emu.appId, IM_CALLBACK_SECRET: CALLBACK_SECRET, ...env });
  const gateway = createGateway({ ...config, port: 0 }, { imBaseUrl: emu.url, callbackSink: sink });
  started.push(gateway);
  return { sink, url: await gateway.start() };
}

afterAll(async () => {
  await Promise.all(started.map((g) => g.stop()));
});

describe('a callback the service sends', () => {
  let url: string;
  let sink: ReturnType<typeof recordingSink>;
  beforeAll(async () => {
    ({ url, sink } = await receiver());
  });

  it('is answered 200 with an empty body and handed on once, every field as sent', async () => {
    const body = callbackBody(emu.appId, { config: '{"mentionAll":false,"mentionList":[6597711675232]}', ext: '{"k":1}' });
    const reply = await postCallback(url, body);
    expect(reply).toEqual({ status: 200, text: '' });
    await until('the message handed on', () => sink.messages.some((m) => m.msgId === body.msgId));
    const message = sink.messages.find((m) => m.msgId === body.msgId)!;
    expect(message).toMatchObject({
      appId: emu.appId,
      msgId: body.msgId,
      from: '6632092019520',
      to: '6726580510113',
      type: 'CHAT',
      ctype: 'TEXT',
      content: 'hello',
      attachment: '',
      config: '{"mentionAll":false,"mentionList":[6597711675232]}',
      ext: '{"k":1}',
      timestamp: body.timestamp,
    });
    expect(typeof message.receivedAt).toBe('number');
  });

  it('keeps IDs beyond 2^53 exact whether sent as strings or as JSON numbers', async () => {
    const msgId = '18446744073709551615'; // 2^64 - 1
    const text = `{"appId":"${emu.appId}","msgId":${msgId},"from":{"uid":9007199254740993,"deviceSN":1},"to":{"uid":"9007199254740995"},"type":"GROUPCHAT","ctype":"TEXT","content":"x","ext":"","timestamp":1767225600000}`;
    expect((await postCallback(url, text)).status).toBe(200);
    await until('the message handed on', () => sink.messages.some((m) => m.msgId === msgId));
    expect(sink.messages.find((m) => m.msgId === msgId)).toMatchObject({
      from: '9007199254740993',
      to: '9007199254740995',
      type: 'GROUPCHAT',
    });
  });

  it('hands a repeated appId + msgId on once, and counts the repeats', async () => {
    const body = callbackBody(emu.appId);
    const before = await metric(url, 'im_gateway_callback_duplicates_total');
    const replies = await Promise.all([1, 2, 3].map(() => postCallback(url, body)));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    await until('two repeats counted', async () => (await metric(url, 'im_gateway_callback_duplicates_total')) === before + 2);
    expect(sink.messages.filter((m) => m.msgId === body.msgId)).toHaveLength(1);
  });

  it('accepts unknown fields, JSON values for JSON-text fields, and APPEND/REPLACE without ctype', async () => {
    const body = callbackBody(emu.appId, {
      type: 'APPEND',
      ctype: undefined,
      config: { force_callback: true },
      senderName: 'x',
      status: 1,
    });
    expect((await postCallback(url, body)).status).toBe(200);
    await until('the operation handed on', () => sink.messages.some((m) => m.msgId === body.msgId));
    expect(sink.messages.find((m) => m.msgId === body.msgId)).toMatchObject({
      type: 'APPEND',
      ctype: '',
      config: '{"force_callback":true}',
    });
  });

  it('accepts and ignores unknown types and system messages', async () => {
    const count = sink.messages.length;
    const ignored = [
      callbackBody(emu.appId, { type: 'READ_ACK' }),
      { appId: emu.appId, type: 'ONLINE', uid: '1' },
      callbackBody(emu.appId, { isSystem: true }),
      callbackBody(emu.appId, { from: { uid: '0', deviceSN: 0 } }),
    ];
    for (const body of ignored) expect(await postCallback(url, body)).toEqual({ status: 200, text: '' });
    await until('four ignored', async () => {
      const [type, system] = await Promise.all([
        metric(url, 'im_gateway_callbacks_ignored_total', 'reason="type"'),
        metric(url, 'im_gateway_callbacks_ignored_total', 'reason="system"'),
      ]);
      return type >= 2 && system >= 2;
    });
    // A message posted after them arrives, and none of them before it.
    const after = callbackBody(emu.appId);
    await postCallback(url, after);
    await until('the next message handed on', () => sink.messages.some((m) => m.msgId === after.msgId));
    expect(sink.messages.slice(count).map((m) => m.msgId)).toEqual([after.msgId]);
  });

  it('answers 200 even when handing on fails: the work comes after the answer', async () => {
    const capture = captureLog('error');
    setLogger(capture.logger);
    const failing = await receiver();
    failing.sink.deliver = () => {
      throw new Error('the hub is broken');
    };
    const body = callbackBody(emu.appId);
    expect(await postCallback(failing.url, body)).toEqual({ status: 200, text: '' });
    await until('the failure logged', () => capture.entries.some((e) => /handing the message to the subscriptions failed/.test(e.msg)));
  });
});

describe('bad input', () => {
  let url: string;
  let sink: ReturnType<typeof recordingSink>;
  const capture = captureLog('warn');
  beforeAll(async () => {
    setLogger(capture.logger);
    ({ url, sink } = await receiver({ IM_CALLBACK_MAX_BODY_BYTES: '2048' }));
  });

  const refusals = async (reason: string) => metric(url, 'im_gateway_callbacks_refused_total', `reason="${reason}"`);

  it('a missing or wrong signature: 401, nothing handed on, one log line per address a minute', async () => {
    const lines = () => capture.entries.filter((e) => e.reason === 'signature').length;
    const before = lines();
    const body = callbackBody(emu.appId);
    const replies = [
      await postCallback(url, body, { signature: null }),
      await postCallback(url, body, { signature: 'wrong' }),
      await postCallback(url, body, { signature: `${CALLBACK_SECRET}x` }),
      await postCallback(url, body, { signature: '' }),
    ];
    expect(replies.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    expect(replies[0]!.text).toBe('the signature header is missing or wrong\n');
    expect(await refusals('signature')).toBe(4);
    expect(lines() - before).toBeLessThanOrEqual(1);
    expect(sink.messages.some((m) => m.msgId === body.msgId)).toBe(false);
  });

  it('malformed JSON, a body that is no object, an unknown appId, IDs that are not digits: 400 with a reason', async () => {
    const cases: [string | Record<string, unknown>, RegExp][] = [
      ['{"appId":', /^the body is not JSON\n$/],
      ['[1,2]', /^the body is not a JSON object/],
      [callbackBody('another-app'), /^appId "another-app" is not an app this gateway serves\n$/],
      [callbackBody(emu.appId, { appId: 7 }), /^appId must be a string/],
      [callbackBody(emu.appId, { msgId: '12a' }), /^msgId must be a string of decimal digits \(got "12a"\)\n$/],
      [callbackBody(emu.appId, { msgId: -5 }), /^msgId must be a string of decimal digits/],
      [callbackBody(emu.appId, { msgId: 1.5 }), /^msgId must be a string of decimal digits/],
      [callbackBody(emu.appId, { msgId: '18446744073709551616' }), /^msgId must be a string of decimal digits/],
      [callbackBody(emu.appId, { msgId: undefined }), /^msgId is missing\n$/],
      [callbackBody(emu.appId, { from: { uid: 'x1' } }), /^from\.uid must be a string of decimal digits/],
      [callbackBody(emu.appId, { to: '123' }), /^to must be an object with a uid/],
    ];
    for (const [body, reason] of cases) {
      const reply = await postCallback(url, body);
      expect(reply.status, String(reason)).toBe(400);
      expect(reply.text).toMatch(reason);
      expect(reply.text.trim().split('\n')).toHaveLength(1);
    }
    expect((await refusals('malformed')) + (await refusals('app')) + (await refusals('id'))).toBe(cases.length);
    expect(sink.messages).toHaveLength(0);
  });

  it('a body over IM_CALLBACK_MAX_BODY_BYTES: 413, by its length or as it streams', async () => {
    const big = callbackBody(emu.appId, { content: 'x'.repeat(4096) });
    const byLength = await postCallback(url, big);
    expect(byLength.status).toBe(413);
    expect(byLength.text).toBe('the body is over 2048 bytes (IM_CALLBACK_MAX_BODY_BYTES)\n');
    // Chunked: no length to judge by, refused once the bytes pass the bound.
    const text = JSON.stringify(big);
    const streamed = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${url}/im/callback`,
        { method: 'POST', headers: { signature: CALLBACK_SECRET, 'transfer-encoding': 'chunked' } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.write(text.slice(0, 1500));
      req.end(text.slice(1500));
    });
    expect(streamed).toBe(413);
    expect(await refusals('too_large')).toBe(2);
    expect(sink.messages).toHaveLength(0);
  });

  it('another method: 405', async () => {
    const res = await fetch(`${url}/im/callback`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('a flood from one address', () => {
  it('is bounded by the route rate (429), and GraphQL answers meanwhile', async () => {
    const { url, sink } = await receiver({ IM_CALLBACK_RATE: '2' });
    const replies = await Promise.all(Array.from({ length: 30 }, () => postCallback(url, callbackBody(emu.appId))));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    const graphql = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', app_id: emu.appId },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(graphql.status).toBe(200);
    await until('the accepted ones handed on', () => sink.messages.length === statuses.filter((s) => s === 200).length);
  });

  it('is bounded by the requests read at once (503)', async () => {
    const { url } = await receiver({ IM_CALLBACK_MAX_IN_FLIGHT: '1' });
    // One callback whose body never ends holds the only place.
    const held = request(`${url}/im/callback`, { method: 'POST', headers: { signature: CALLBACK_SECRET, 'content-length': '100' } });
    held.on('error', () => {});
    held.write('{"appId":');
    await until('the held request being read', async () => (await postCallback(url, callbackBody(emu.appId))).status === 503);
    held.destroy();
    await until('the place free again', async () => (await postCallback(url, callbackBody(emu.appId))).status === 200);
  });
});

describe('without IM_CALLBACK_SECRET', () => {
  it('serves no callback route', async () => {
    const config = loadConfig({ PORT: '1', ...suiteEnv(), IM_APP_ID: emu.appId });
    const gateway = createGateway({ ...config, port: 0 }, { imBaseUrl: emu.url, callbackSink: recordingSink() });
    started.push(gateway);
    const url = await gateway.start();
    expect((await postCallback(url, callbackBody(emu.appId, { msgId: newMsgId() }))).status).not.toBe(200);
  });
});

describe('configuration', () => {
  it('refuses a callback path the gateway serves already, or no path, with one line', () => {
    expect(() => loadConfig({ IM_CALLBACK_PATH: '/graphql' })).toThrow(/^IM_CALLBACK_PATH must be a path such as \/im\/callback/);
    expect(() => loadConfig({ IM_CALLBACK_PATH: 'im/callback' })).toThrow(/^IM_CALLBACK_PATH must be a path/);
  });

  it('refuses an emulator callback URL that is not http(s), and URLs without a secret for the emulator alone', () => {
    expect(() => loadConfig({ EMULATOR_CALLBACK_URL: 'http://127.0.0.1:4000/im/callback,ftp://x' })).toThrow(
      /^EMULATOR_CALLBACK_URL must use http: or https:/,
    );
    expect(() => loadEmulatorConfig({ EMULATOR_CALLBACK_URL: 'http://127.0.0.1:4000/im/callback' })).toThrow(
      /^EMULATOR_CALLBACK_URL needs EMULATOR_CALLBACK_SECRET/,
    );
    expect(
      loadEmulatorConfig({ EMULATOR_CALLBACK_URL: 'http://127.0.0.1:4000/im/callback', IM_CALLBACK_SECRET: 's' }).callbacks,
    ).toMatchObject({
      urls: ['http://127.0.0.1:4000/im/callback'],
      secret: 's',
    });
  });
});
