// The emulator's shared machinery: routing by the table, validation, auth and the envelope.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator';

const emu = useEmulator();

describe('emulator routing and envelope', () => {
  it('answers an unknown path with an error envelope, not an HTML page', async () => {
    const reply = await emu.rest('GET', '/no/such/thing');
    expect(reply.httpStatus).toBe(404);
    expect(reply.code).toBe(404);
    expect(reply.message).toContain('/no/such/thing');
  });

  it('answers a known path with a wrong method with 405 in the envelope', async () => {
    const reply = await emu.rest('GET', '/token/id');
    expect(reply.httpStatus).toBe(405);
    expect(reply.code).toBe(405);
  });

  it('refuses a missing app_id with 10002 and an unknown one with 40000', async () => {
    expect((await emu.rest('POST', '/token/id', { appId: null, body: {} })).code).toBe(10002);
    const unknown = await emu.rest('POST', '/token/id', { appId: 'nope', body: {} });
    expect(unknown.code).toBe(40000);
  });

  it('names the missing required field in a 10002', async () => {
    const reply = await emu.rest('POST', '/token/user', { body: { name: 'x' } });
    expect(reply.code).toBe(10002);
    expect(reply.message).toBe('invalid parameter password: is required');
  });

  it('names the mistyped field in a 10002', async () => {
    const reply = await emu.rest('POST', '/token/id', { body: { user_id: 'abc', password: 'x' } });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('invalid parameter user_id');
  });

  it('refuses a body that is not JSON with 10002', async () => {
    const reply = await emu.rest('POST', '/token/id', { rawBody: '{nope', headers: { 'content-type': 'application/json' } });
    expect(reply.code).toBe(10002);
  });
});

describe('emulator auth', () => {
  it('issues a token that the service then accepts, with expire in milliseconds', async () => {
    const name = `core_${Date.now()}`;
    await emu.ok('POST', '/user/register/v2', { body: { username: name, password: 'pw' } });
    const grant = await emu.ok<{ token: string; user_id: number; expire: number }>('POST', '/token/user', {
      body: { name, password: 'pw' },
    });
    expect(grant.user_id).toBeGreaterThan(1e12);
    expect(grant.expire).toBeGreaterThan(Date.now());
    const byId = await emu.rest('POST', '/token/id', { body: { user_id: grant.user_id, password: 'pw' } });
    expect(byId.code).toBe(200);
  });

  it('refuses a wrong password without telling whether the user exists', async () => {
    const name = `core2_${Date.now()}`;
    await emu.ok('POST', '/user/register/v2', { body: { username: name, password: 'pw' } });
    const wrong = await emu.rest('POST', '/token/user', { body: { name, password: 'bad' } });
    const absent = await emu.rest('POST', '/token/user', { body: { name: `${name}_x`, password: 'bad' } });
    expect(wrong.code).toBe(10000);
    expect(absent.message).toBe(wrong.message);
  });

  it('answers 10003 without a token and 10008 with a bad one', async () => {
    expect((await emu.rest('GET', '/user/profile')).code).toBe(10003);
    expect((await emu.rest('GET', '/user/profile', { token: 'bogus' })).code).toBe(10008);
  });

  it('returns a push token when a device_guid is sent', async () => {
    const u = await emu.user();
    const grant = await emu.ok<{ push_token?: string }>('POST', '/token/user', {
      body: { name: u.name, password: u.password, device_guid: 'dev-1' },
    });
    expect(grant.push_token).toMatch(/^[0-9a-f]{32}$/);
  });

  it('never lets a user token act as another user', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const reply = await emu.rest('GET', '/user/profile', { token: a.token, userId: b.id });
    expect(reply.code).toBe(10010);
  });
});
