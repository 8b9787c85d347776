// Banning, unbanning and listing users (1.9, 1.11, 1.13): admin token only.
import { describe, expect, it } from 'vitest';
import { startEmulator, useEmulator } from '../../helpers/emulator';

const emu = useEmulator();

interface ListEntry {
  status: number;
  user_id: number;
  username: string;
}

async function statusOf(id: number): Promise<number | undefined> {
  const all = await emu.ok<ListEntry[]>('GET', '/user/list', { token: emu.adminToken, query: { page_size: 200 } });
  return all.find((e) => e.user_id === id)?.status;
}

const ban = (list: unknown) => emu.rest('PUT', '/user/disable', { token: emu.adminToken, body: { list } });
const unban = (list: unknown) => emu.rest('PUT', '/user/enable', { token: emu.adminToken, body: { list } });

describe('PUT /user/disable and /user/enable (1.9, 1.11)', () => {
  it('bans: status 1 in the list, live tokens refused with 10010, no new token; unban restores all', async () => {
    const u = await emu.user();
    expect((await ban([u.id])).data).toBe(true);
    expect(await statusOf(u.id)).toBe(1);
    const refused = await emu.rest('GET', '/user/profile', { token: u.token });
    expect(refused.code).toBe(10010);
    expect(refused.message).toContain('banned');
    expect((await emu.rest('POST', '/token/user', { body: { name: u.name, password: u.password } })).code).toBe(10010);

    expect((await unban([u.id])).data).toBe(true);
    expect(await statusOf(u.id)).toBe(0);
    expect((await emu.rest('GET', '/user/profile', { token: u.token })).code).toBe(200);
    expect((await emu.rest('POST', '/token/user', { body: { name: u.name, password: u.password } })).code).toBe(200);
  });

  it('bans several users in one call', async () => {
    const a = await emu.user();
    const b = await emu.user();
    await ban([a.id, b.id]);
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual([1, 1]);
    await unban([a.id, b.id]);
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual([0, 0]);
  });

  it('refuses a list naming an unknown user with 10000 and bans nobody', async () => {
    const u = await emu.user();
    const reply = await ban([u.id, 1_999_999_999_999]);
    expect(reply.code).toBe(10000);
    expect(reply.message).toContain('1999999999999');
    expect(await statusOf(u.id)).toBe(0);
  });

  it('refuses an unban list naming an unknown user with 10000 and unbans nobody', async () => {
    const u = await emu.user();
    await ban([u.id]);
    expect((await unban([u.id, 1_999_999_999_998])).code).toBe(10000);
    expect(await statusOf(u.id)).toBe(1);
    await unban([u.id]);
  });

  it('refuses a missing, mistyped or empty list with 10002 naming list', async () => {
    const missing = await emu.rest('PUT', '/user/disable', { token: emu.adminToken, body: {} });
    expect(missing.message).toBe('invalid parameter list: is required');
    const mistyped = await unban(['abc']);
    expect(mistyped.code).toBe(10002);
    expect(mistyped.message).toContain('list[0]');
    const empty = await ban([]);
    expect(empty.code).toBe(10002);
    expect(empty.message).toContain('list');
  });

  it('accepts only PUT (405 for POST)', async () => {
    const reply = await emu.rest('POST', '/user/disable', { token: emu.adminToken, body: { list: [] } });
    expect(reply.code).toBe(405);
  });

  it('refuses a user token with 10010 and changes nothing', async () => {
    const u = await emu.user();
    const other = await emu.user();
    expect((await emu.rest('PUT', '/user/disable', { token: u.token, body: { list: [other.id] } })).code).toBe(10010);
    expect(await statusOf(other.id)).toBe(0);
  });
});

describe('GET /user/list (1.13)', () => {
  it('lists users in ID order, pages from 1 with page_size', async () => {
    const fresh = await startEmulator();
    try {
      const made = [];
      for (let i = 0; i < 5; i++) made.push(await fresh.user(`list_${i}`));
      const page = (page_num: number) =>
        fresh.ok<ListEntry[]>('GET', '/user/list', { token: fresh.adminToken, query: { page_num, page_size: 2 } });
      const pages = [await page(1), await page(2), await page(3), await page(4)];
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1, 0]);
      expect(pages.flat()).toEqual(made.map((u) => ({ user_id: u.id, username: u.name, status: 0 })));
      const ids = pages.flat().map((e) => e.user_id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    } finally {
      await fresh.stop();
    }
  });

  it('answers 50 users by default, starting at page 1', async () => {
    const fresh = await startEmulator();
    try {
      await fresh.ok('POST', '/user/register/batch', {
        body: { list: Array.from({ length: 60 }, (_, i) => ({ username: `bulk_${i}`, password: 'p' })) },
      });
      const first = await fresh.ok<ListEntry[]>('GET', '/user/list', { token: fresh.adminToken });
      expect(first).toHaveLength(50);
      expect(first[0]!.username).toBe('bulk_0');
      const second = await fresh.ok<ListEntry[]>('GET', '/user/list', { token: fresh.adminToken, query: { page_num: 2 } });
      expect(second.map((e) => e.username)).toEqual(Array.from({ length: 10 }, (_, i) => `bulk_${50 + i}`));
    } finally {
      await fresh.stop();
    }
  });

  it('refuses page_size above 200 and page_num 0 with 10002 naming them', async () => {
    const big = await emu.rest('GET', '/user/list', { token: emu.adminToken, query: { page_size: 201 } });
    expect(big.code).toBe(10002);
    expect(big.message).toContain('page_size');
    const zero = await emu.rest('GET', '/user/list', { token: emu.adminToken, query: { page_num: 0 } });
    expect(zero.code).toBe(10002);
    expect(zero.message).toContain('page_num');
  });
});
