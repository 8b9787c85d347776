// Warm start (issue 34, item 2): /ready answers 200 only once the persisted documents are parsed,
// validated and compiled and connections to the IM service are open, so that the first request
// after start costs what the hundredth does. Nothing here is timed: the test looks at what the
// gateway holds when it says it is ready, and at the connections the emulator accepted.
import { afterEach, describe, expect, it } from 'vitest';
import generated from '../../../src/generated/persisted-documents.json' with { type: 'json' };
import { warmUp } from '../../../src/gateway/lifecycle/warm-up';

const CONNECTIONS = 6;
import { createLogger, setLogger } from '../../../src/log/logger';
import { startEmulator } from '../../helpers/emulator';
import { freePort } from '../../helpers/free-port';
import { captureLog } from '../../helpers/log-capture';
import { gatewayVia } from '../../helpers/stack';
import { until } from '../../helpers/wait';

describe('warm start', () => {
  it('says it is warming up until the connections are open, every document prepared first', async () => {
    let open!: () => void;
    const opened = new Promise<{ open: number }>((resolve) => (open = () => resolve({ open: CONNECTIONS })));
    const prepared: string[] = [];
    const warned: string[] = [];
    const pipeline = () => ({
      parse: (text: string) => {
        if (text === 'broken') throw new Error('Syntax Error');
        prepared.push(text);
        return { kind: 'Document', definitions: [] } as never;
      },
      validate: () => [],
      schema: {} as never,
    });
    const warming = warmUp({
      documents: () => ['a', 'broken', 'b'],
      compile: undefined,
      preconnect: () => opened,
      imBaseUrl: 'http://127.0.0.1:1',
      warn: (message) => warned.push(message),
      info: () => {},
    });
    const running = warming.run(pipeline);
    expect(warming.pending()).toMatch(/warming up/);
    // The documents are prepared while the connections open; ready only once both are done.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => setImmediate(resolve));
    expect(warming.pending()).toMatch(/warming up/);
    open();
    await running;
    expect(warming.pending()).toBeUndefined();
    expect(prepared).toEqual(['a', 'b']);
    // A document that fails is left to its first request, and said so.
    expect(warned).toEqual([expect.stringContaining('Syntax Error')]);
  });

  it('answers /ready 200 with every persisted document compiled and every connection of the pool open, before any request', async () => {
    const emu = await startEmulator();
    const { gateway, url } = await gatewayVia(emu.url, { IM_CONNECTIONS: String(CONNECTIONS) });
    try {
      expect((await fetch(`${url}/ready`)).status).toBe(200);
      for (const text of Object.values(generated)) expect(gateway.prepared(text), text.slice(0, 40)).toBe(true);
      expect(gateway.prepared('{ me { id } }')).toBe(false);
      // Opened without a request: the emulator was sent nothing.
      expect(emu.server.connectionsOpened()).toBe(CONNECTIONS);
      expect(emu.calls()).toEqual([]);

      // The first request uses them: no connection is opened for it.
      const user = await emu.user();
      const before = emu.server.connectionsOpened();
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', app_id: emu.appId, 'access-token': user.token },
        body: JSON.stringify({ query: '{ me { id nickName settings { noPush } } }' }),
      });
      expect(((await res.json()) as { data?: { me?: { id: string } } }).data?.me?.id).toBe(String(user.id));
      expect(emu.server.connectionsOpened()).toBe(before);
    } finally {
      await gateway.stop();
      await emu.stop();
    }
  });

  afterEach(() => setLogger(createLogger()));

  it('with no IM service at IM_BASE_URL, warns naming it and the error, and answers /ready 503 until a service appears there', async () => {
    const log = captureLog();
    setLogger(log.logger);
    const port = await freePort(); // closed: nothing listens on it yet
    const imBaseUrl = `http://127.0.0.1:${port}`;
    const { gateway, url } = await gatewayVia(imBaseUrl, { IM_CONNECTIONS: '2' });
    let emu: Awaited<ReturnType<typeof startEmulator>> | undefined;
    try {
      const warning = log.entries.find((e) => e.msg.startsWith('warm start: no connection'));
      expect(warning?.level).toBe('warn');
      expect(warning?.msg).toContain(`${imBaseUrl} (IM_BASE_URL)`);
      expect(warning?.msg).toContain('ECONNREFUSED');
      const ready = await fetch(`${url}/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.text()).toMatch(new RegExp(`no connection to the IM service at ${imBaseUrl}.*ECONNREFUSED`));
      // /health is about the process, which is fine.
      expect((await fetch(`${url}/health`)).status).toBe(200);

      // The service comes up where IM_BASE_URL points: the background retry connects, and /ready follows.
      emu = await startEmulator({ port, host: '127.0.0.1' });
      await until('/ready answers 200 once the service listens', async () => (await fetch(`${url}/ready`)).status === 200);
      expect(log.entries.map((e) => e.msg)).toContain(`warm start: connected to the IM service at ${imBaseUrl}; ready`);
      // Only connections were opened: no request was sent to find out.
      expect(emu.calls()).toEqual([]);
    } finally {
      await gateway.stop();
      await emu?.stop();
    }
  });
});
