// Passwords and deletion (1.4, 1.5, 1.6).
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../../helpers/emulator';

const emu = useEmulator();

const login = (name: string, password: string) => emu.rest('POST', '/token/user', { body: { name, password } });

describe('POST /user/change_password (1.4)', () => {
  it('changes the password: the new one logs in, the old one no longer does', async () => {
    const u = await emu.user();
    expect(
      await emu.ok('POST', '/user/change_password', { token: u.token, body: { old_password: u.password, new_password: 'fresh-2' } }),
    ).toBe(true);
    expect((await login(u.name, 'fresh-2')).code).toBe(200);
    expect((await login(u.name, u.password)).code).toBe(10000);
  });

  it('keeps the token the change was made with working', async () => {
    const u = await emu.user();
    await emu.ok('POST', '/user/change_password', { token: u.token, body: { old_password: u.password, new_password: 'fresh-3' } });
    expect((await emu.rest('GET', '/user/profile', { token: u.token })).code).toBe(200);
  });

  it('refuses a wrong old password with 10002 naming old_password, and keeps the old password', async () => {
    const u = await emu.user();
    const reply = await emu.rest('POST', '/user/change_password', { token: u.token, body: { old_password: 'wrong', new_password: 'x-1' } });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('old_password');
    expect((await login(u.name, u.password)).code).toBe(200);
    expect((await login(u.name, 'x-1')).code).toBe(10000);
  });

  it('refuses a missing new_password with 10002 naming it', async () => {
    const u = await emu.user();
    const reply = await emu.rest('POST', '/user/change_password', { token: u.token, body: { old_password: u.password } });
    expect(reply.code).toBe(10002);
    expect(reply.message).toBe('invalid parameter new_password: is required');
  });

  it('refuses an empty new password and keeps the old one', async () => {
    const u = await emu.user();
    const reply = await emu.rest('POST', '/user/change_password', { token: u.token, body: { old_password: u.password, new_password: '' } });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('new_password');
    expect((await login(u.name, u.password)).code).toBe(200);
  });
});

describe('POST /user/change_password_admin (1.5)', () => {
  it('sets the password of the user named by the user_id header', async () => {
    const u = await emu.user();
    await emu.ok('POST', '/user/change_password_admin', { token: emu.adminToken, userId: u.id, body: { password: 'reset-1' } });
    expect((await login(u.name, 'reset-1')).code).toBe(200);
    expect((await login(u.name, u.password)).code).toBe(10000);
  });

  it('refuses the admin token without a user_id header, naming it', async () => {
    const reply = await emu.rest('POST', '/user/change_password_admin', { token: emu.adminToken, body: { password: 'x' } });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('user_id');
  });

  it('answers 10000 for a user that does not exist', async () => {
    const reply = await emu.rest('POST', '/user/change_password_admin', {
      token: emu.adminToken,
      userId: 1_999_999_999_999,
      body: { password: 'x' },
    });
    expect(reply.code).toBe(10000);
  });

  it('refuses a missing password with 10002 naming it, and a user token with 10010', async () => {
    const u = await emu.user();
    const missing = await emu.rest('POST', '/user/change_password_admin', { token: emu.adminToken, userId: u.id, body: {} });
    expect(missing.message).toBe('invalid parameter password: is required');
    const asUser = await emu.rest('POST', '/user/change_password_admin', { token: u.token, body: { password: 'mine' } });
    expect(asUser.code).toBe(10010);
    expect((await login(u.name, u.password)).code).toBe(200);
  });
});

describe('DELETE,POST /user/delete (1.6)', () => {
  it('deletes the user with its password: its token is refused with 10008 and its name is free again', async () => {
    const u = await emu.user();
    expect(await emu.ok('DELETE', '/user/delete', { token: u.token, body: { password: u.password } })).toBe(true);
    expect((await emu.rest('GET', '/user/profile', { token: u.token })).code).toBe(10008);
    expect((await login(u.name, u.password)).code).toBe(10000);
    const again = await emu.ok<{ user_id: number }>('POST', '/user/register/v2', { body: { username: u.name, password: 'p' } });
    expect(again.user_id).not.toBe(u.id);
  });

  it("frees the deleted user's mobile number for others", async () => {
    const u = await emu.user();
    await emu.ok('PUT', '/user/mobile', { token: u.token, query: { mobile: '13900000001' } });
    await emu.ok('DELETE', '/user/delete', { token: u.token, body: { password: u.password } });
    const next = await emu.user();
    expect((await emu.rest('PUT', '/user/mobile', { token: next.token, query: { mobile: '13900000001' } })).code).toBe(200);
  });

  it('accepts POST as well', async () => {
    const u = await emu.user();
    expect(await emu.ok('POST', '/user/delete', { token: u.token, body: { password: u.password } })).toBe(true);
    expect((await emu.rest('POST', '/token/id', { body: { user_id: u.id, password: u.password } })).code).toBe(10000);
  });

  it('needs the password with a user token, and a wrong one deletes nothing', async () => {
    const u = await emu.user();
    const missing = await emu.rest('DELETE', '/user/delete', { token: u.token });
    expect(missing.code).toBe(10002);
    expect(missing.message).toContain('password');
    const wrong = await emu.rest('DELETE', '/user/delete', { token: u.token, body: { password: 'nope' } });
    expect(wrong.code).toBe(10002);
    expect((await emu.rest('GET', '/user/profile', { token: u.token })).code).toBe(200);
  });

  it('deletes without a password with the admin token and a user_id header', async () => {
    const u = await emu.user();
    await emu.ok('DELETE', '/user/delete', { token: emu.adminToken, userId: u.id });
    const list = await emu.ok<{ user_id: number }[]>('GET', '/user/list', { token: emu.adminToken, query: { page_size: 200 } });
    expect(list.map((e) => e.user_id)).not.toContain(u.id);
    expect((await emu.rest('GET', '/user/profile', { token: emu.adminToken, userId: u.id })).code).toBe(10000);
  });

  it('refuses the admin token without a user_id header and deletes nobody', async () => {
    const before = (await emu.ok<unknown[]>('GET', '/user/list', { token: emu.adminToken, query: { page_size: 200 } })).length;
    const reply = await emu.rest('DELETE', '/user/delete', { token: emu.adminToken });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('user_id');
    expect((await emu.ok<unknown[]>('GET', '/user/list', { token: emu.adminToken, query: { page_size: 200 } })).length).toBe(before);
  });
});
