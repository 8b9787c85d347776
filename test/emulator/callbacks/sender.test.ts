// The emulator calls back (issue 41 item 5): once a message is stored, one POST of its document-6
// body to each EMULATOR_CALLBACK_URL with the secret in `signature`; APPEND/REPLACE only with
// `force_callback`; faults (EMULATOR_CALLBACK_FAULTS) drop, repeat, delay and reorder, the same
// way for the same seed.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CallbackFaults, NO_FAULTS, parseCallbackFaults } from '../../../src/config';
import { setLogger } from '../../../src/log/logger';
import { captureLog } from '../../helpers/log-capture';
import { startEmulator, type TestEmulator, type TestUser } from '../../helpers/emulator';
import { createGroup } from '../../helpers/groups';
import { until } from '../../helpers/wait';

const SECRET = 'emulator-secret';

interface Received {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  raw: string;
}

/** A test receiver on 127.0.0.1 that records every callback and answers 200. */
let received: Received[] = [];
let server: Server;
let receiverUrl: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, raw, body: JSON.parse(raw) as Record<string, unknown> });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let emulators: TestEmulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.map((e) => e.stop()));
  emulators = [];
  received = [];
});

async function calling(faults: CallbackFaults = NO_FAULTS): Promise<TestEmulator> {
  const emu = await startEmulator({ callbacks: { urls: [receiverUrl], secret: SECRET, faults } });
  emulators.push(emu);
  return emu;
}

const send = async (emu: TestEmulator, from: TestUser, body: Record<string, unknown>) => {
  const reply = await emu.rest('POST', '/message/send', {
    token: from.token,
    body: { content_type: 0, content: 'hello', type: 1, ...body },
  });
  expect(reply.code, reply.message ?? '').toBe(200);
  return (reply.msg_ids ?? []).map(String);
};

/** Until nothing is queued, held back or in flight. */
const settled = (emu: TestEmulator) => until('the callbacks sent', () => emu.server.callbacks?.idle() ?? true);

describe('the emulator calls back', () => {
  it('a one-to-one message: one POST, document 6 body, IDs as strings, the secret in signature', async () => {
    const emu = await calling();
    const [a, b] = [await emu.user(), await emu.user()];
    const [msgId] = await send(emu, a, { targets: [b.id], ext: '{"k":1}', config: '{"mentionAll":false}' });
    await until('the callback', () => received.length === 1);
    const [callback] = received;
    expect(callback!.headers.signature).toBe(SECRET);
    expect(callback!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(callback!.body).toEqual({
      appId: emu.appId,
      msgId,
      from: { uid: String(a.id), deviceSN: expect.any(Number) as number },
      to: { uid: String(b.id), deviceSN: 0 },
      type: 'CHAT',
      ctype: 'TEXT',
      content: 'hello',
      attachment: '',
      config: '{"mentionAll":false}',
      ext: '{"k":1}',
      timestamp: expect.stringMatching(/^\d+$/) as string,
    });
    // The ID is above 2^53: written as digits in a string, never as a JSON number.
    expect(BigInt(msgId!)).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
    expect(callback!.raw).toContain(`"msgId":"${msgId}"`);
  });

  it('a group message: one POST (not one per member), type GROUPCHAT, to the group', async () => {
    const emu = await calling();
    const [a, b, c] = [await emu.user(), await emu.user(), await emu.user()];
    const group = await createGroup(emu, a, { members: [b, c] });
    const [msgId] = await send(emu, a, { targets: [group], type: 2 });
    await until('the callback', () => received.length >= 1);
    await settled(emu);
    expect(received.map((r) => r.body)).toEqual([
      expect.objectContaining({ msgId, type: 'GROUPCHAT', to: { uid: String(group), deviceSN: 0 } }),
    ]);
  });

  it('APPEND and REPLACE only when their config has force_callback: true', async () => {
    const emu = await calling();
    const [a, b] = [await emu.user(), await emu.user()];
    const [original] = await send(emu, a, { targets: [b.id] });
    const operation = (content_type: number, config?: string) =>
      send(emu, a, { targets: [b.id], content_type, content: ' more', related_mid: original, ...(config ? { config } : {}) });
    await operation(11);
    await operation(12, '{"force_callback":false}');
    const [append] = await operation(11, '{"force_callback":true}');
    const [replace] = await operation(12, '{"force_callback":true}');
    await until('three callbacks', () => received.length >= 3);
    await settled(emu);
    expect(received.map((r) => [r.body.msgId, r.body.type])).toEqual([
      [original, 'CHAT'],
      [append, 'APPEND'],
      [replace, 'REPLACE'],
    ]);
    expect(received[1]!.body).not.toHaveProperty('ctype');
    expect(received[1]!.body.content).toBe(' more');
  });

  it('a system notification with isSystem, from uid 0', async () => {
    const emu = await calling();
    const b = await emu.user();
    const reply = await emu.rest('POST', '/message/notify', {
      token: emu.adminToken,
      body: { content_type: 0, content: 'notice', targets: [b.id], type: 1 },
    });
    expect(reply.code, reply.message ?? '').toBe(200);
    await until('the callback', () => received.length === 1);
    expect(received[0]!.body).toMatchObject({ isSystem: true, from: { uid: '0', deviceSN: 0 }, type: 'CHAT' });
  });

  it('logs a failing URL and goes on (nothing thrown into the send)', async () => {
    const capture = captureLog('warn');
    setLogger(capture.logger);
    const emu = await startEmulator({
      callbacks: { urls: ['http://127.0.0.1:1/nowhere', receiverUrl], secret: SECRET, faults: NO_FAULTS },
    });
    emulators.push(emu);
    const [a, b] = [await emu.user(), await emu.user()];
    await send(emu, a, { targets: [b.id] });
    await until('the working URL called back', () => received.length === 1);
    const sender = emu.server.callbacks!;
    await until('the failure and the success counted', () => sender.stats().failed === 1 && sender.stats().sent === 1);
    expect(capture.entries.map((e) => e.msg)).toEqual([
      expect.stringMatching(/^emulator: callback to http:\/\/127\.0\.0\.1:1\/nowhere failed: /),
    ]);
  });
});

describe('faults', () => {
  /**
   * Sends `n` texts from one user to `n` others in one call (stored together, in target order);
   * answers the targets, which name the messages (each message goes to its own).
   */
  async function burst(emu: TestEmulator, n: number): Promise<string[]> {
    const a = await emu.user();
    const targets: number[] = [];
    for (let i = 0; i < n; i++) targets.push((await emu.user()).id);
    received = [];
    await send(emu, a, { targets });
    return targets.map(String);
  }
  /** The target of each callback received, in arrival order. */
  const arrivals = () => received.map((r) => (r.body.to as { uid: string }).uid);

  it('drop: the same messages dropped for the same seed, the rest sent once', async () => {
    const runs: string[][] = [];
    for (let run = 0; run < 2; run++) {
      const emu = await calling(parseCallbackFaults('drop=30,seed=7'));
      const ids = await burst(emu, 20);
      await settled(emu);
      const got = arrivals();
      expect(new Set(got).size).toBe(got.length);
      expect(got.length).toBeGreaterThan(0);
      expect(got.length).toBeLessThan(20);
      runs.push(got.map((id) => String(ids.indexOf(id))));
      await emu.stop();
    }
    expect(runs[0]).toEqual(runs[1]);
  });

  it('duplicate: every message twice at 100%', async () => {
    const emu = await calling(parseCallbackFaults('duplicate=100'));
    const ids = await burst(emu, 3);
    await settled(emu);
    expect(arrivals()).toEqual(ids.flatMap((id) => [id, id]));
  });

  it('reorder: each held message goes after the next one', async () => {
    const emu = await calling(parseCallbackFaults('reorder=100'));
    const ids = await burst(emu, 4);
    await settled(emu);
    expect(arrivals()).toEqual([ids[1], ids[0], ids[3], ids[2]]);
  });

  it('delay: the delayed messages arrive after the others, every one once', async () => {
    const emu = await calling(parseCallbackFaults('delay=50:300,seed=11'));
    const ids = await burst(emu, 10);
    await settled(emu);
    const got = arrivals();
    expect([...got].sort()).toEqual([...ids].sort());
    // Those sent at once keep their order, ahead of the delayed ones.
    const delayedAt = got.findIndex((id, i) => i > 0 && ids.indexOf(id) < ids.indexOf(got[i - 1]!));
    expect(delayedAt).toBeGreaterThan(0);
  });

  it('refuses a malformed fault list with one clear line', () => {
    expect(() => parseCallbackFaults('drop=200')).toThrow('EMULATOR_CALLBACK_FAULTS: drop must be a percentage from 0 to 100 (got "200")');
    expect(() => parseCallbackFaults('lose=5')).toThrow(/unknown fault "lose"/);
    expect(() => parseCallbackFaults('delay=10')).toThrow(/delay \(after the colon, ms\) must be an integer/);
  });
});
