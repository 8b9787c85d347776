// Logging in through the gateway: each mutation reaches its token endpoint, with exact fields.
import { describe, expect, it } from 'vitest';
import { useStack } from '../../helpers/stack';

const stack = useStack();

const TOKEN_FIELDS = 'token userId expiresAt pushToken';

describe('login mutations', () => {
  it('logs in by user name with POST /token/user and returns the token record', async () => {
    const user = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{
      loginByName: { token: { token: string; userId: string; expiresAt: string; pushToken: string | null } };
    }>(
      `mutation($u: String!, $p: String!) { loginByName(input: { username: $u, password: $p, deviceGuid: "phone-1" }) { token { ${TOKEN_FIELDS} } } }`,
      { u: user.name, p: user.password },
    );
    expect(reply.errors).toBeUndefined();
    const token = reply.data!.loginByName.token;
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
    const reply = await stack.gql<{ loginById: { token: { userId: string; pushToken: string | null } } }>(
      `mutation($id: ID!, $p: String!) { loginById(input: { userId: $id, password: $p }) { token { ${TOKEN_FIELDS} } } }`,
      { id: String(user.id), p: user.password },
    );
    expect(reply.data?.loginById.token).toMatchObject({ userId: String(user.id), pushToken: null });
    expect(stack.emu.server.calls[0]?.body).toEqual({ user_id: user.id, password: user.password });
  });

  it('logs in by login name with POST /token/login', async () => {
    const user = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ loginByLoginName: { user: { id: string } } }>(
      `mutation($l: String!, $p: String!) { loginByLoginName(input: { loginName: $l, password: $p }) { user { id } } }`,
      { l: user.name, p: user.password },
    );
    expect(reply.data?.loginByLoginName.user.id).toBe(String(user.id));
    expect(stack.emu.server.calls.map((c) => c.endpoint)).toEqual(['POST /token/login']);
  });

  it('reports a wrong password as the userError UNAUTHENTICATED, and no token', async () => {
    const user = await stack.emu.user();
    const reply = await stack.gql(
      `mutation($u: String!) { loginByName(input: { username: $u, password: "wrong" }) { ok token { token } userErrors { field code message } } }`,
      { u: user.name },
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data?.loginByName).toEqual({
      ok: false,
      token: null,
      userErrors: [{ field: null, code: 'UNAUTHENTICATED', message: expect.any(String) }],
    });
    expect(JSON.stringify(reply)).not.toContain('wrong');
  });

  it('refuses a non-numeric user ID before any REST call', async () => {
    stack.emu.server.resetCalls();
    const reply = await stack.gql('mutation { loginById(input: { userId: "abc", password: "x" }) { ok } }');
    expect(reply.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(reply.errors?.[0]?.message).toContain('"abc"');
    expect(stack.emu.server.calls).toHaveLength(0);
  });
});

describe('ID variables', () => {
  it('refuses a non-numeric ID passed as a variable with BAD_USER_INPUT naming the input, not an internal error', async () => {
    stack.emu.server.resetCalls();
    const reply = await stack.gql('mutation($id: ID!) { loginById(input: { userId: $id, password: "x" }) { ok } }', { id: 'abc' });
    expect(reply.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    // GraphQL's ID takes any string (an opaque key is one); the input that names a user refuses it by name.
    expect(reply.errors?.[0]?.message).toMatch(/^input\.userId: .*"abc"/);
    expect(stack.emu.server.calls).toHaveLength(0);
  });
});

describe('missing required arguments', () => {
  it('refuses a mutation without a required argument, naming it, before any REST call', async () => {
    stack.emu.server.resetCalls();
    const reply = await stack.gql('mutation { loginByName(input: { username: "alice" }) { ok } }');
    expect(reply.errors?.[0]?.message).toContain('Field "LoginByNameInput.password" of required type "String!" was not provided');
    expect(stack.emu.server.calls).toHaveLength(0);
  });
});
