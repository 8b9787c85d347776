// User.status: banned or not, found by one scan of the admin user list per request (GET
// /user/list, 200 users a call) however many users are asked; readable with an admin token, and
// with a user token through the gateway's service credential (shared briefly per app, forgotten
// after a ban or unban through the gateway); without either, null without an error.
import { describe, expect, it } from 'vitest';
import type { UserListElement } from '../../../src/rest/records';
import { type Stack, useCredentialStacks } from '../../helpers/stack';
import { freshName, tokenOf } from '../../helpers/users';

const { withCredential, without } = useCredentialStacks();

const admin = (stack: Stack) => ({ 'access-token': stack.emu.adminToken });
const STATUS = 'query($id: ID!) { user(id: $id) { status } }';
const statusAs = async (stack: Stack, id: number | string, headers: Record<string, string>) => {
  const reply = await stack.gql<{ user: { status: string | null } }>(STATUS, { id: String(id) }, headers);
  expect(reply.errors).toBeUndefined();
  return reply.data!.user.status;
};
const ban = async (stack: Stack, name: 'disableUsers' | 'enableUsers', id: number) => {
  const reply = await stack.gql(`mutation($ids: [ID!]!) { ${name}(input: { userIds: $ids }) { ok } }`, { ids: [String(id)] }, admin(stack));
  expect(reply.data).toEqual({ [name]: { ok: true } });
};
const listCalls = (stack: Stack) => stack.emu.calls('GET /user/list');

describe('with a service credential', () => {
  it('shows a user token BANNED after a ban and NORMAL after the unban, fresh after each in the same process', async () => {
    const stack = withCredential;
    const [me, other] = [await stack.emu.user(), await stack.emu.user()];
    expect(await statusAs(stack, other.id, tokenOf(me))).toBe('NORMAL');
    await ban(stack, 'disableUsers', other.id);
    expect(await statusAs(stack, other.id, tokenOf(me))).toBe('BANNED');
    await ban(stack, 'enableUsers', other.id);
    expect(await statusAs(stack, other.id, tokenOf(me))).toBe('NORMAL');
  });

  it("shares the list's pages between the app's requests for a short while", async () => {
    const stack = withCredential;
    const [a, b, c] = [await stack.emu.user(), await stack.emu.user(), await stack.emu.user()];
    stack.emu.mark();
    expect(await statusAs(stack, c.id, tokenOf(a))).toBe('NORMAL');
    expect(listCalls(stack)).toHaveLength(1);
    // Made with the service token (a user token is refused the list) and no user_id header.
    expect(listCalls(stack)[0]!.headers.user_id).toBeUndefined();
    expect(await statusAs(stack, a.id, tokenOf(b))).toBe('NORMAL');
    expect(listCalls(stack)).toHaveLength(1);
  });

  it('refuses a caller without a valid token: no list is read for it', async () => {
    const stack = withCredential;
    const u = await stack.emu.user();
    stack.emu.mark();
    const reply = await stack.gql(STATUS, { id: String(u.id) }, { 'access-token': 'not-a-token' });
    // The caller's own profile read, which proves its token, refuses it first (user(id:) checks existence).
    expect(reply.data).toEqual({ user: null });
    expect(reply.errors).toMatchObject([{ path: ['user'], extensions: { code: 'UNAUTHENTICATED' } }]);
    expect(listCalls(stack)).toHaveLength(0);
  });
});

describe('without a service credential', () => {
  it('answers an admin token BANNED and NORMAL, and a user token null without an error', async () => {
    const stack = without;
    const [me, other] = [await stack.emu.user(), await stack.emu.user()];
    await ban(stack, 'disableUsers', other.id);
    expect(await statusAs(stack, other.id, admin(stack))).toBe('BANNED');
    expect(await statusAs(stack, other.id, tokenOf(me))).toBeNull();
    await ban(stack, 'enableUsers', other.id);
    expect(await statusAs(stack, other.id, stack.asUser(me.id))).toBe('NORMAL');
  });

  it('answers a missing user null without reading the list', async () => {
    without.emu.mark();
    const reply = await without.gql(STATUS, { id: '1' }, admin(without));
    expect(reply).toEqual({ data: { user: null } });
    expect(listCalls(without)).toHaveLength(0);
  });
});

describe('many users in one query', () => {
  it('costs one list call per 200 users scanned, not one per user', async () => {
    const stack = without;
    const list = Array.from({ length: 250 }, () => ({ username: freshName('st'), password: 'secret123' }));
    await stack.emu.ok('POST', '/user/register/batch', { token: stack.emu.adminToken, body: { list } });
    const page = (n: number) =>
      stack.emu.ok<UserListElement[]>('GET', '/user/list', { token: stack.emu.adminToken, query: { page_num: n, page_size: 200 } });
    const [first, second] = [await page(1), await page(2)];
    expect(first).toHaveLength(200);
    expect(second.length).toBeGreaterThanOrEqual(20);

    const ask = async (ids: string[]) => {
      const query = `{ ${ids.map((id, i) => `u${i}: user(id: "${id}") { id status }`).join(' ')} }`;
      stack.emu.mark();
      const reply = await stack.gql<Record<string, { id: string; status: string }>>(query, {}, admin(stack));
      expect(reply.errors).toBeUndefined();
      expect(Object.values(reply.data!).map((u) => u.status)).toEqual(ids.map(() => 'NORMAL'));
      return listCalls(stack).map((c) => c.query);
    };
    const ids = (entries: UserListElement[], n: number) => entries.slice(0, n).map((e) => String(e.user_id));

    // 40 users of the first page: one call; 20 of each of the first two pages: two.
    expect(await ask(ids(first, 40))).toEqual([{ page_num: '1', page_size: '200' }]);
    expect(await ask([...ids(first, 20), ...ids(second, 20)])).toEqual([
      { page_num: '1', page_size: '200' },
      { page_num: '2', page_size: '200' },
    ]);
  });
});
