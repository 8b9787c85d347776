// Who may call the user endpoints: every one of document 2 (1.1–1.44, the pins of 1.42–1.44 from document 5) checked from the table.
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../../src/rest/endpoints';
import { useEmulator } from '../../helpers/emulator';

const emu = useEmulator();

const userEndpoints = Object.values(endpoints).filter((def) => def.no.startsWith('1.'));
const calls = userEndpoints.flatMap((def) => def.methods.map((method) => ({ method, path: def.path, def })));
const guarded = calls.filter(({ def }) => def.auth !== 'none');
const adminOnly = calls.filter(({ def }) => def.auth === 'admin');

describe('user endpoints: authentication', () => {
  it('covers all 44 endpoints of document 2 (with the pins of document 5)', () => {
    expect(userEndpoints).toHaveLength(44);
    const adminNos = userEndpoints.filter((def) => def.auth === 'admin').map((def) => def.no);
    expect(adminNos.sort()).toEqual(['1.11', '1.13', '1.20', '1.3', '1.5', '1.9'].sort());
  });

  it.each(guarded.map((c) => [c.method, c.path] as const))('%s %s answers 10003 without an access-token', async (method, path) => {
    const reply = await emu.rest(method, path);
    expect(reply.code).toBe(10003);
  });

  it.each(guarded.map((c) => [c.method, c.path] as const))('%s %s answers 10008 with a bad access-token', async (method, path) => {
    const reply = await emu.rest(method, path, { token: 'not-a-token' });
    expect(reply.code).toBe(10008);
  });

  it.each(adminOnly.map((c) => [c.method, c.path] as const))('%s %s refuses a user token with 10010', async (method, path) => {
    const u = await emu.user();
    // Valid parameters, so the refusal can only be about the token.
    const body = method === 'GET' ? {} : { body: { list: [u.id], password: 'x' } };
    const reply = await emu.rest(method, path, { token: u.token, ...body });
    expect(reply.code).toBe(10010);
  });

  it('refuses the admin token without a user_id header where the call acts as a user, naming the header', async () => {
    const reply = await emu.rest('GET', '/user/profile', { token: emu.adminToken });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('user_id');
  });

  it('answers 10000 when the admin token acts as a user that does not exist', async () => {
    const reply = await emu.rest('GET', '/user/profile', { token: emu.adminToken, userId: 1_999_999_999_999 });
    expect(reply.code).toBe(10000);
  });

  it('lets the admin token with a user_id header act as that user', async () => {
    const u = await emu.user();
    await emu.ok('PUT', '/user/nickname', { token: emu.adminToken, userId: u.id, query: { nick_name: 'Set by admin' } });
    const profile = await emu.ok<{ nick_name: string; user_id: number }>('GET', '/user/profile', { token: u.token });
    expect(profile).toMatchObject({ nick_name: 'Set by admin', user_id: u.id });
  });
});
