// broadcastMessage: the admin token's message to every user (POST /message/broadcast) and its
// count; any other caller refused before the broadcast is sent; bad input before any REST call.
import { describe, expect, it } from 'vitest';
import { INT64_MAX } from '../../../src/rest/json';
import type { ConversationPage } from '../../../src/rest/records';
import type { TestUser } from '../../helpers/emulator';
import { onlyError, type Stack, useCredentialStacks } from '../../helpers/stack';

const { withCredential, without } = useCredentialStacks();

const BROADCAST = `mutation($input: BroadcastMessageInput!) {
  broadcastMessage(input: $input) { ok sentCount userErrors { code } } }`;

type Broadcast = { broadcastMessage: { ok: boolean; sentCount: number; userErrors: unknown[] } | null };

/** The system conversation's newest contents, as the user reads it (raw REST). */
async function systemMessages(stack: Stack, u: TestUser): Promise<string[]> {
  const page = await stack.emu.ok<ConversationPage>('GET', '/message/conversation', {
    token: u.token,
    query: { opposite_id: 0, msg_id_start: String(INT64_MAX), limit: 5 },
  });
  return page.messages.map((m) => m.content);
}

const endpoints = (stack: Stack) => stack.emu.calls().map((c) => c.endpoint);

describe('broadcastMessage with the admin token', () => {
  it("sends one POST /message/broadcast, answers the service's count, and every user receives the message", async () => {
    const stack = without;
    const [a, b] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    stack.emu.mark();
    const reply = await stack.gqlAs<Broadcast>('admin', BROADCAST, { input: { type: 'TEXT', content: 'maintenance at noon', ext: 'x' } });
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.broadcastMessage).toMatchObject({ ok: true, userErrors: [] });
    expect(reply.data!.broadcastMessage!.sentCount).toBeGreaterThanOrEqual(2);
    const [call] = stack.emu.calls('POST /message/broadcast');
    expect(call?.body).toEqual({ content_type: 0, type: 1, content: 'maintenance at noon', ext: 'x' });
    for (const u of [a, b]) expect(await systemMessages(stack, u)).toContain('maintenance at noon');
  });

  it("makes no other call when the token is the gateway's own credential (IM_ADMIN_TOKEN)", async () => {
    const stack = withCredential;
    await stack.emu.user();
    stack.emu.mark();
    const reply = await stack.gqlAs<Broadcast>('admin', BROADCAST, { input: { type: 'COMMAND', content: 'refresh' } });
    expect(reply.data!.broadcastMessage?.ok).toBe(true);
    expect(endpoints(stack)).toEqual(['POST /message/broadcast']);
  });

  it('is allowed to the admin token acting as a user (the user_id header changes nothing)', async () => {
    const stack = without;
    const u = await stack.emu.user();
    stack.emu.mark();
    const reply = await stack.gql<Broadcast>(BROADCAST, { input: { type: 'TEXT', content: 'as the app' } }, stack.asUser(u.id));
    expect(reply.data!.broadcastMessage?.ok).toBe(true);
    expect(endpoints(stack)).toContain('POST /message/broadcast');
  });
});

describe('broadcastMessage refused', () => {
  for (const [name, stack] of [
    ['without a credential', () => without],
    ['with a credential', () => withCredential],
  ] as const) {
    it(`refuses a user's token with FORBIDDEN and never sends the broadcast (${name})`, async () => {
      const s = stack();
      const u = await s.emu.user();
      for (let i = 0; i < 2; i++) {
        s.emu.mark();
        const reply = await s.gqlAs<Broadcast>(u, BROADCAST, { input: { type: 'TEXT', content: 'spam' } });
        expect(reply.data?.broadcastMessage ?? null).toBeNull();
        expect(onlyError(reply).extensions).toMatchObject({ code: 'FORBIDDEN' });
        // The only call is the caller proof the gateway makes anyway (remembered with a credential).
        expect(endpoints(s).filter((e) => e !== 'GET /user/profile')).toEqual([]);
      }
    });
  }

  it("refuses a user's token sent with a user_id header (the service refuses that header to it) without broadcasting", async () => {
    const [u, other] = await Promise.all([without.emu.user(), without.emu.user()]);
    without.emu.mark();
    const reply = await without.gql<Broadcast>(
      BROADCAST,
      { input: { type: 'TEXT', content: 'spam' } },
      { 'access-token': u.token, user_id: String(other.id) },
    );
    expect(onlyError(reply).extensions).toMatchObject({ code: 'FORBIDDEN' });
    expect(without.emu.calls('POST /message/broadcast')).toEqual([]);
  });

  it('refuses a request without a token with UNAUTHENTICATED before any REST call', async () => {
    without.emu.mark();
    const reply = await without.gql<Broadcast>(BROADCAST, { input: { type: 'TEXT', content: 'hello' } });
    expect(onlyError(reply).extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(endpoints(without)).toEqual([]);
  });

  for (const [what, input, field] of [
    ['a FORWARD', { type: 'FORWARD', content: 'x' }, 'input.type'],
    ['a blank TEXT', { type: 'TEXT', content: '  ' }, 'input.content'],
    ['an IMAGE without its URL', { type: 'IMAGE' }, 'input.attachment.url'],
  ] as const) {
    it(`refuses ${what} with BAD_USER_INPUT naming ${field}, before any REST call`, async () => {
      without.emu.mark();
      const reply = await without.gqlAs<Broadcast>('admin', BROADCAST, { input });
      expect(onlyError(reply).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
      expect(endpoints(without)).toEqual([]);
    });
  }
});
