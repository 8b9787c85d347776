// Devices, sessions and device tokens (1.7, 1.8, 1.12, 1.16, 1.38, 1.39). A device is registered
// when a token is issued with a device_guid.
import { describe, expect, it } from 'vitest';
import { startEmulator, useEmulator } from '../../helpers/emulator';

const emu = useEmulator();

interface Device {
  device_sn: number;
  platform: number;
  user_agent: string;
  user_id: number;
}

/** A user logged in on two devices: tokens `one` (device 1) and `two` (device 2). */
async function userOnTwoDevices() {
  const u = await emu.user();
  const on = async (device_guid: string) =>
    (await emu.ok<{ token: string }>('POST', '/token/user', { body: { name: u.name, password: u.password, device_guid } })).token;
  return { ...u, one: await on('phone'), two: await on('laptop') };
}

const devices = (token: string) => emu.ok<Device[]>('GET', '/user/device/list', { token });
const profileCode = async (token: string) => (await emu.rest('GET', '/user/profile', { token })).code;
const online = async (id: number) =>
  (await emu.ok<{ online: boolean }>('GET', '/user/online_status', { token: emu.adminToken, userId: id })).online;
const stored = (id: number, sn: number) => emu.server.state.users.get(id)?.devices.get(sn);

describe('GET /user/device/list (1.7)', () => {
  it('lists the devices tokens were issued for, with version and no cursor (one page)', async () => {
    const u = await userOnTwoDevices();
    const reply = await emu.rest<Device[]>('GET', '/user/device/list', { token: u.one });
    expect(reply.data).toEqual([
      { device_sn: 1, platform: expect.any(Number), user_agent: expect.any(String), user_id: u.id },
      { device_sn: 2, platform: expect.any(Number), user_agent: expect.any(String), user_id: u.id },
    ]);
    expect(reply.version).toBe(0);
    expect(reply.cursor).toBeUndefined();
  });

  it('answers an empty list for a user that never logged in with a device_guid', async () => {
    const u = await emu.user();
    expect(await devices(u.token)).toEqual([]);
  });

  it('registers a device once per guid', async () => {
    const u = await userOnTwoDevices();
    await emu.ok('POST', '/token/user', { body: { name: u.name, password: u.password, device_guid: 'phone' } });
    expect((await devices(u.token)).map((d) => d.device_sn)).toEqual([1, 2]);
  });
});

describe('DELETE,POST /user/device/remove (1.8)', () => {
  it("removes the device and revokes its tokens; the other device's token keeps working", async () => {
    const u = await userOnTwoDevices();
    expect(await emu.ok('DELETE', '/user/device/remove', { token: u.two, query: { device_sn: 1 } })).toBe(true);
    expect((await devices(u.two)).map((d) => d.device_sn)).toEqual([2]);
    expect(await profileCode(u.one)).toBe(10008);
    expect(await profileCode(u.two)).toBe(200);
  });

  it('accepts POST as well', async () => {
    const u = await userOnTwoDevices();
    await emu.ok('POST', '/user/device/remove', { token: u.token, query: { device_sn: 2 } });
    expect((await devices(u.token)).map((d) => d.device_sn)).toEqual([1]);
  });

  it('refuses an unknown or missing device_sn with 10002 naming it, and removes nothing', async () => {
    const u = await userOnTwoDevices();
    const unknown = await emu.rest('DELETE', '/user/device/remove', { token: u.one, query: { device_sn: 9 } });
    expect(unknown.code).toBe(10002);
    expect(unknown.message).toContain('device_sn');
    const missing = await emu.rest('DELETE', '/user/device/remove', { token: u.one });
    expect(missing.message).toBe('invalid parameter device_sn: is required');
    expect((await devices(u.one)).map((d) => d.device_sn)).toEqual([1, 2]);
  });

  it("cannot remove another user's device", async () => {
    const a = await userOnTwoDevices();
    const b = await emu.user();
    expect((await emu.rest('DELETE', '/user/device/remove', { token: b.token, query: { device_sn: 1 } })).code).toBe(10002);
    expect(await profileCode(a.one)).toBe(200);
  });
});

describe('PUT,POST /user/kick (1.12) and GET /user/online_status (1.16)', () => {
  it('logs one device out: its token is refused, the others stay, the user is still online', async () => {
    const u = await userOnTwoDevices();
    expect(await emu.ok('PUT', '/user/kick', { token: u.two, query: { device_sn: 1 } })).toBe(true);
    expect(await profileCode(u.one)).toBe(10008);
    expect(await profileCode(u.two)).toBe(200);
    expect(await online(u.id)).toBe(true);
    expect(stored(u.id, 1)?.online).toBe(false);
    expect((await devices(u.two)).map((d) => d.device_sn)).toEqual([1, 2]);
  });

  it('logs every device and token out without device_sn: then online_status is false', async () => {
    const u = await userOnTwoDevices();
    expect(await online(u.id)).toBe(true);
    await emu.ok('POST', '/user/kick', { token: emu.adminToken, userId: u.id });
    for (const token of [u.token, u.one, u.two]) expect(await profileCode(token)).toBe(10008);
    expect(await online(u.id)).toBe(false);
  });

  it('is online again after a new login', async () => {
    const u = await emu.user();
    await emu.ok('PUT', '/user/kick', { token: u.token });
    expect(await online(u.id)).toBe(false);
    await emu.ok('POST', '/token/id', { body: { user_id: u.id, password: u.password } });
    expect(await online(u.id)).toBe(true);
  });

  it('answers online for the caller holding a token, and offline for a registered user that never logged in', async () => {
    const u = await emu.user();
    expect(await emu.ok('GET', '/user/online_status', { token: u.token })).toEqual({ online: true });
    const reg = await emu.ok<{ user_id: number }>('POST', '/user/register/v2', { body: { username: `never_${u.name}`, password: 'p' } });
    expect(await online(reg.user_id)).toBe(false);
  });

  it('answers offline once every token has expired', async () => {
    let now = Date.now();
    const timed = await startEmulator({ clock: () => now, tokenTtlMs: 60_000 });
    try {
      const u = await timed.user();
      const status = () => timed.ok<{ online: boolean }>('GET', '/user/online_status', { token: timed.adminToken, userId: u.id });
      expect(await status()).toEqual({ online: true });
      now += 60_001;
      expect(await status()).toEqual({ online: false });
    } finally {
      await timed.stop();
    }
  });

  it('answers offline for a banned user', async () => {
    const u = await emu.user();
    await emu.ok('PUT', '/user/disable', { token: emu.adminToken, body: { list: [u.id] } });
    expect(await online(u.id)).toBe(false);
  });

  it('refuses kicking an unknown device with 10002 naming device_sn and logs nobody out', async () => {
    const u = await userOnTwoDevices();
    const reply = await emu.rest('PUT', '/user/kick', { token: u.one, query: { device_sn: 7 } });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('device_sn');
    expect([await profileCode(u.one), await profileCode(u.two)]).toEqual([200, 200]);
  });

  it('refuses a mistyped device_sn with 10002 naming it', async () => {
    const u = await emu.user();
    const reply = await emu.rest('PUT', '/user/kick', { token: u.token, query: { device_sn: 'one' } });
    expect(reply.message).toContain('invalid parameter device_sn');
    expect(await profileCode(u.token)).toBe(200);
  });
});

// The web SDK sends device_sn as a JSON body (upstream notes): a device named there is the only
// one logged out, exactly as from the query.
describe('PUT,POST /user/kick (1.12) with device_sn in a JSON body', () => {
  const stillIn = async (u: Awaited<ReturnType<typeof userOnTwoDevices>>) =>
    Promise.all([u.token, u.one, u.two].map(async (t) => (await profileCode(t)) === 200));

  it.each(['PUT', 'POST'])('%s logs out only the device the body names; the others stay', async (method) => {
    const u = await userOnTwoDevices();
    expect(await emu.ok(method, '/user/kick', { token: u.one, body: { device_sn: 2 } })).toBe(true);
    expect(await stillIn(u)).toEqual([true, true, false]);
    expect(await online(u.id)).toBe(true);
    expect(stored(u.id, 2)?.online).toBe(false);
  });

  it('takes device_sn from the query when the body names another device', async () => {
    const u = await userOnTwoDevices();
    await emu.ok('POST', '/user/kick', { token: u.token, query: { device_sn: 1 }, body: { device_sn: 2 } });
    expect(await stillIn(u)).toEqual([true, false, true]);
  });

  it('logs every device out when the body carries no device_sn', async () => {
    const u = await userOnTwoDevices();
    await emu.ok('POST', '/user/kick', { token: u.one, body: {} });
    expect(await stillIn(u)).toEqual([false, false, false]);
  });

  it('refuses an unknown or mistyped body device_sn with 10002 naming it and logs nobody out', async () => {
    const u = await userOnTwoDevices();
    for (const device_sn of [7, 'two', null, -1]) {
      const reply = await emu.rest('POST', '/user/kick', { token: u.one, body: { device_sn } });
      expect(reply.code).toBe(10002);
      expect(reply.message).toMatch(/^invalid parameter device_sn: /);
    }
    expect(await stillIn(u)).toEqual([true, true, true]);
  });
});

describe('PUT,POST /user/token/bind (1.38) and DELETE,POST /user/token/unbind (1.39)', () => {
  it('binds a device token and certificate name to the device', async () => {
    const u = await userOnTwoDevices();
    const body = { device_sn: 2, device_token: 'apns-abc', notifier_name: 'prod-cert' };
    expect(await emu.ok('PUT', '/user/token/bind', { token: u.one, body })).toBe(true);
    expect(stored(u.id, 2)).toMatchObject({ deviceToken: 'apns-abc', notifierName: 'prod-cert' });
    await emu.ok('POST', '/user/token/bind', { token: u.one, body: { ...body, device_token: 'apns-def' } });
    expect(stored(u.id, 2)?.deviceToken).toBe('apns-def');
  });

  it('refuses an unknown device, or a missing or empty field, with 10002 naming it, binding nothing', async () => {
    const u = await userOnTwoDevices();
    const cases = [
      [{ device_sn: 5, device_token: 't', notifier_name: 'n' }, 'device_sn'],
      [{ device_sn: 1, device_token: 't' }, 'invalid parameter notifier_name: is required'],
      [{ device_sn: 1, device_token: '', notifier_name: 'n' }, 'device_token'],
    ] as const;
    for (const [body, named] of cases) {
      const reply = await emu.rest('PUT', '/user/token/bind', { token: u.one, body });
      expect(reply.code).toBe(10002);
      expect(reply.message).toContain(named);
    }
    expect(stored(u.id, 1)?.deviceToken).toBeUndefined();
  });

  it('unbinds with the deviceSn query parameter and answers {device_sn, unbound}', async () => {
    const u = await userOnTwoDevices();
    await emu.ok('PUT', '/user/token/bind', { token: u.one, body: { device_sn: 1, device_token: 'fcm-1', notifier_name: 'fcm' } });
    expect(await emu.ok('DELETE', '/user/token/unbind', { token: u.one, query: { deviceSn: 1 } })).toEqual({ device_sn: 1, unbound: true });
    expect(stored(u.id, 1)?.deviceToken).toBeUndefined();
    expect(stored(u.id, 1)?.notifierName).toBeUndefined();
    expect(await emu.ok('POST', '/user/token/unbind', { token: u.one, query: { deviceSn: 1 } })).toEqual({ device_sn: 1, unbound: true });
  });

  it('refuses an unknown deviceSn, or device_sn in its place, with 10002 naming deviceSn', async () => {
    const u = await userOnTwoDevices();
    await emu.ok('PUT', '/user/token/bind', { token: u.one, body: { device_sn: 1, device_token: 'fcm-1', notifier_name: 'fcm' } });
    for (const query of [{ deviceSn: 3 }, { device_sn: 1 }] as Record<string, number>[]) {
      const reply = await emu.rest('DELETE', '/user/token/unbind', { token: u.one, query });
      expect(reply.code).toBe(10002);
      expect(reply.message).toContain('deviceSn');
    }
    expect(stored(u.id, 1)?.deviceToken).toBe('fcm-1');
  });
});
