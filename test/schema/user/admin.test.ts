// Writes on other users (admin token), deletion, and registration: exact REST calls, per-user
// results of the batch endpoints, state read back, bad input refused before any call, and
// refusals of the service on the field alone.
import { describe, expect, it } from 'vitest';
import { useStack } from '../../helpers/stack';
import { expectFieldError, freshName, MISSING_USER, seenCalls, tokenOf } from '../../helpers/users';

const stack = useStack();

const admin = () => ({ 'access-token': stack.emu.adminToken });
const canLogIn = async (name: string, password: string) =>
  (await stack.emu.rest('POST', '/token/user', { body: { name, password } })).code === 200;
const statusOf = async (ids: number[]) => {
  const reply = await stack.gql<{ users: { nodes: { id: string; status: string }[] } }>(
    '{ users(first: 200) { nodes { id status } } }',
    {},
    admin(),
  );
  return reply.data!.users.nodes.filter((n) => ids.map(String).includes(n.id)).map((n) => n.status);
};

describe('disableUsers / enableUsers', () => {
  it('ban with PUT /user/disable (IDs as JSON numbers) and unban with PUT /user/enable; the list shows the status', async () => {
    const [a, b] = [await stack.emu.user(), await stack.emu.user()];
    stack.emu.server.resetCalls();
    const banned = await stack.gql(
      'mutation($ids: [ID!]!) { disableUsers(input: { userIds: $ids }) { ok users { id } } }',
      { ids: [String(a.id), String(b.id)] },
      admin(),
    );
    expect(banned.data).toEqual({ disableUsers: { ok: true, users: [{ id: String(a.id) }, { id: String(b.id) }] } });
    expect(seenCalls(stack)).toEqual([{ endpoint: 'PUT /user/disable', body: { list: [a.id, b.id] } }]);
    expect(await statusOf([a.id, b.id])).toEqual(['BANNED', 'BANNED']);

    stack.emu.server.resetCalls();
    const unbanned = await stack.gql(
      'mutation($ids: [ID!]!) { enableUsers(input: { userIds: $ids }) { ok } }',
      { ids: [String(a.id)] },
      admin(),
    );
    expect(unbanned.data).toEqual({ enableUsers: { ok: true } });
    expect(seenCalls(stack)).toEqual([{ endpoint: 'PUT /user/enable', body: { list: [a.id] } }]);
    expect(await statusOf([a.id, b.id])).toEqual(['NORMAL', 'BANNED']);
  });

  it('report an unknown user as NOT_FOUND on that field alone', async () => {
    const u = await stack.emu.user();
    const reply = await stack.gql(
      `mutation { disableUsers(input: { userIds: ["${MISSING_USER}"] }) { ok } enableUsers(input: { userIds: ["${u.id}"] }) { ok } }`,
      {},
      admin(),
    );
    expect(reply.data).toEqual({ disableUsers: null, enableUsers: { ok: true } });
    expectFieldError(reply, ['disableUsers'], { code: 'NOT_FOUND', upstreamCode: 10000, endpoint: 'PUT /user/disable' });
  });
});

describe('setUserAvatars / updateUserProfiles', () => {
  it('set avatars with one PUT /user/avatar/batch and answer one result per entry', async () => {
    const [a, b] = [await stack.emu.user(), await stack.emu.user()];
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ setUserAvatars: { results: unknown[] } }>(
      `mutation($list: [UserAvatarInput!]!) { setUserAvatars(input: { avatars: $list }) { results { success reason userId username } } }`,
      {
        list: [
          { userId: String(a.id), avatar: 'https://img.example/a.png' },
          { userId: String(b.id), avatar: 'not a url' },
          { userId: MISSING_USER, avatar: 'https://img.example/c.png' },
        ],
      },
      admin(),
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data?.setUserAvatars.results).toEqual([
      { success: true, reason: null, userId: String(a.id), username: null },
      { success: false, reason: expect.stringContaining('avatar'), userId: String(b.id), username: null },
      { success: false, reason: expect.stringContaining('does not exist'), userId: MISSING_USER, username: null },
    ]);
    expect(seenCalls(stack)).toEqual([
      {
        endpoint: 'PUT /user/avatar/batch',
        body: {
          list: [
            { user_id: a.id, avatar: 'https://img.example/a.png' },
            { user_id: b.id, avatar: 'not a url' },
            { user_id: Number(MISSING_USER), avatar: 'https://img.example/c.png' },
          ],
        },
      },
    ]);
    const back = await stack.gql(`{ a: user(id: "${a.id}") { avatar } b: user(id: "${b.id}") { avatar } }`, {}, admin());
    expect(back.data).toEqual({ a: { avatar: 'https://img.example/a.png' }, b: { avatar: '' } });
  });

  it('set profiles with one PUT /user/profile/batch; each result reads its user lazily', async () => {
    const [a, b] = [await stack.emu.user(), await stack.emu.user()];
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ updateUserProfiles: { results: unknown[] } }>(
      `mutation($list: [UserProfileInput!]!) { updateUserProfiles(input: { profiles: $list }) { results { success userId } } }`,
      {
        list: [
          { userId: String(a.id), nickName: 'A', publicInfo: 'pub' },
          { userId: String(b.id), description: 'B here' },
        ],
      },
      admin(),
    );
    expect(reply.data?.updateUserProfiles.results).toEqual([
      { success: true, userId: String(a.id) },
      { success: true, userId: String(b.id) },
    ]);
    expect(seenCalls(stack)).toEqual([
      {
        endpoint: 'PUT /user/profile/batch',
        body: {
          list: [
            { user_id: a.id, nick_name: 'A', public_info: 'pub' },
            { user_id: b.id, description: 'B here' },
          ],
        },
      },
    ]);
    const back = await stack.gql<{ updateUserProfiles: { results: { user: { nickName: string; description: string } }[] } }>(
      `mutation { updateUserProfiles(input: { profiles: [{ userId: "${a.id}", description: "A too" }] }) { results { user { nickName description } } } }`,
      {},
      admin(),
    );
    expect(back.data?.updateUserProfiles.results).toEqual([{ user: { nickName: 'A', description: 'A too' } }]);
  });

  it('refuse a user token with FORBIDDEN on the field alone', async () => {
    const u = await stack.emu.user();
    const reply = await stack.gql(
      `mutation { setUserAvatars(input: { avatars: [{ userId: "${u.id}", avatar: "" }] }) { ok } setNickname(input: { nickName: "still here" }) { ok } }`,
      {},
      tokenOf(u),
    );
    expect(reply.data).toEqual({ setUserAvatars: null, setNickname: { ok: true } });
    expectFieldError(reply, ['setUserAvatars'], { code: 'FORBIDDEN', upstreamCode: 10010, endpoint: 'PUT /user/avatar/batch' });

    const profiles = await stack.gql(`mutation { updateUserProfiles(input: { profiles: [{ nickName: "x" }] }) { ok } }`, {}, tokenOf(u));
    expectFieldError(profiles, ['updateUserProfiles'], { code: 'FORBIDDEN', upstreamCode: 10010, endpoint: 'PUT /user/profile/batch' });
  });
});

describe('changeUserPassword', () => {
  it('sets the password as that user (user_id header) with POST /user/change_password_admin', async () => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql(
      `mutation { changeUserPassword(input: { userId: "${u.id}", password: "by-admin" }) { ok user { id } } }`,
      {},
      admin(),
    );
    expect(reply.data).toEqual({ changeUserPassword: { ok: true, user: { id: String(u.id) } } });
    expect(seenCalls(stack)).toEqual([
      { endpoint: 'POST /user/change_password_admin', body: { password: 'by-admin' }, user_id: String(u.id) },
    ]);
    expect(await canLogIn(u.name, 'by-admin')).toBe(true);
    expect(await canLogIn(u.name, u.password)).toBe(false);
  });

  it('reports an unknown user as NOT_FOUND, and a user token as FORBIDDEN', async () => {
    const missing = await stack.gql(
      `mutation { changeUserPassword(input: { userId: "${MISSING_USER}", password: "x" }) { ok } }`,
      {},
      admin(),
    );
    expectFieldError(missing, ['changeUserPassword'], {
      code: 'NOT_FOUND',
      upstreamCode: 10000,
      endpoint: 'POST /user/change_password_admin',
    });
    const u = await stack.emu.user();
    const own = await stack.gql(`mutation { changeUserPassword(input: { userId: "${u.id}", password: "x" }) { ok } }`, {}, tokenOf(u));
    expectFieldError(own, ['changeUserPassword'], { code: 'FORBIDDEN', upstreamCode: 10010 });
  });
});

describe('deleteUser', () => {
  it('deletes the user of a user token with its password', async () => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql(
      `mutation($p: String) { deleteUser(input: { password: $p }) { ok deletedUserId } }`,
      { p: u.password },
      tokenOf(u),
    );
    expect(reply.data).toEqual({ deleteUser: { ok: true, deletedUserId: null } });
    expect(seenCalls(stack)).toEqual([{ endpoint: 'DELETE /user/delete', body: { password: u.password } }]);
    expect(await canLogIn(u.name, u.password)).toBe(false);
  });

  it('deletes another user with the admin token and no password (user_id header)', async () => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql(`mutation { deleteUser(input: { userId: "${u.id}" }) { ok deletedUserId } }`, {}, admin());
    expect(reply.data).toEqual({ deleteUser: { ok: true, deletedUserId: String(u.id) } });
    expect(seenCalls(stack)).toEqual([{ endpoint: 'DELETE /user/delete', body: {}, user_id: String(u.id) }]);
    const back = await stack.gql(`{ user(id: "${u.id}") { username } }`, {}, admin());
    expect(back).toEqual({ data: { user: null } });
  });

  it('reports a wrong password as the userError UNAUTHENTICATED naming the password, and deletes nothing', async () => {
    const u = await stack.emu.user();
    const reply = await stack.gql(
      `mutation { deleteUser(input: { password: "wrong" }) { ok deletedUserId userErrors { field code } } setNickname(input: { nickName: "kept" }) { ok } }`,
      {},
      tokenOf(u),
    );
    expect(reply).toEqual({
      data: {
        deleteUser: { ok: false, deletedUserId: null, userErrors: [{ field: ['input', 'password'], code: 'UNAUTHENTICATED' }] },
        setNickname: { ok: true },
      },
    });
    expect(await canLogIn(u.name, u.password)).toBe(true);
  });
});

describe('registration', () => {
  const SETTINGS = 'user { id } settings { userId authMode noPush vibratory pushToken }';

  it('registerUser registers with POST /user/register/v2 and answers the new user and its settings', async () => {
    const name = freshName();
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ registerUser: { user: { id: string } } }>(
      `mutation { registerUser(input: { username: "${name}", password: "pw-1" }) { ${SETTINGS} } }`,
      {},
      { 'access-token': '' },
    );
    const id = reply.data!.registerUser.user.id;
    expect(reply.data?.registerUser).toEqual({
      user: { id },
      settings: { userId: id, authMode: 'NONE', noPush: false, vibratory: true, pushToken: '' },
    });
    expect(seenCalls(stack)).toEqual([{ endpoint: 'POST /user/register/v2', body: { username: name, password: 'pw-1' } }]);
    const back = await stack.gql(`{ user(id: "${id}") { username } }`, {}, admin());
    expect(back.data).toEqual({ user: { username: name } });
  });

  it('registerUserWithPush sends the push fields and registers the device', async () => {
    const name = freshName();
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ registerUserWithPush: { user: { id: string }; settings: { pushToken: string } } }>(
      `mutation { registerUserWithPush(input: { username: "${name}", password: "pw-1", alias: "al", deviceGuid: "g-1", pushToken: "pt-9" }) { user { id } settings { pushToken } } }`,
    );
    const id = reply.data!.registerUserWithPush.user.id;
    expect(reply.data?.registerUserWithPush.settings.pushToken).toBe('pt-9');
    expect(seenCalls(stack)).toEqual([
      {
        endpoint: 'POST /user/register/push',
        body: { username: name, password: 'pw-1', alias: 'al', device_guid: 'g-1', push_token: 'pt-9' },
      },
    ]);
    const back = await stack.gql(`{ user(id: "${id}") { devices { nodes { deviceSn } } settings { pushToken } } }`, {}, admin());
    expect(back.data).toEqual({ user: { devices: { nodes: [{ deviceSn: 1 }] }, settings: { pushToken: 'pt-9' } } });
  });

  it('registerUsers answers one result per entry: a taken name fails alone, without a user ID', async () => {
    const [one, two] = [freshName(), freshName()];
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{
      registerUsers: { ok: boolean; results: { success: boolean; userId: string | null; username: string; reason: string | null }[] };
    }>(
      `mutation { registerUsers(input: { users: [{ username: "${one}", password: "a" }, { username: "${one}", password: "b" }, { username: "${two}", password: "c" }] }) { ok results { success reason userId username } } }`,
    );
    expect(reply.data!.registerUsers.ok).toBe(false);
    const [first, taken, third] = reply.data!.registerUsers.results;
    expect(first).toEqual({ success: true, reason: null, userId: expect.stringMatching(/^\d+$/), username: one });
    expect(taken).toEqual({ success: false, reason: expect.stringContaining('taken'), userId: null, username: one });
    expect(third).toMatchObject({ success: true, username: two });
    expect(seenCalls(stack)).toEqual([
      {
        endpoint: 'POST /user/register/batch',
        body: {
          list: [
            { username: one, password: 'a' },
            { username: one, password: 'b' },
            { username: two, password: 'c' },
          ],
        },
      },
    ]);
    expect(await canLogIn(two, 'c')).toBe(true);
  });

  it('reports a taken user name as the userError NAME_TAKEN naming the user name, beside a registration that succeeds', async () => {
    const u = await stack.emu.user();
    const fresh = freshName();
    const SELECTION = '{ ok user { id } userErrors { field code message } }';
    const reply = await stack.gql(
      `mutation { taken: registerUser(input: { username: "${u.name}", password: "x" }) ${SELECTION} ok: registerUser(input: { username: "${fresh}", password: "x" }) ${SELECTION} }`,
    );
    expect(reply.errors).toBeUndefined();
    const refusal = {
      ok: false,
      user: null,
      userErrors: [{ field: ['input', 'username'], code: 'NAME_TAKEN', message: expect.any(String) }],
    };
    expect(reply.data?.taken).toEqual(refusal);
    expect(reply.data?.ok).toEqual({ ok: true, user: { id: expect.any(String) }, userErrors: [] });

    const withPush = await stack.gql(`mutation { registerUserWithPush(input: { username: "${u.name}", password: "x" }) ${SELECTION} }`);
    expect(withPush).toEqual({ data: { registerUserWithPush: refusal } });
  });

  it('reports an unknown app on the batch field', async () => {
    const reply = await stack.gql(
      `mutation { registerUsers(input: { users: [{ username: "${freshName()}", password: "x" }] }) { ok } }`,
      {},
      { app_id: 'no-such-app' },
    );
    expectFieldError(reply, ['registerUsers'], { code: 'NOT_FOUND', upstreamCode: 40000, endpoint: 'POST /user/register/batch' });
  });
});

describe('bad input is refused before any REST call', () => {
  it.each([
    ['disableUsers(input: { userIds: [] }) { ok }', 'input.userIds'],
    ['enableUsers(input: { userIds: [] }) { ok }', 'input.userIds'],
    ['setUserAvatars(input: { avatars: [] }) { ok }', 'input.avatars'],
    ['updateUserProfiles(input: { profiles: [] }) { ok }', 'input.profiles'],
    ['changeUserPassword(input: { userId: "5", password: "" }) { ok }', 'input.password'],
    ['registerUser(input: { username: " ", password: "x" }) { ok }', 'input.username'],
    ['registerUserWithPush(input: { username: "n", password: "" }) { ok }', 'input.password'],
    ['registerUsers(input: { users: [] }) { ok }', 'input.users'],
    [
      'registerUsers(input: { users: [{ username: "a", password: "x" }, { username: "b", password: "" }] }) { ok }',
      'input.users[1].password',
    ],
  ])('%s names %s', async (call, field) => {
    stack.emu.server.resetCalls();
    const reply = await stack.gql(`mutation { ${call} }`, {}, admin());
    expect(reply.errors?.[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT', field });
    expect(stack.emu.server.calls).toHaveLength(0);
  });

  it('deleteUser without a password is refused for a user token (no user to act as)', async () => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql('mutation { deleteUser(input: {}) { ok } }', {}, tokenOf(u));
    expect(reply.errors?.[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'input.password' });
    expect(stack.emu.server.calls).toHaveLength(0);
    expect(await canLogIn(u.name, u.password)).toBe(true);
  });
});
