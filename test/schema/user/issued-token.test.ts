// A login's or a registration's payload is readable with the token just issued: a request without
// a token (a sign-in screen) reads the user's nickName and private fields in the same answer.
import { describe, expect, it } from 'vitest';
import { useStack } from '../../helpers/stack';

const stack = useStack();

describe("the user of a login's payload", () => {
  it("reads with the token just issued, not the request's absent one", async () => {
    const user = await stack.emu.user();
    await stack.emu.ok('PUT', '/user/nickname', { token: user.token, query: { nick_name: 'Alice' } });
    for (const [mutation, input] of [
      ['loginByName', `username: "${user.name}"`],
      ['loginById', `userId: "${user.id}"`],
      ['loginByLoginName', `loginName: "${user.name}"`],
    ] as const) {
      const reply = await stack.gql<Record<string, unknown>>(
        `mutation { ${mutation}(input: { ${input}, password: "${user.password}" }) { ok token { userId } user { id nickName username } } }`,
      );
      expect(reply.errors).toBeUndefined();
      expect(reply.data![mutation]).toEqual({
        ok: true,
        token: { userId: String(user.id) },
        user: { id: String(user.id), nickName: 'Alice', username: user.name },
      });
    }
  });

  it("reads as the new token even when the request carries another user's token", async () => {
    const [user, other] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    const reply = await stack.gql<{ loginByName: { user: { username: string } } }>(
      `mutation { loginByName(input: { username: "${user.name}", password: "${user.password}" }) { user { username } } }`,
      {},
      { 'access-token': other.token },
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.loginByName.user.username).toBe(user.name);
  });
});

describe("the user of a registration's payload", () => {
  it('without a token reads the new user with a token issued for its credentials, one POST /token/user when selected', async () => {
    const name = `reg_${Date.now().toString(36)}`;
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ registerUser: unknown }>(
      `mutation { registerUser(input: { username: "${name}", password: "secret-1" }) { ok user { username } } }`,
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.registerUser).toEqual({ ok: true, user: { username: name } });
    expect(stack.emu.server.calls.map((c) => c.endpoint)).toEqual(['POST /user/register/v2', 'POST /token/user', 'GET /user/profile']);
  });

  it('makes no login when user is not selected', async () => {
    stack.emu.server.resetCalls();
    const reply = await stack.gql(
      `mutation { registerUser(input: { username: "reg2_${Date.now().toString(36)}", password: "secret-1" }) { ok } }`,
    );
    expect(reply.errors).toBeUndefined();
    expect(stack.emu.server.calls.map((c) => c.endpoint)).toEqual(['POST /user/register/v2']);
  });
});
