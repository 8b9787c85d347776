// Probe: WebSocket protocol errors from a client (issue 35, item 3). A client-sent `next` closed
// the socket with 4500 and printed an 11-line stack with absolute paths outside the JSON logs. Now
// a message a client may not send, a malformed one and one of an unknown type close with
// graphql-ws's 4400 Bad request, each logs one JSON line without a stack, nothing reaches
// console.error, and the gateway serves on.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, setLogger } from '../../src/log/logger';
import type { TestUser } from '../helpers/emulator';
import { captureLog } from '../helpers/log-capture';
import { expectNoErrorLogs } from '../helpers/no-error-logs';
import { startStack, type Stack } from '../helpers/stack';
import { wsUrl } from '../helpers/subscriptions/clients';
import { identity } from '../helpers/users';
import { until } from '../helpers/wait';

let stack: Stack;
let me: TestUser;
const captured = captureLog('info');
beforeAll(async () => {
  stack = await startStack();
  me = await stack.emu.user();
  setLogger(captured.logger);
});
afterAll(async () => {
  setLogger(createLogger());
  await stack.stop();
});

expectNoErrorLogs();

/** An acknowledged socket: the close it ends with. */
async function acknowledged(): Promise<{ socket: WebSocket; closed: Promise<{ code: number; reason: string }> }> {
  const socket = new WebSocket(wsUrl(stack.url), 'graphql-transport-ws');
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  const acked = new Promise<void>((resolve) => socket.once('message', () => resolve()));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ type: 'connection_init', payload: identity(stack.emu, me) }));
  await acked;
  return { socket, closed };
}

describe('a client that breaks the graphql-ws protocol', () => {
  const cases: [string, string][] = [
    ['a `next` message (only a server sends one)', JSON.stringify({ id: '1', type: 'next', payload: { data: { me: null } } })],
    ['a malformed message', '{"type": "subscribe", "id": '],
    ['a message of an unknown type', JSON.stringify({ type: 'shout', payload: 'hello' })],
  ];

  for (const [what, message] of cases) {
    it(`is closed with 4400 on ${what}, logged in one JSON line without a stack, and the gateway serves on`, async () => {
      const { socket, closed } = await acknowledged();
      const from = captured.entries.length;
      const protocolLines = () => captured.entries.slice(from).filter((entry) => /WebSocket/.test(entry.msg));
      socket.send(message);
      const { code } = await closed;
      expect(code).toBe(4400);
      await until('the close logged', () => protocolLines().length > 0);
      const lines = protocolLines();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 'warn', code: 4400 });
      expect(JSON.stringify(lines[0])).not.toMatch(/stack|\/work\/|node_modules|at .*\(/);
      // Every line written is JSON (captureLog parses each), and console.error saw nothing (expectNoErrorLogs).
      expect(captured.text().trim().split('\n')).toHaveLength(captured.entries.length);

      const reply = await stack.gqlAs(me, '{ me { id } }');
      expect(reply.data).toEqual({ me: { id: String(me.id) } });
      const again = await acknowledged();
      again.socket.close();
    });
  }
});
