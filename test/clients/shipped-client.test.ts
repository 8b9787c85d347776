// A chat client shipped against the last release declares its send operation's variables as the
// release typed them: `$transactionId: ID`. It must keep validating and sending, whatever key it
// makes up (a UUID, a number), and read the key back as an ID.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/emulator';
import { useStack } from '../helpers/stack';

const stack = useStack();
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  [alice, bob] = await Promise.all([stack.emu.user(), stack.emu.user()]);
});

// As the client's generated document has it: the key inline, declared ID.
const SEND = `mutation Send($to: ID!, $text: String!, $transactionId: ID) {
  sendMessage(input: { type: TEXT, content: $text, targets: [$to], targetType: USER, transactionId: $transactionId }) {
    ok transactionId messageIds userErrors { code field }
  }
}`;
type Sent = { sendMessage: { ok: boolean; transactionId: string; messageIds: string[] | null } };

const sends = () => stack.emu.server.calls.filter((c) => c.endpoint === 'PUT /message/send').length;

describe('a client built against the last release', () => {
  it.each([
    ['a UUID', 'c0a8e2a4-5b1e-4f7e-9a51-0d6f3b2a9e11'],
    ['a number', '9007199254740993123'],
  ])('sends with `$transactionId: ID` holding %s, reads the key back, and a retry with it sends nothing twice', async (_, key) => {
    stack.emu.server.resetCalls();
    const first = await stack.gqlAs<Sent>(alice, SEND, { to: String(bob.id), text: `once ${key}`, transactionId: key });
    expect(first.errors).toBeUndefined();
    expect(first.data!.sendMessage).toMatchObject({ ok: true, transactionId: key });
    const again = await stack.gqlAs<Sent>(alice, SEND, { to: String(bob.id), text: `once ${key}`, transactionId: key });
    expect(again.data!.sendMessage).toMatchObject({ ok: true, transactionId: key });
    expect(sends()).toBe(2);
    const history = await stack.emu.rest('GET', '/message/conversation', {
      token: bob.token,
      query: { opposite_id: String(alice.id), msg_id_start: '0', limit: '50' },
    });
    expect(history.text.split(`once ${key}`).length - 1).toBe(1);
  });

  it('still refuses a key over 64 characters by its field, before any REST call', async () => {
    stack.emu.server.resetCalls();
    const reply = await stack.gqlAs<Sent>(alice, SEND, { to: String(bob.id), text: 'x', transactionId: 'k'.repeat(65) });
    expect(reply.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.transactionId' });
    expect(sends()).toBe(0);
  });

  it('refuses a key where an ID names a user, by the input it was sent to', async () => {
    stack.emu.server.resetCalls();
    const reply = await stack.gqlAs<Sent>(alice, SEND, { to: 'c0a8e2a4-5b1e', text: 'x' });
    expect(reply.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(reply.errors?.[0]?.message).toMatch(/^input\.targets\[0\]: .*"c0a8e2a4-5b1e"/);
    expect(sends()).toBe(0);
  });
});
