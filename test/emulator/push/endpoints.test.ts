// 7.1 certificates, 7.2 push notify (audiences, strategies, limits, request_id) and 7.3 task
// statistics. Devices are made by logging in with a device_guid; what no REST call of this area
// sets (platform, online state, bound vendor token, tags, alias, no_push) is set on the user
// records, which the users domain owns.
import { describe, expect, it } from 'vitest';
import { PUSH_CHANNELS, type PushCertificate, type PushTaskStats } from '../../../src/rest/records';
import type { DeviceRecord } from '../../../src/emulator/users/model';
import { startEmulator, type TestEmulator, type TestUser, useEmulator } from '../../helpers/emulator';

const emu = useEmulator();

/** Logs the user in on a new device and shapes it. */
async function device(
  e: TestEmulator,
  u: TestUser,
  shape: Partial<Pick<DeviceRecord, 'platform' | 'online' | 'deviceToken' | 'notifierName'>>,
) {
  const guid = `guid-${Math.random().toString(36).slice(2)}`;
  const grant = await e.ok<{ push_token: string }>('POST', '/token/user', {
    body: { name: u.name, password: u.password, device_guid: guid },
  });
  const record = [...e.server.state.users.get(u.id)!.devices.values()].find((d) => d.guid === guid)!;
  Object.assign(record, shape);
  return { pushToken: grant.push_token, record };
}

const notify = (e: TestEmulator, body: unknown) => e.rest<{ task_id: number }>('POST', '/push/notify', { token: e.adminToken, body });
const detail = (e: TestEmulator, list: unknown[]) =>
  e.ok<PushTaskStats[]>('POST', '/push/task/detail', { token: e.adminToken, body: { list } });
const MESSAGE = { title: 'Hi', body: 'There' };

/** The non-zero counters of a task, for compact comparisons. */
function nonZero(stats: PushTaskStats): Record<string, number> {
  return Object.fromEntries(Object.entries(stats).filter(([k, v]) => k !== 'task_id' && Number(v) !== 0)) as Record<string, number>;
}

/** A mixed fleet: iOS online and offline (bound), Android on Huawei and unbound, web, a muted user. */
async function fleet(e: TestEmulator) {
  const ios = await e.user();
  await device(e, ios, { platform: 1, online: true });
  await device(e, ios, { platform: 1, online: false, deviceToken: 'apns-token', notifierName: 'apns-production' });
  const huawei = await e.user();
  await device(e, huawei, { platform: 2, online: false, deviceToken: 'hw-token', notifierName: 'huawei-production' });
  const android = await e.user();
  await device(e, android, { platform: 2, online: false });
  const web = await e.user();
  await device(e, web, { platform: 6, online: false });
  const muted = await e.user();
  await device(e, muted, { platform: 1, online: true });
  e.server.state.users.get(muted.id)!.settings.no_push = true;
  return { ios, huawei, android, web, muted, ids: [ios.id, huawei.id, android.id, web.id, muted.id] };
}

describe('7.1 GET /push/certificate', () => {
  it('answers the same demo certificate for the same provider and environment', async () => {
    const one = await emu.ok<PushCertificate>('GET', '/push/certificate', { token: emu.adminToken, query: { provider: 2 } });
    const two = await emu.ok<PushCertificate>('GET', '/push/certificate', {
      token: emu.adminToken,
      query: { provider: 2, environment: 1 },
    });
    expect(two).toEqual(one);
    expect(one.name).toBe('huawei-production');
    for (const field of ['app_id', 'app_key', 'app_secret'] as const) expect(one[field]).not.toBe('');
    const dev = await emu.ok<PushCertificate>('GET', '/push/certificate', {
      token: emu.adminToken,
      query: { provider: 2, environment: 0 },
    });
    expect(dev.name).toBe('huawei-development');
    expect(dev.app_key).not.toBe(one.app_key);
    const apns = await emu.ok<PushCertificate>('GET', '/push/certificate', { token: emu.adminToken, query: { provider: 1 } });
    expect(apns.certificate).toContain('BEGIN CERTIFICATE');
    const names = [];
    for (let p = 1; p <= 7; p++) {
      names.push((await emu.ok<PushCertificate>('GET', '/push/certificate', { token: emu.adminToken, query: { provider: p } })).name);
    }
    expect(names).toEqual(['apns', 'huawei', 'xiaomi', 'meizu', 'vivo', 'oppo', 'fcm'].map((n) => `${n}-production`));
  });

  it('refuses an unknown provider (10002) and a user token (10010)', async () => {
    expect((await emu.rest('GET', '/push/certificate', { token: emu.adminToken, query: { provider: 8 } })).code).toBe(10002);
    const u = await emu.user();
    expect((await emu.rest('GET', '/push/certificate', { token: u.token, query: { provider: 1 } })).code).toBe(10010);
  });
});

describe('7.2 POST /push/notify and 7.3 POST /push/task/detail', () => {
  it('counts targets, sends and deliveries per channel for the combined strategy', async () => {
    const { ids } = await fleet(emu);
    const reply = await notify(emu, { audience: { user_id: ids }, message: MESSAGE });
    expect(reply.code).toBe(200);
    const [stats] = await detail(emu, [reply.data.task_id]);
    expect(stats!.task_id).toBe(reply.data.task_id);
    expect(nonZero(stats!)).toEqual({
      apns_received: 1,
      apns_sent: 1,
      apns_target: 1,
      huawei_received: 1,
      huawei_sent: 1,
      huawei_target: 1,
      fcm_target: 1,
      nativepush_received: 1,
      nativepush_sent: 1,
      nativepush_target: 1,
    });
  });

  it('follows nativepush_only, ospush_only and the ospush_sequence', async () => {
    const { ids } = await fleet(emu);
    const native = await notify(emu, {
      audience: { user_id: ids },
      message: MESSAGE,
      setting: { distribution_strategy: 'nativepush_only' },
    });
    expect(nonZero((await detail(emu, [native.data.task_id]))[0]!)).toEqual({
      nativepush_target: 5,
      nativepush_sent: 5,
      nativepush_received: 1,
    });
    const os = await notify(emu, { audience: { user_id: ids }, message: MESSAGE, setting: { distribution_strategy: 'ospush_only' } });
    expect(nonZero((await detail(emu, [os.data.task_id]))[0]!)).toEqual({
      apns_target: 2,
      apns_sent: 1,
      apns_received: 1,
      huawei_target: 1,
      huawei_sent: 1,
      huawei_received: 1,
      fcm_target: 1,
    });
    // Only FCM allowed: the Huawei-bound phone has no usable channel, the unbound one goes by FCM.
    const fcmOnly = await notify(emu, { audience: { user_id: ids }, message: MESSAGE, setting: { ospush_sequence: ['fcm'] } });
    expect(nonZero((await detail(emu, [fcmOnly.data.task_id]))[0]!)).toEqual({
      apns_target: 1,
      apns_sent: 1,
      apns_received: 1,
      fcm_target: 1,
      nativepush_target: 1,
      nativepush_sent: 1,
      nativepush_received: 1,
    });
  });

  it('selects devices by tag, alias and push_token; "all" reaches every device of users with push on', async () => {
    const e = await startEmulator();
    try {
      const { ios, huawei, android } = await fleet(e);
      e.server.state.users.get(huawei.id)!.tags.add('vip');
      e.server.state.users.get(android.id)!.pushAlias = 'droid';
      const byTag = await notify(e, { audience: { tag: ['vip', 'nobody'] }, message: MESSAGE });
      expect(nonZero((await detail(e, [byTag.data.task_id]))[0]!)).toEqual({ huawei_target: 1, huawei_sent: 1, huawei_received: 1 });
      const byAlias = await notify(e, { audience: { alias: ['droid'] }, message: MESSAGE });
      expect(nonZero((await detail(e, [byAlias.data.task_id]))[0]!)).toEqual({ fcm_target: 1 });
      const phone = await device(e, ios, { platform: 2, online: true });
      const byToken = await notify(e, { audience: { push_token: [phone.pushToken, 'hw-token'] }, message: MESSAGE });
      expect(nonZero((await detail(e, [byToken.data.task_id]))[0]!)).toEqual({
        nativepush_target: 1,
        nativepush_sent: 1,
        nativepush_received: 1,
        huawei_target: 1,
        huawei_sent: 1,
        huawei_received: 1,
      });
      const all = await notify(e, { audience: 'all', message: MESSAGE });
      // Every device but the muted user's: 2 online (nativepush), apns, huawei, fcm; web has no vendor channel.
      expect(nonZero((await detail(e, [all.data.task_id]))[0]!)).toEqual({
        nativepush_target: 2,
        nativepush_sent: 2,
        nativepush_received: 2,
        apns_target: 1,
        apns_sent: 1,
        apns_received: 1,
        huawei_target: 1,
        huawei_sent: 1,
        huawei_received: 1,
        fcm_target: 1,
      });
    } finally {
      await e.stop();
    }
  });

  it('answers the first task for a repeated request_id without pushing again', async () => {
    const { ids } = await fleet(emu);
    const body = { audience: { user_id: ids }, message: MESSAGE, setting: { request_id: 'req-1' } };
    const first = await notify(emu, body);
    const again = await notify(emu, { ...body, message: { title: 'other' } });
    expect(again.code).toBe(200);
    expect(again.data.task_id).toBe(first.data.task_id);
    const fresh = await notify(emu, { ...body, setting: { request_id: '' } });
    expect(fresh.data.task_id).toBe(first.data.task_id + 1);
    expect((await detail(emu, [first.data.task_id]))[0]!.nativepush_target).toBe(1);
  });

  it.each([
    ['no audience', { message: MESSAGE }, 10002, 'audience'],
    ['an empty audience list', { audience: { tag: [] }, message: MESSAGE }, 10002, 'audience'],
    ['two audience kinds', { audience: { tag: ['a'], alias: ['b'] }, message: MESSAGE }, 10002, 'audience'],
    [
      '501 user IDs',
      { audience: { user_id: Array.from({ length: 501 }, (_, i) => 2_000_000_000_001 + i) }, message: MESSAGE },
      12005,
      'at most 500',
    ],
    ['no message', { audience: 'all' }, 10002, 'message'],
    ['an empty message', { audience: 'all', message: { title: '', ios: { sound: 'x' } } }, 10002, 'message'],
    [
      'an image that is not jpg/jpeg/png',
      { audience: 'all', message: { ...MESSAGE, type: 'image', attachment_url: 'http://x/a.gif' } },
      10002,
      'attachment_url',
    ],
    ['an image without URL', { audience: 'all', message: { ...MESSAGE, type: 'image' } }, 10002, 'attachment_url'],
  ])('refuses %s and creates no task', async (_what, body, code, text) => {
    const before = await notify(emu, { audience: { user_id: [1] }, message: MESSAGE });
    const reply = await notify(emu, body);
    expect(reply.code).toBe(code);
    expect(reply.message).toContain(text);
    const after = await notify(emu, { audience: { user_id: [1] }, message: MESSAGE });
    expect(after.data.task_id).toBe(before.data.task_id + 1);
  });

  it('takes an image URL ending in jpg, jpeg or png (query strings aside)', async () => {
    for (const url of ['http://x/a.jpg', 'https://x/b.JPEG?size=2', 'http://x/c.png']) {
      const reply = await notify(emu, { audience: 'all', message: { type: 'image', attachment_url: url } });
      expect(reply.code).toBe(200);
    }
  });

  it('refuses a user token for notify and task detail (10010)', async () => {
    const u = await emu.user();
    expect((await emu.rest('POST', '/push/notify', { token: u.token, body: { audience: 'all', message: MESSAGE } })).code).toBe(10010);
    expect((await emu.rest('POST', '/push/task/detail', { token: u.token, body: { list: [1] } })).code).toBe(10010);
  });

  it('reads several tasks at once, in the order asked, every counter present, unknown IDs left out', async () => {
    const a = await notify(emu, { audience: 'all', message: MESSAGE });
    const b = await notify(emu, { audience: { alias: ['none'] }, message: MESSAGE });
    const stats = await detail(emu, [b.data.task_id, 1, a.data.task_id, b.data.task_id]);
    expect(stats.map((s) => s.task_id)).toEqual([b.data.task_id, a.data.task_id]);
    const keys = ['task_id', ...PUSH_CHANNELS.flatMap((c) => [`${c}_received`, `${c}_sent`, `${c}_target`])];
    expect(Object.keys(stats[0]!).sort()).toEqual(keys.sort());
    expect(nonZero(stats[0]!)).toEqual({});
    expect(await detail(emu, [])).toEqual([]);
    const missing = await emu.rest('POST', '/push/task/detail', { token: emu.adminToken, body: {} });
    expect(missing.code).toBe(10002);
    expect(missing.message).toContain('list');
  });
});
