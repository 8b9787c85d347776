// The per-request client: identical GETs are made once, and forgotten after a write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestClient } from '../../src/rest/client';
import { bindClient, stableKey } from '../../src/rest/request-client';
import { envelope, failure, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server';

let server: ScriptedServer;
let rest: ReturnType<typeof createRestClient>;
const caller = { appId: 'app1', token: 'tok', userId: '2000000000001' };

beforeAll(async () => {
  server = await startScriptedServer((req) => envelope({ path: req.path, query: req.url }));
  rest = createRestClient({ baseUrl: server.url, retries: 0 });
});
afterAll(async () => {
  await rest.close();
  await server.close();
});

function count(path: string): number {
  return server.requests.filter((r) => r.path === path).length;
}

describe('request client', () => {
  it('makes identical GETs once, whatever the key order or int64 representation of their params', async () => {
    const requestRest = bindClient(rest, caller);
    const before = count('/group/member_list');
    const [a, b, c] = await Promise.all([
      requestRest.call('GET /group/member_list', { group_id: 3000000000001, limit: 10 }, {}),
      requestRest.call('GET /group/member_list', { limit: 10, group_id: 3000000000001n }, {}),
      requestRest.call('GET /group/member_list', { limit: 10, group_id: 3000000000001, cursor: undefined }, {}),
    ]);
    expect(count('/group/member_list') - before).toBe(1);
    expect(a).toBe(b);
    expect(b).toBe(c);
    // Different params are a different call.
    await requestRest.call('GET /group/member_list', { group_id: 3000000000001, limit: 11 }, {});
    expect(count('/group/member_list') - before).toBe(2);
    expect(requestRest.caller).toBe(caller);
  });

  it('forwards the bound caller’s identity', async () => {
    await bindClient(rest, caller).call('GET /user/profile', {}, {});
    const req = server.requests.at(-1);
    expect(req?.headers['access-token']).toBe('tok');
    expect(req?.headers.user_id).toBe('2000000000001');
  });

  it('forgets its GETs after a write, so the next read sees the write', async () => {
    const requestRest = bindClient(rest, caller);
    const before = count('/user/profile');
    await requestRest.call('GET /user/profile', {}, {});
    await requestRest.call('GET /user/profile', {}, {});
    expect(count('/user/profile') - before).toBe(1);
    await requestRest.call('PUT /user/nickname', { nick_name: 'new' }, {});
    await requestRest.call('GET /user/profile', {}, {});
    expect(count('/user/profile') - before).toBe(2);
  });

  it('memoizes a read made with POST (group summaries) and keeps the GETs it already made', async () => {
    const requestRest = bindClient(rest, caller);
    const profiles = count('/user/profile');
    const batches = count('/group/info/batch');
    await requestRest.call('GET /user/profile', {}, {});
    await requestRest.call('POST /group/info/batch', { group_list: [1, 2] }, {});
    await requestRest.call('POST /group/info/batch', { group_list: [1, 2] }, {});
    await requestRest.call('GET /user/profile', {}, {});
    expect(count('/group/info/batch') - batches).toBe(1);
    expect(count('/user/profile') - profiles).toBe(1);
  });

  it('forgets a GET made while a write was in flight (it may hold the state from before the write)', async () => {
    const requestRest = bindClient(rest, caller);
    server.setScript(async (req) => {
      if (req.method === 'POST') await new Promise((resolve) => setTimeout(resolve, 50));
      return envelope([]);
    });
    const gets = () => server.requests.filter((r) => r.method === 'GET' && r.path === '/user/push/tag').length;
    const before = gets();
    const writing = requestRest.call('POST /user/push/tag', { tags: ['new'] }, {});
    await requestRest.call('GET /user/push/tag', {}, {});
    await writing;
    await requestRest.call('GET /user/push/tag', {}, {});
    expect(gets() - before).toBe(2);
    server.setScript((req) => envelope({ path: req.path, query: req.url }));
  });

  it('never shares GETs between requests', async () => {
    const before = count('/user/settings');
    await bindClient(rest, caller).call('GET /user/settings', {}, {});
    await bindClient(rest, caller).call('GET /user/settings', {}, {});
    expect(count('/user/settings') - before).toBe(2);
  });

  it('treats GET /message/ack as a write: made every time, and it forgets the GETs', async () => {
    const requestRest = bindClient(rest, caller);
    const unread = count('/message/unread');
    const acks = count('/message/ack');
    await requestRest.call('GET /message/unread', {}, {});
    await requestRest.call('GET /message/ack', { conversation_id: 1 }, {});
    await requestRest.call('GET /message/ack', { conversation_id: 1 }, {});
    await requestRest.call('GET /message/unread', {}, {});
    expect(count('/message/ack') - acks).toBe(2);
    expect(count('/message/unread') - unread).toBe(2);
  });

  it('asks for a fresh upload target every time', async () => {
    const requestRest = bindClient(rest, caller);
    const before = count('/file/upload/chat');
    await requestRest.call('GET /file/upload/chat', { file_type: 102, to_id: 1 }, {});
    await requestRest.call('GET /file/upload/chat', { file_type: 102, to_id: 1 }, {});
    expect(count('/file/upload/chat') - before).toBe(2);
  });

  it('does not keep a failed GET: the next identical call tries again', async () => {
    const requestRest = bindClient(rest, caller);
    server.setScript(() => failure(20001, 'group does not exist'));
    const before = count('/group/info');
    await expect(requestRest.call('GET /group/info', { group_id: 9 }, {})).rejects.toMatchObject({ code: 20001 });
    server.setScript((req) => envelope({ path: req.path }));
    await expect(requestRest.call('GET /group/info', { group_id: 9 }, {})).resolves.toEqual({ data: { path: '/group/info' } });
    expect(count('/group/info') - before).toBe(2);
  });

  it('builds equal keys for equal params and different keys for different ones', () => {
    expect(stableKey({ b: [1n, 'x'], a: { d: 1, c: undefined } })).toBe(stableKey({ a: { d: 1 }, b: [1, 'x'] }));
    expect(stableKey({ a: 1 })).not.toBe(stableKey({ a: '1' }));
    expect(stableKey({ a: [1, 2] })).not.toBe(stableKey({ a: [2, 1] }));
    expect(stableKey({ id: 1552747048460091409n })).toBe('{"id":1552747048460091409}');
  });
});

describe('IM_FREEZE_REPLIES (a development check)', () => {
  it('hands out deep-frozen replies, so code that changes a shared reply throws', async () => {
    const frozen = createRestClient({ baseUrl: server.url, retries: 0, freezeReplies: true });
    try {
      const reply = await frozen.call('GET /group/member_list', { group_id: 3000000000001, limit: 10 }, caller);
      expect(Object.isFrozen(reply)).toBe(true);
      expect(Object.isFrozen(reply.data)).toBe(true);
      expect(() => {
        (reply as { data: unknown }).data = null;
      }).toThrow(TypeError);
    } finally {
      await frozen.close();
    }
    const plain = await rest.call('GET /group/member_list', { group_id: 3000000000001, limit: 10 }, caller);
    expect(Object.isFrozen(plain)).toBe(false);
  });
});
