// A login's or a registration's payload is readable with the token just issued: a request without
// a token (a sign-in screen) reads the user's nickName and private fields in the same answer, and acts
// as that user for the rest of the request (its groups and conversations in the same answer).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup } from '../../helpers/groups';
import { lateBound } from '../../helpers/late-bound';
import { type Stack, startStack, useStack } from '../../helpers/stack';

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

describe('a request without a token that logs in', () => {
  // As `npm start` runs: the gateway holds the service credential, so other users' names are read.
  const stack = lateBound(() => credentialed, 'the stack with a service credential');
  let credentialed: Stack | undefined;
  beforeAll(async () => {
    credentialed = await startStack({}, { serviceCredential: true });
  });
  afterAll(() => credentialed?.stop());

  async function setUp() {
    const [user, friend] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    await stack.emu.ok('PUT', '/user/nickname', { token: friend.token, query: { nick_name: 'Friend' } });
    const group = await createGroup(stack.emu, user, { name: 'after login', members: [friend] });
    const body = { content_type: 0, content: 'hello after login', attachment: '', targets: [user.id], type: 1 };
    await stack.emu.ok('POST', '/message/send', { token: friend.token, body });
    return { user, friend, group };
  }

  it("reads everything under the payload's user as that user: groups, conversations, other users' names", async () => {
    const { user, group } = await setUp();
    const reply = await stack.gql<{ loginByName: { user: Record<string, unknown> } }>(
      `mutation { loginByName(input: { username: "${user.name}", password: "${user.password}" }) { user {
          joinedGroups(first: 10) { edges { node { id name memberCount } } }
          conversations(first: 10) { edges { node { peer { __typename } lastMessage { content from { displayName } } } } } } } }`,
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.loginByName.user).toEqual({
      joinedGroups: { edges: [{ node: { id: String(group), name: 'after login', memberCount: 2 } }] },
      conversations: {
        edges: expect.arrayContaining([
          { node: { peer: { __typename: 'User' }, lastMessage: { content: 'hello after login', from: { displayName: 'Friend' } } } },
        ]) as unknown,
      },
    });
  });

  it("acts as the user in the operation's later fields", async () => {
    const { user } = await setUp();
    const reply = await stack.gql(
      `mutation { loginByName(input: { username: "${user.name}", password: "${user.password}" }) { ok }
        setNickname(input: { nickName: "Signed In" }) { ok } }`,
    );
    expect(reply.errors).toBeUndefined();
    const profile = await stack.emu.ok<{ nick_name: string }>('GET', '/user/profile', { token: user.token });
    expect(profile.nick_name).toBe('Signed In');
  });

  it("keeps a request's own token for everything but the logged-in user's own fields", async () => {
    const [{ user }, other] = await Promise.all([setUp(), stack.emu.user()]);
    const reply = await stack.gql<{ loginByName: { user: { username: string } }; me: { username: string } }>(
      `mutation { loginByName(input: { username: "${user.name}", password: "${user.password}" }) { user { username } }
        setNickname(input: { nickName: "still other" }) { user { username } } }`,
      {},
      { 'access-token': other.token },
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data).toEqual({ loginByName: { user: { username: user.name } }, setNickname: { user: { username: other.name } } });
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
