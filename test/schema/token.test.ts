// Logging in through the gateway: each mutation reaches its token endpoint, with exact fields.
import { describe, expect, it } from 'vitest';
import { useStack } from '../helpers/stack';

const stack = useStack();

const TOKEN_FIELDS = 'token userId expiresAt pushToken';

describe('login mutations', () => {
  it('logs in by user name with POST /token/user and returns the token record', async () => {
    const user = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ loginByName: { token: string; userId: string; expiresAt: string; pushToken: string | null } }>(
      `mutation($u: String!, $p: String!) { loginByName(username: $u, password: $p, deviceGuid: "phone-1") { ${TOKEN_FIELDS} } }`,
      { u: user.name, p: user.password },
    );
    expect(reply.errors).toBeUndefined();
    const token = reply.data!.loginByName;
    expect(token.userId).toBe(String(user.id));
    expect(Date.parse(token.expiresAt)).toBeGreaterThan(Date.now());
    expect(token.pushToken).toMatch(/^[0-9a-f]{32}$/);
    expect(stack.emu.server.calls).toMatchObject([
      { endpoint: 'POST /token/user', body: { name: user.name, password: user.password, device_guid: 'phone-1' } },
    ]);
    // The token works against the service.
    const me = await stack.gql<{ me: { username: string } }>('{ me { username } }', {}, { 'access-token': token.token });
    expect(me.data?.me.username).toBe(user.name);
  });

  it('logs in by user ID with the ID sent as a JSON number', async () => {
    const user = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ loginById: { userId: string; pushToken: string | null } }>(
      `mutation($id: ID!, $p: String!) { loginById(userId: $id, password: $p) { ${TOKEN_FIELDS} } }`,
      { id: String(user.id), p: user.password },
    );
    expect(reply.data?.loginById).toMatchObject({ userId: String(user.id), pushToken: null });
    expect(stack.emu.server.calls[0]?.body).toEqual({ user_id: user.id, password: user.password });
  });

  it('logs in by login name with POST /token/login', async () => {
    const user = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ loginByLoginName: { userId: string } }>(
      `mutation($l: String!, $p: String!) { loginByLoginName(loginName: $l, password: $p) { userId } }`,
      { l: user.name, p: user.password },
    );
    expect(reply.data?.loginByLoginName.userId).toBe(String(user.id));
    expect(stack.emu.server.calls.map((c) => c.endpoint)).toEqual(['POST /token/login']);
  });

  it('reports a wrong password as NOT_FOUND with the upstream code, and no token', async () => {
    const user = await stack.emu.user();
    const reply = await stack.gql(`mutation($u: String!) { loginByName(username: $u, password: "wrong") { token } }`, { u: user.name });
    expect(reply.data?.loginByName ?? null).toBeNull();
    expect(reply.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', upstreamCode: 10000, endpoint: 'POST /token/user' });
    expect(JSON.stringify(reply)).not.toContain('wrong');
  });

  it('refuses a non-numeric user ID before any REST call', async () => {
    stack.emu.server.resetCalls();
    const reply = await stack.gql('mutation { loginById(userId: "abc", password: "x") { token } }');
    expect(reply.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(reply.errors?.[0]?.message).toContain('"abc"');
    expect(stack.emu.server.calls).toHaveLength(0);
  });
});

describe('ID variables', () => {
  it('refuses a non-numeric ID passed as a variable with BAD_USER_INPUT, not an internal error', async () => {
    stack.emu.server.resetCalls();
    const reply = await stack.gql('mutation($id: ID!) { loginById(userId: $id, password: "x") { token } }', { id: 'abc' });
    expect(reply.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(reply.errors?.[0]?.message).toContain('Variable "$id"');
    expect(stack.emu.server.calls).toHaveLength(0);
  });
});

describe('missing required arguments', () => {
  it('refuses a mutation without a required argument, naming it, before any REST call', async () => {
    stack.emu.server.resetCalls();
    const reply = await stack.gql('mutation { loginByName(username: "alice") { token } }');
    expect(reply.errors?.[0]?.message).toContain('argument "password" of type "String!" is required');
    expect(stack.emu.server.calls).toHaveLength(0);
  });
});
