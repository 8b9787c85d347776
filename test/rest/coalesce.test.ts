// Cross-request coalescing (src/rest/coalesce.ts): identical GraphQL reads arriving at once for
// one identity make one upstream call; writes, other identities and IM_COALESCE=false do not
// share. The upstream is a scripted server that answers after a delay, so the requests overlap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway';
import { envelope, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server';
import { sleep, until } from '../helpers/wait';

// Long enough that requests sent at once all arrive while the first call is held, even on a machine
// whose cores are busy.
const DELAY_MS = 1_000;
const N = 10;
const profile = (id: string) => ({
  user_id: Number(id),
  username: `user${id}`,
  nick_name: 'nick',
  avatar: '',
  description: '',
  email: '',
  mobile: '',
  private_info: '',
  public_info: '',
});

describe('coalescing of identical reads', () => {
  let upstream: ScriptedServer;
  let on: Gateway;
  let off: Gateway;
  let onUrl: string;
  let offUrl: string;

  beforeAll(async () => {
    upstream = await startScriptedServer(async (req) => {
      await sleep(DELAY_MS);
      if (req.path === '/user/profile') return envelope(profile(String(req.headers.user_id ?? '1')));
      return envelope(true);
    });
    // Identical queries would share one execution before their calls could coalesce: off here.
    const config = (coalesce: string) => ({
      ...loadConfig({ PORT: '1', IM_COALESCE: coalesce, SHARE_QUERIES: 'false', METRICS: 'false' }),
      port: 0,
    });
    on = createGateway(config('true'), { imBaseUrl: upstream.url });
    off = createGateway(config('false'), { imBaseUrl: upstream.url });
    onUrl = await on.start();
    offUrl = await off.start();
  });
  afterAll(async () => {
    await on?.stop();
    await off?.stop();
    await upstream?.close();
  });

  async function gql(origin: string, query: string, headers: Record<string, string>) {
    const res = await fetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
      body: JSON.stringify({ query }),
    });
    return (await res.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
  }

  /** Sends the requests at once; answers the upstream calls made per path and the replies. */
  async function atOnce(origin: string, requests: { query: string; headers: Record<string, string> }[]) {
    const before = upstream.requests.length;
    const replies = await Promise.all(requests.map((r) => gql(origin, r.query, r.headers)));
    const byPath: Record<string, number> = {};
    for (const r of upstream.requests.slice(before)) byPath[r.path] = (byPath[r.path] ?? 0) + 1;
    return { byPath, replies };
  }

  const same = { 'access-token': 'admin', user_id: '7' };

  it(`makes one upstream call for ${N} identical queries of one identity in flight at once, and answers each`, async () => {
    const { byPath, replies } = await atOnce(
      onUrl,
      Array.from({ length: N }, () => ({ query: '{ me { username } }', headers: same })),
    );
    expect(byPath).toEqual({ '/user/profile': 1 });
    for (const reply of replies) expect(reply).toEqual({ data: { me: { username: 'user7' } } });
  });

  it('makes one call per identity when the identities differ (token or user_id)', async () => {
    const { byPath, replies } = await atOnce(onUrl, [
      { query: '{ me { username } }', headers: { 'access-token': 'admin', user_id: '1' } },
      { query: '{ me { username } }', headers: { 'access-token': 'admin', user_id: '2' } },
      { query: '{ me { username } }', headers: { 'access-token': 'other', user_id: '1' } },
      { query: '{ me { username } }', headers: { 'access-token': 'admin', user_id: '1', app_id: 'another-app' } },
    ]);
    expect(byPath).toEqual({ '/user/profile': 4 });
    expect(replies.map((r) => (r.data?.me as { username: string }).username)).toEqual(['user1', 'user2', 'user1', 'user1']);
  });

  it(`never shares writes: ${N} identical mutations at once make ${N} calls`, async () => {
    const { byPath } = await atOnce(
      onUrl,
      Array.from({ length: N }, () => ({ query: 'mutation { setNickname(input: { nickName: "x" }) { ok } }', headers: same })),
    );
    expect(Object.values(byPath).reduce((a, b) => a + b, 0)).toBe(N);
  });

  it('does not let a read that starts after a write join a read that started before it', async () => {
    const before = upstream.requests.length;
    const arrived = (path: string) => until(`${path} at the service`, () => upstream.requests.slice(before).some((r) => r.path === path));
    const first = gql(onUrl, '{ me { username } }', same);
    await arrived('/user/profile');
    const write = gql(onUrl, 'mutation { setNickname(input: { nickName: "y" }) { ok } }', same);
    await arrived('/user/nickname');
    const second = gql(onUrl, '{ me { username } }', same);
    await Promise.all([first, write, second]);
    expect(upstream.requests.slice(before).filter((r) => r.path === '/user/profile')).toHaveLength(2);
  });

  it('makes every call with IM_COALESCE=false', async () => {
    const { byPath } = await atOnce(
      offUrl,
      Array.from({ length: N }, () => ({ query: '{ me { username } }', headers: same })),
    );
    expect(byPath).toEqual({ '/user/profile': N });
  });
});
