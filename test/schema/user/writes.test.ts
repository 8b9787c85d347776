// Writes of the acting user: each mutation reaches exactly its endpoint with the right method and
// parameter places, selecting only `ok` costs exactly one REST call, the change reads back, and a
// refusal of the service lands on that mutation's field alone.
import { describe, expect, it } from 'vitest';
import type { EndpointName } from '../../../src/rest/endpoints';
import { useStack } from '../../helpers/stack';
import { expectFieldError, freshName, loginOnDevice, MISSING_USER, seenCalls, type TestUser, tokenOf } from '../../helpers/users';

// Many sign-in and password writes from one address: the sign-in limits are probe-sign-in-limit.test.ts's.
const stack = useStack({ SIGN_IN_LIMIT_ADDRESS: 'off', SIGN_IN_LIMIT_NAME: 'off' });

interface Case {
  /** The mutation field with its arguments. */
  call: string;
  endpoint: EndpointName;
  /** What the emulator must receive: query (as URL text) and/or body. */
  sent: { query?: Record<string, string>; body?: unknown };
  /** State before the mutation, made with raw REST as the user. */
  setup?: (u: TestUser, token: string) => Promise<unknown>;
  /** Read back after the mutation: a selection of `me` (read as the user via the admin token) and its value... */
  readBack?: { me: string; is: unknown };
  /** ...or a check of state no read endpoint shows. */
  check?: (u: TestUser) => unknown;
}

const stored = (u: TestUser) => stack.emu.server.state.users.get(u.id);
const tagsOf = (token: string, tags: string[]) => stack.emu.ok('POST', '/user/push/tag', { token, body: { tags } });

const CASES: Record<string, Case> = {
  setNickname: {
    call: 'setNickname(input: { nickName: "Neo" })',
    endpoint: 'PUT /user/nickname',
    sent: { query: { nick_name: 'Neo' } },
    readBack: { me: 'nickName', is: { nickName: 'Neo' } },
  },
  setAvatar: {
    call: 'setAvatar(input: { avatar: "https://img.example/a.png" })',
    endpoint: 'PUT /user/avatar',
    sent: { body: { avatar: 'https://img.example/a.png' } },
    readBack: { me: 'avatar', is: { avatar: 'https://img.example/a.png' } },
  },
  setMobile: {
    call: 'setMobile(input: { mobile: "+4915112345678" })',
    endpoint: 'PUT /user/mobile',
    sent: { query: { mobile: '+4915112345678' } },
    readBack: { me: 'mobile', is: { mobile: '+4915112345678' } },
  },
  setUsername: {
    call: 'setUsername(input: { username: "renamed_one" })',
    endpoint: 'PUT /user/username',
    sent: { query: { username: 'renamed_one' } },
    readBack: { me: 'username', is: { username: 'renamed_one' } },
  },
  setPrivateInfo: {
    call: 'setPrivateInfo(input: { info: "only mine" })',
    endpoint: 'PUT /user/private',
    sent: { body: 'only mine' },
    readBack: { me: 'privateInfo', is: { privateInfo: 'only mine' } },
  },
  setPublicInfo: {
    call: 'setPublicInfo(input: { info: "hello world" })',
    endpoint: 'PUT /user/public',
    sent: { body: 'hello world' },
    readBack: { me: 'publicInfo', is: { publicInfo: 'hello world' } },
  },
  updateProfile: {
    call: 'updateProfile(input: { description: "about me", nickName: "Trin" })',
    endpoint: 'PUT /user/profile',
    sent: { body: { description: 'about me', nick_name: 'Trin' } },
    readBack: { me: 'description nickName publicInfo', is: { description: 'about me', nickName: 'Trin', publicInfo: '' } },
  },
  setAuthMode: {
    call: 'setAuthMode(input: { authMode: QUESTION })',
    endpoint: 'PUT /user/authmode',
    sent: { query: { value: '2' } },
    readBack: { me: 'settings { authMode }', is: { settings: { authMode: 'QUESTION' } } },
  },
  setAutoDownload: {
    call: 'setAutoDownload(input: { autoDownload: false })',
    endpoint: 'PUT /user/download',
    sent: { query: { value: 'false' } },
    readBack: { me: 'settings { autoDownload }', is: { settings: { autoDownload: false } } },
  },
  setPushDisabled: {
    call: 'setPushDisabled(input: { disabled: true })',
    endpoint: 'PUT /user/push',
    sent: { query: { value: 'true' } },
    readBack: { me: 'settings { noPush }', is: { settings: { noPush: true } } },
  },
  setPushDetailsHidden: {
    call: 'setPushDetailsHidden(input: { hidden: true })',
    endpoint: 'PUT /user/push/detail',
    sent: { query: { value: 'true' } },
    readBack: { me: 'settings { noPushDetail }', is: { settings: { noPushDetail: true } } },
  },
  setPushNickname: {
    call: 'setPushNickname(input: { pushNickName: "Neo (push)" })',
    endpoint: 'PUT /user/push/nickname',
    sent: { query: { value: 'Neo (push)' } },
    readBack: { me: 'settings { pushNickName }', is: { settings: { pushNickName: 'Neo (push)' } } },
  },
  setSoundsMuted: {
    call: 'setSoundsMuted(input: { muted: true })',
    endpoint: 'PUT /user/sounds',
    sent: { query: { value: 'true' } },
    readBack: { me: 'settings { noSounds }', is: { settings: { noSounds: true } } },
  },
  setVibrate: {
    call: 'setVibrate(input: { vibrate: false })',
    endpoint: 'PUT /user/vibratory',
    sent: { query: { value: 'false' } },
    readBack: { me: 'settings { vibratory }', is: { settings: { vibratory: false } } },
  },
  setNoPushHours: {
    call: 'setNoPushHours(input: { noPushStartHour: 22, noPushEndHour: 7 })',
    endpoint: 'PUT /user/push/limit',
    sent: { query: { no_push_start_hour: '22', no_push_end_hour: '7' } },
    readBack: { me: 'settings { noPushStartHour noPushEndHour }', is: { settings: { noPushStartHour: 22, noPushEndHour: 7 } } },
  },
  setPushAlias: {
    call: 'setPushAlias(input: { alias: "neo-alias", pushToken: "pt-1" })',
    endpoint: 'POST /user/push/alias',
    sent: { body: { alias: 'neo-alias', push_token: 'pt-1' } },
    readBack: { me: 'settings { pushToken }', is: { settings: { pushToken: 'pt-1' } } },
    check: (u) => expect(stored(u)?.pushAlias).toBe('neo-alias'),
  },
  setPushBadge: {
    call: 'setPushBadge(input: { badge: 7 })',
    endpoint: 'POST /user/push/badge',
    sent: { body: { badge: 7 } },
    check: (u) => expect(stored(u)?.badge).toBe(7),
  },
  addPushTags: {
    call: 'addPushTags(input: { tags: ["news", "vip"] })',
    endpoint: 'POST /user/push/tag',
    sent: { body: { tags: ['news', 'vip'] } },
    readBack: { me: 'pushTags', is: { pushTags: ['news', 'vip'] } },
  },
  removePushTags: {
    call: 'removePushTags(input: { tags: ["news"] })',
    endpoint: 'DELETE /user/push/tag',
    sent: { body: { tags: ['news'] } },
    setup: (_u, token) => tagsOf(token, ['news', 'vip']),
    readBack: { me: 'pushTags', is: { pushTags: ['vip'] } },
  },
  clearPushTags: {
    call: 'clearPushTags',
    endpoint: 'DELETE /user/push/tag/all',
    sent: {},
    setup: (_u, token) => tagsOf(token, ['news', 'vip']),
    readBack: { me: 'pushTags', is: { pushTags: [] } },
  },
  removeDevice: {
    call: 'removeDevice(input: { deviceSn: 1 })',
    endpoint: 'DELETE /user/device/remove',
    sent: { query: { device_sn: '1' } },
    setup: (u) => loginOnDevice(stack, u, 'phone'),
    readBack: { me: 'devices { nodes { deviceSn } }', is: { devices: { nodes: [] } } },
  },
  kickUser: {
    call: 'kickUser(input: {})',
    endpoint: 'PUT /user/kick',
    sent: {},
    readBack: { me: 'online', is: { online: false } },
  },
  bindDeviceToken: {
    call: 'bindDeviceToken(input: { deviceSn: 1, deviceToken: "vendor-token", notifierName: "apns-cert" })',
    endpoint: 'PUT /user/token/bind',
    sent: { body: { device_sn: 1, device_token: 'vendor-token', notifier_name: 'apns-cert' } },
    setup: (u) => loginOnDevice(stack, u, 'phone'),
    check: (u) => expect(stored(u)?.devices.get(1)).toMatchObject({ deviceToken: 'vendor-token', notifierName: 'apns-cert' }),
  },
  unbindDeviceToken: {
    call: 'unbindDeviceToken(input: { deviceSn: 1 })',
    endpoint: 'DELETE /user/token/unbind',
    sent: { query: { deviceSn: '1' } },
    setup: async (u, token) => {
      await loginOnDevice(stack, u, 'phone');
      await stack.emu.ok('PUT', '/user/token/bind', { token, body: { device_sn: 1, device_token: 'vt', notifier_name: 'cert' } });
    },
    check: (u) => expect(stored(u)?.devices.get(1)?.deviceToken).toBeUndefined(),
  },
  changePassword: {
    call: 'changePassword(input: { oldPassword: "secret-1", newPassword: "secret-2" })',
    endpoint: 'POST /user/change_password',
    sent: { body: { old_password: 'secret-1', new_password: 'secret-2' } },
    check: async (u) =>
      expect((await stack.emu.rest('POST', '/token/user', { body: { name: u.name, password: 'secret-2' } })).code).toBe(200),
  },
};

describe.each(Object.entries(CASES))('%s', (name, c) => {
  it(`reaches ${c.endpoint} with exactly its parameters, one call when only ok is selected, and the change reads back`, async () => {
    const u = await stack.emu.user();
    await c.setup?.(u, u.token);
    stack.emu.server.resetCalls();

    const reply = await stack.gql(`mutation { ${c.call} { ok } }`, {}, tokenOf(u));
    expect(reply).toEqual({ data: { [name]: { ok: true } } });
    expect(seenCalls(stack)).toEqual([{ endpoint: c.endpoint, ...c.sent }]);

    if (c.readBack) {
      const back = await stack.gql(`{ me { ${c.readBack.me} } }`, {}, stack.asUser(u.id));
      expect(back).toEqual({ data: { me: c.readBack.is } });
    }
    await c.check?.(u);
  });

  it('reports the service refusing an unknown acting user on this field alone', async () => {
    const sibling = freshName();
    const reply = await stack.gql(
      `mutation { target: ${c.call} { ok } sibling: registerUser(input: { username: "${sibling}", password: "pw" }) { user { id } } }`,
      {},
      stack.asUser(MISSING_USER),
    );
    expect(reply.data?.target).toBeNull();
    expect(reply.data?.sibling).toEqual({ user: { id: expect.any(String) } });
    expectFieldError(reply, ['target'], { code: 'NOT_FOUND', upstreamCode: 10000, endpoint: c.endpoint });
  });
});

describe('payloads', () => {
  it('read the changed user back in the same request, after the write', async () => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql('mutation { setNickname(input: { nickName: "Morpheus" }) { ok user { id nickName } } }', {}, tokenOf(u));
    expect(reply.data).toEqual({ setNickname: { ok: true, user: { id: String(u.id), nickName: 'Morpheus' } } });
    expect(stack.emu.server.calls.map((c) => c.endpoint)).toEqual(['PUT /user/nickname', 'GET /user/profile']);
  });

  it("read the changed settings back; with the user_id header the user's ID costs no call", async () => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql(
      'mutation { setVibrate(input: { vibrate: false }) { ok settings { vibratory } user { id } } }',
      {},
      stack.asUser(u.id),
    );
    expect(reply.data).toEqual({ setVibrate: { ok: true, settings: { vibratory: false }, user: { id: String(u.id) } } });
    expect(seenCalls(stack)).toEqual([
      { endpoint: 'PUT /user/vibratory', query: { value: 'false' }, user_id: String(u.id) },
      { endpoint: 'GET /user/settings', user_id: String(u.id) },
    ]);
  });

  it('read fresh data in later fields of the same document', async () => {
    const u = await stack.emu.user();
    const reply = await stack.gql(
      'mutation { a: setNickname(input: { nickName: "one" }) { user { nickName } } b: setNickname(input: { nickName: "two" }) { user { nickName } } }',
      {},
      tokenOf(u),
    );
    expect(reply.data).toEqual({ a: { user: { nickName: 'one' } }, b: { user: { nickName: 'two' } } });
  });
});

describe('updateSettings', () => {
  const INPUT = 'input: { authMode: CONSENT, groupConfirm: true, silenceStartTime: 23, silenceEndTime: 6, pushNickName: "pn" }';
  const SENT = { auth_mode: 1, group_confirm: true, silence_start_time: 23, silence_end_time: 6, push_nick_name: 'pn' };

  it("with a user token learns the user's ID with one GET /user/profile, then sends only the given fields", async () => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql(`mutation { updateSettings(${INPUT}) { ok } }`, {}, tokenOf(u));
    expect(reply).toEqual({ data: { updateSettings: { ok: true } } });
    expect(seenCalls(stack)).toEqual([
      { endpoint: 'GET /user/profile' },
      { endpoint: 'PUT /user/settings', body: { user_id: u.id, ...SENT } },
    ]);
    const back = await stack.gql(
      '{ me { settings { authMode groupConfirm silenceStartTime silenceEndTime pushNickName vibratory } } }',
      {},
      tokenOf(u),
    );
    expect(back.data).toEqual({
      me: {
        settings: { authMode: 'CONSENT', groupConfirm: true, silenceStartTime: 23, silenceEndTime: 6, pushNickName: 'pn', vibratory: true },
      },
    });
  });

  it('with the user_id header makes exactly one REST call and reads the settings back', async () => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql(`mutation { updateSettings(${INPUT}) { ok settings { groupConfirm } } }`, {}, stack.asUser(u.id));
    expect(reply.data).toEqual({ updateSettings: { ok: true, settings: { groupConfirm: true } } });
    expect(seenCalls(stack)).toEqual([
      { endpoint: 'PUT /user/settings', body: { user_id: u.id, ...SENT }, user_id: String(u.id) },
      { endpoint: 'GET /user/settings', user_id: String(u.id) },
    ]);
  });

  it('reports an unknown acting user as NOT_FOUND on its field alone', async () => {
    const reply = await stack.gql('mutation { updateSettings(input: { noPush: true }) { ok } }', {}, stack.asUser(MISSING_USER));
    expect(reply.data).toEqual({ updateSettings: null });
    expectFieldError(reply, ['updateSettings'], { code: 'NOT_FOUND', upstreamCode: 10000, endpoint: 'PUT /user/settings' });
  });
});

describe('bad input is refused before any REST call', () => {
  it.each([
    ['setNoPushHours(input: { noPushStartHour: 24, noPushEndHour: 7 })', 'input.noPushStartHour'],
    ['setNoPushHours(input: { noPushStartHour: 1, noPushEndHour: -1 })', 'input.noPushEndHour'],
    ['updateSettings(input: { noPush: true, silenceEndTime: 24 })', 'input.silenceEndTime'],
    ['updateSettings(input: { noPushStartHour: -3 })', 'input.noPushStartHour'],
    ['setUsername(input: { username: "  " })', 'input.username'],
    ['setPushBadge(input: { badge: -1 })', 'input.badge'],
    ['addPushTags(input: { tags: [] })', 'input.tags'],
    ['removePushTags(input: { tags: ["ok", ""] })', 'input.tags[1]'],
    ['bindDeviceToken(input: { deviceSn: 1, deviceToken: "", notifierName: "c" })', 'input.deviceToken'],
    ['bindDeviceToken(input: { deviceSn: 1, deviceToken: "t", notifierName: " " })', 'input.notifierName'],
    ['changePassword(input: { oldPassword: "secret-1", newPassword: "" })', 'input.newPassword'],
  ])('%s names %s', async (call, field) => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql(`mutation { ${call} { ok } }`, {}, tokenOf(u));
    expect(reply.errors).toHaveLength(1);
    expect(reply.errors?.[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT', field });
    expect(stack.emu.server.calls).toHaveLength(0);
  });
});
