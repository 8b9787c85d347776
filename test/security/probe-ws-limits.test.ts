// Probe: large WebSocket frames. Before `connection_init` is acknowledged (no identity checked)
// a frame over MAX_WS_INIT_BYTES (16 KiB) closes the socket with 1009; after it, frames up to
// MAX_WS_PAYLOAD_BYTES (1 MiB) are taken and a larger one closes with 1009 (once, 100 MiB frames
// were buffered before authentication). ws refuses such a frame from its header, unbuffered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack';
import { openRawSocket, sendRaw } from '../helpers/raw-socket';
import type { TestUser } from '../helpers/emulator';
import { identity } from '../helpers/users';
import { expectNoErrorLogs } from '../helpers/no-error-logs';

const KiB = 1024;
let stack: Stack;
let me: TestUser;
beforeAll(async () => {
  stack = await startStack();
  me = await stack.emu.user();
});
afterAll(() => stack.stop());

expectNoErrorLogs();

const open = () => openRawSocket(stack.url);
const send = sendRaw;

describe('WebSocket frame limits', () => {
  it('closes with 1009 on a 20 KiB connection_init, before any identity is checked', async () => {
    const raw = await open();
    send(raw, { type: 'connection_init', payload: { ...identity(stack.emu, me), padding: 'x'.repeat(20 * KiB) } });
    expect((await raw.closed).code).toBe(1009);
  });

  it('takes an ordinary connection_init, then a 100 KiB operation, and closes with 1009 on a frame over 1 MiB', async () => {
    const raw = await open();
    send(raw, { type: 'connection_init', payload: identity(stack.emu, me) });
    expect(await raw.next()).toMatchObject({ type: 'connection_ack' });

    // Comments are no tokens: a large document within every limit.
    send(raw, { id: '1', type: 'subscribe', payload: { query: `# ${'x'.repeat(100 * KiB)}\n{ me { id } }` } });
    expect(await raw.next()).toMatchObject({ type: 'next', id: '1', payload: { data: { me: { id: String(me.id) } } } });
    expect(await raw.next()).toMatchObject({ type: 'complete', id: '1' });

    raw.socket.send('x'.repeat(1024 * KiB + 1));
    expect((await raw.closed).code).toBe(1009);
  });
});
