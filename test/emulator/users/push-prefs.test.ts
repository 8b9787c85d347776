// Push preferences of the acting user: alias, badge and tags (1.23, 1.24, 1.28–1.31). Alias and
// badge have no read endpoint, so they are checked in the emulator's state.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../../helpers/emulator';

const emu = useEmulator();

const stored = (id: number) => emu.server.state.users.get(id);
const tags = (token: string) => emu.ok<string[]>('GET', '/user/push/tag', { token });

describe('POST /user/push/alias (1.23)', () => {
  it('sets the alias, and the push token when given (visible in GET /user/settings)', async () => {
    const u = await emu.user();
    expect(await emu.ok('POST', '/user/push/alias', { token: u.token, body: { alias: 'neo', push_token: 'pt-1' } })).toBe(true);
    expect(stored(u.id)?.pushAlias).toBe('neo');
    expect((await emu.ok<{ push_token: string }>('GET', '/user/settings', { token: u.token })).push_token).toBe('pt-1');
    await emu.ok('POST', '/user/push/alias', { token: u.token, body: { alias: 'trinity' } });
    expect(stored(u.id)?.pushAlias).toBe('trinity');
    expect((await emu.ok<{ push_token: string }>('GET', '/user/settings', { token: u.token })).push_token).toBe('pt-1');
  });

  it('refuses a missing alias with 10002 naming it, and PUT with 405', async () => {
    const u = await emu.user();
    expect((await emu.rest('POST', '/user/push/alias', { token: u.token, body: { push_token: 'x' } })).message).toBe(
      'invalid parameter alias: is required',
    );
    expect((await emu.rest('PUT', '/user/push/alias', { token: u.token, body: { alias: 'x' } })).code).toBe(405);
    expect(stored(u.id)?.pushAlias).toBe('');
  });
});

describe('POST /user/push/badge (1.24)', () => {
  it('sets the badge', async () => {
    const u = await emu.user();
    expect(await emu.ok('POST', '/user/push/badge', { token: u.token, body: { badge: 5 } })).toBe(true);
    expect(stored(u.id)?.badge).toBe(5);
  });

  it('refuses a negative or mistyped badge with 10002 naming badge and keeps it', async () => {
    const u = await emu.user();
    await emu.ok('POST', '/user/push/badge', { token: u.token, body: { badge: 3 } });
    for (const badge of [-1, 'three', 1.5]) {
      const reply = await emu.rest('POST', '/user/push/badge', { token: u.token, body: { badge } });
      expect(reply.code).toBe(10002);
      expect(reply.message).toContain('badge');
    }
    expect(stored(u.id)?.badge).toBe(3);
  });
});

describe('push tags (1.28–1.31)', () => {
  it('starts with no tags', async () => {
    const u = await emu.user();
    expect(await tags(u.token)).toEqual([]);
  });

  it('adds tags as a set, keeping the order they were first added in', async () => {
    const u = await emu.user();
    await emu.ok('POST', '/user/push/tag', { token: u.token, body: { tags: ['vip', 'beta'] } });
    await emu.ok('POST', '/user/push/tag', { token: u.token, body: { tags: ['beta', 'ios', 'vip'] } });
    expect(await tags(u.token)).toEqual(['vip', 'beta', 'ios']);
  });

  it('removes the given tags with DELETE and a JSON body; unknown ones are ignored', async () => {
    const u = await emu.user();
    await emu.ok('POST', '/user/push/tag', { token: u.token, body: { tags: ['a', 'b', 'c'] } });
    expect(await emu.ok('DELETE', '/user/push/tag', { token: u.token, body: { tags: ['b', 'zzz'] } })).toBe(true);
    expect(await tags(u.token)).toEqual(['a', 'c']);
  });

  it('removes every tag with DELETE /user/push/tag/all', async () => {
    const u = await emu.user();
    await emu.ok('POST', '/user/push/tag', { token: u.token, body: { tags: ['a', 'b'] } });
    expect(await emu.ok('DELETE', '/user/push/tag/all', { token: u.token })).toBe(true);
    expect(await tags(u.token)).toEqual([]);
  });

  it('refuses an empty tag with 10002 naming it, adding none of the list', async () => {
    const u = await emu.user();
    const reply = await emu.rest('POST', '/user/push/tag', { token: u.token, body: { tags: ['ok', ' '] } });
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('tags[1]');
    expect(await tags(u.token)).toEqual([]);
  });

  it('refuses a missing or mistyped tags list with 10002 naming tags, removing nothing', async () => {
    const u = await emu.user();
    await emu.ok('POST', '/user/push/tag', { token: u.token, body: { tags: ['keep'] } });
    const missing = await emu.rest('DELETE', '/user/push/tag', { token: u.token });
    expect(missing.message).toBe('invalid parameter tags: is required');
    const mistyped = await emu.rest('DELETE', '/user/push/tag', { token: u.token, body: { tags: 'keep' } });
    expect(mistyped.code).toBe(10002);
    expect(mistyped.message).toContain('tags');
    expect(await tags(u.token)).toEqual(['keep']);
  });

  it("manages the user_id header user's tags with the admin token", async () => {
    const u = await emu.user();
    await emu.ok('POST', '/user/push/tag', { token: emu.adminToken, userId: u.id, body: { tags: ['by-admin'] } });
    expect(await tags(u.token)).toEqual(['by-admin']);
  });
});
