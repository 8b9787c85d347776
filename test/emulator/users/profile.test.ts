// Profile, avatar, nickname, mobile, user name and extension information (1.2, 1.3, 1.14, 1.15,
// 1.17–1.21, 1.40).
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../../helpers/emulator';

const emu = useEmulator();

interface Profile {
  avatar: string;
  description: string;
  email: string;
  mobile: string;
  nick_name: string;
  private_info: string;
  public_info: string;
  username: string;
  user_id: number;
}
interface BatchResult {
  success: boolean;
  reason: string;
  user_id: number;
}

const profile = (token: string) => emu.ok<Profile>('GET', '/user/profile', { token });
const asAdmin = (userId: number) => ({ token: emu.adminToken, userId });
const login = (login_name: string, password: string) => emu.rest('POST', '/token/login', { body: { login_name, password } });

describe('GET /user/profile (1.18)', () => {
  it("answers a new user's profile: its name and ID, every other field empty", async () => {
    const u = await emu.user();
    expect(await profile(u.token)).toEqual({
      avatar: '',
      description: '',
      email: '',
      mobile: '',
      nick_name: '',
      private_info: '',
      public_info: '',
      username: u.name,
      user_id: u.id,
    });
  });
});

describe('PUT,POST /user/profile (1.19)', () => {
  it('sets the given fields and keeps the others', async () => {
    const u = await emu.user();
    await emu.ok('PUT', '/user/profile', { token: u.token, body: { nick_name: 'Neo', description: 'The one' } });
    await emu.ok('POST', '/user/profile', { token: u.token, body: { public_info: 'pub' } });
    expect(await profile(u.token)).toMatchObject({ nick_name: 'Neo', description: 'The one', public_info: 'pub', private_info: '' });
  });

  it('refuses a mistyped field with 10002 naming it and changes nothing', async () => {
    const u = await emu.user();
    const reply = await emu.rest('PUT', '/user/profile', { token: u.token, body: { nick_name: 'ok', description: 7 } });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('description');
    expect((await profile(u.token)).nick_name).toBe('');
  });
});

describe('PUT,POST /user/profile/batch (1.20)', () => {
  it('sets several profiles; a missing user fails its entry only', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const results = await emu.ok<BatchResult[]>('PUT', '/user/profile/batch', {
      token: emu.adminToken,
      body: {
        list: [
          { user_id: a.id, nick_name: 'A' },
          { user_id: 1_999_999_999_999, nick_name: 'ghost' },
          { user_id: b.id, description: 'B' },
        ],
      },
    });
    expect(results.map((r) => [r.user_id, r.success])).toEqual([
      [a.id, true],
      [1_999_999_999_999, false],
      [b.id, true],
    ]);
    expect(results[1]!.reason).toContain('does not exist');
    expect((await profile(a.token)).nick_name).toBe('A');
    expect(await profile(b.token)).toMatchObject({ nick_name: '', description: 'B' });
  });

  it('applies an entry without user_id to the user_id header user, and fails it without the header', async () => {
    const u = await emu.user();
    const withHeader = await emu.ok<BatchResult[]>('POST', '/user/profile/batch', {
      ...asAdmin(u.id),
      body: { list: [{ nick_name: 'Header' }] },
    });
    expect(withHeader).toEqual([{ success: true, reason: '', user_id: u.id }]);
    expect((await profile(u.token)).nick_name).toBe('Header');
    const without = await emu.ok<BatchResult[]>('POST', '/user/profile/batch', {
      token: emu.adminToken,
      body: { list: [{ nick_name: 'x' }] },
    });
    expect(without[0]).toMatchObject({ success: false, user_id: 0 });
    expect(without[0]!.reason).toContain('user_id');
  });

  it('answers an empty array for an absent list', async () => {
    expect(await emu.ok('PUT', '/user/profile/batch', { token: emu.adminToken, body: {} })).toEqual([]);
  });
});

describe('PUT,POST /user/avatar (1.2)', () => {
  it('sets the avatar URL', async () => {
    const u = await emu.user();
    await emu.ok('PUT', '/user/avatar', { token: u.token, body: { avatar: 'https://cdn.example.com/a.png' } });
    expect((await profile(u.token)).avatar).toBe('https://cdn.example.com/a.png');
    await emu.ok('POST', '/user/avatar', { token: u.token, body: { avatar: 'http://cdn.example.com/b.png' } });
    expect((await profile(u.token)).avatar).toBe('http://cdn.example.com/b.png');
  });

  it('refuses a value that is not an http(s) URL, and a missing one, with 10002 naming avatar', async () => {
    const u = await emu.user();
    await emu.ok('PUT', '/user/avatar', { token: u.token, body: { avatar: 'https://cdn.example.com/a.png' } });
    for (const body of [{ avatar: 'not a url' }, { avatar: 'ftp://x/y.png' }, {}]) {
      const reply = await emu.rest('PUT', '/user/avatar', { token: u.token, body });
      expect(reply.code).toBe(10002);
      expect(reply.message).toContain('avatar');
    }
    expect((await profile(u.token)).avatar).toBe('https://cdn.example.com/a.png');
  });
});

describe('PUT,POST /user/avatar/batch (1.3)', () => {
  it('sets avatars per user; an unknown user or a bad URL fails its entry only', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const results = await emu.ok<BatchResult[]>('POST', '/user/avatar/batch', {
      token: emu.adminToken,
      body: {
        list: [
          { user_id: a.id, avatar: 'https://x.example/a.png' },
          { user_id: 1_999_999_999_999, avatar: 'https://x.example/g.png' },
          { user_id: b.id, avatar: 'nope' },
        ],
      },
    });
    expect(results.map((r) => r.success)).toEqual([true, false, false]);
    expect(results[2]!.reason).toContain('list[2].avatar');
    expect((await profile(a.token)).avatar).toBe('https://x.example/a.png');
    expect((await profile(b.token)).avatar).toBe('');
  });

  it('refuses an entry without user_id with 10002 naming it', async () => {
    const reply = await emu.rest('PUT', '/user/avatar/batch', {
      token: emu.adminToken,
      body: { list: [{ avatar: 'https://x.example/a.png' }] },
    });
    expect(reply.message).toBe('invalid parameter list[0].user_id: is required');
  });
});

describe('PUT,POST /user/nickname (1.15)', () => {
  it('sets the nickname with either method', async () => {
    const u = await emu.user();
    await emu.ok('PUT', '/user/nickname', { token: u.token, query: { nick_name: 'First' } });
    expect((await profile(u.token)).nick_name).toBe('First');
    await emu.ok('POST', '/user/nickname', { token: u.token, query: { nick_name: 'Second' } });
    expect((await profile(u.token)).nick_name).toBe('Second');
  });

  it('refuses a missing nick_name with 10002 naming it', async () => {
    const u = await emu.user();
    expect((await emu.rest('PUT', '/user/nickname', { token: u.token })).message).toBe('invalid parameter nick_name: is required');
  });
});

describe('PUT,POST /user/mobile (1.14)', () => {
  it('sets the mobile number, which then works as a login name', async () => {
    const u = await emu.user();
    await emu.ok('PUT', '/user/mobile', { token: u.token, query: { mobile: '+8613800000001' } });
    expect((await profile(u.token)).mobile).toBe('+8613800000001');
    const grant = await login('+8613800000001', u.password);
    expect(grant.code).toBe(200);
    expect((grant.data as { user_id: number }).user_id).toBe(u.id);
  });

  it('never matches an empty login name, even for users without a mobile', async () => {
    const u = await emu.user();
    expect((await login('', u.password)).code).toBe(10000);
  });

  it('frees the old number when the mobile changes', async () => {
    const u = await emu.user();
    await emu.ok('POST', '/user/mobile', { token: u.token, query: { mobile: '13800000002' } });
    await emu.ok('POST', '/user/mobile', { token: u.token, query: { mobile: '13800000003' } });
    expect((await login('13800000002', u.password)).code).toBe(10000);
    expect((await login('13800000003', u.password)).code).toBe(200);
  });

  it("refuses another user's number with 10004 and keeps both", async () => {
    const a = await emu.user();
    const b = await emu.user();
    await emu.ok('PUT', '/user/mobile', { token: a.token, query: { mobile: '13800000004' } });
    await emu.ok('PUT', '/user/mobile', { token: b.token, query: { mobile: '13800000005' } });
    const reply = await emu.rest('PUT', '/user/mobile', { token: b.token, query: { mobile: '13800000004' } });
    expect(reply.code).toBe(10004);
    expect((await profile(b.token)).mobile).toBe('13800000005');
    expect((await login('13800000004', a.password)).code).toBe(200);
  });

  it("refuses a number that is another user's user name with 10004", async () => {
    const numeric = await emu.user('13800000006');
    const u = await emu.user();
    expect((await emu.rest('PUT', '/user/mobile', { token: u.token, query: { mobile: numeric.name } })).code).toBe(10004);
    expect((await profile(u.token)).mobile).toBe('');
  });

  it('refuses a value that is not a phone number with 10002 naming mobile', async () => {
    const u = await emu.user();
    const reply = await emu.rest('PUT', '/user/mobile', { token: u.token, query: { mobile: 'call me' } });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('mobile');
    expect((await profile(u.token)).mobile).toBe('');
  });

  it('takes the 2026 format: + and 8 or more digits, or 11 digits starting 13 to 19 with any third digit', async () => {
    const u = await emu.user();
    for (const mobile of ['+12345678', '+8613900000099', '14900000001', '16200000001', '19200000001']) {
      expect((await emu.rest('PUT', '/user/mobile', { token: u.token, query: { mobile } })).code).toBe(200);
      expect((await profile(u.token)).mobile).toBe(mobile);
    }
    for (const mobile of ['+1234567', '12000000001', '1920000000', '192000000011', '8613900000099', '12345']) {
      expect((await emu.rest('PUT', '/user/mobile', { token: u.token, query: { mobile } })).code).toBe(10002);
    }
    expect((await profile(u.token)).mobile).toBe('19200000001');
  });
});

describe('PUT,POST /user/username (1.40)', () => {
  it('renames: the new name logs in, the old one is free', async () => {
    const u = await emu.user();
    const renamed = `${u.name}_new`;
    await emu.ok('PUT', '/user/username', { token: u.token, query: { username: renamed } });
    expect((await profile(u.token)).username).toBe(renamed);
    expect((await emu.rest('POST', '/token/user', { body: { name: renamed, password: u.password } })).code).toBe(200);
    expect((await emu.rest('POST', '/token/user', { body: { name: u.name, password: u.password } })).code).toBe(10000);
    expect((await emu.rest('POST', '/user/register/v2', { body: { username: u.name, password: 'p' } })).code).toBe(200);
  });

  it('refuses a taken name with 10004 and keeps the name', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const reply = await emu.rest('POST', '/user/username', { token: b.token, query: { username: a.name } });
    expect(reply.code).toBe(10004);
    expect((await profile(b.token)).username).toBe(b.name);
  });

  it("refuses another user's mobile number as a name with 10004", async () => {
    const a = await emu.user();
    await emu.ok('PUT', '/user/mobile', { token: a.token, query: { mobile: '13800000007' } });
    const b = await emu.user();
    expect((await emu.rest('PUT', '/user/username', { token: b.token, query: { username: '13800000007' } })).code).toBe(10004);
  });

  it('refuses an empty name with 10002 naming username', async () => {
    const u = await emu.user();
    const reply = await emu.rest('PUT', '/user/username', { token: u.token, query: { username: ' ' } });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('username');
    expect((await profile(u.token)).username).toBe(u.name);
  });
});

describe('PUT,POST /user/private and /user/public (1.17, 1.21)', () => {
  it('sets the private and public information from a bare JSON string body', async () => {
    const u = await emu.user();
    await emu.ok('PUT', '/user/private', { token: u.token, body: 'only me' });
    await emu.ok('POST', '/user/public', { token: u.token, body: 'hello world' });
    expect(await profile(u.token)).toMatchObject({ private_info: 'only me', public_info: 'hello world' });
    await emu.ok('POST', '/user/private', { token: u.token, body: '' });
    expect((await profile(u.token)).private_info).toBe('');
  });

  it('refuses an object or a missing body with 10002 naming info, and changes nothing', async () => {
    const u = await emu.user();
    await emu.ok('PUT', '/user/public', { token: u.token, body: 'kept' });
    const object = await emu.rest('PUT', '/user/public', { token: u.token, body: { info: 'x' } });
    expect(object.code).toBe(10002);
    expect(object.message).toContain('info');
    const missing = await emu.rest('PUT', '/user/private', { token: u.token });
    expect(missing.code).toBe(10002);
    expect(missing.message).toContain('info');
    expect(await profile(u.token)).toMatchObject({ private_info: '', public_info: 'kept' });
  });
});
