// What goes on the wire: parameter placement, headers, exact int64 both ways, envelope extras.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { Int64 } from '../../src/rest/json';
import { createRestClient } from '../../src/rest/client';
import { envelope, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server';

const BIG = 1552747048460091409n;
let server: ScriptedServer;
let rest: ReturnType<typeof createRestClient>;

beforeAll(async () => {
  server = await startScriptedServer(() => envelope(true));
  rest = createRestClient({ baseUrl: server.url, appId: 'default-app' });
});
afterAll(async () => {
  await rest.close();
  await server.close();
});

const last = () => {
  const req = server.requests.at(-1);
  if (!req) throw new Error('no request recorded');
  return req;
};

describe('REST client: int64 exactness', () => {
  it('sends a bigint message ID with every digit, as a JSON number', async () => {
    await rest.call('PUT /message/recall', { conversation_id: 2000000000001, msg_id: BIG }, { token: 't' });
    expect(last().rawBody).toBe('{"conversation_id":2000000000001,"msg_id":1552747048460091409}');
  });

  it('sends an int64 given as a decimal string as a JSON number (the spec types IDs as numbers)', async () => {
    await rest.call('PUT /message/recall', { conversation_id: '2000000000001', msg_id: '1552747048460091409' }, {});
    expect(last().rawBody).toBe('{"conversation_id":2000000000001,"msg_id":1552747048460091409}');
  });

  it('puts a bigint query value into the URL with every digit', async () => {
    server.setScript(() => envelope({ is_last: true, messages: [], next_msg_id: 0 }));
    await rest.call('GET /message/conversation', { limit: 20, msg_id_start: BIG, opposite_id: 2000000000001 }, {});
    expect(last().query.get('msg_id_start')).toBe('1552747048460091409');
    expect(last().query.get('limit')).toBe('20');
  });

  it('reads 19-digit msg_ids and msg_id from a response as exact bigints', async () => {
    server.setScript(() => ({
      headers: { 'content-type': 'application/json' },
      body:
        '{"code":200,"message":null,"data":{"is_last":false,"next_msg_id":1552747048460091407,' +
        '"messages":[{"msg_id":1552747048460091409,"timestamp":1700000000000}]},"msg_ids":[1552747048460091409]}',
    }));
    const page = await rest.call('GET /message/conversation', { limit: 1, msg_id_start: 0, opposite_id: 1 }, {});
    expect(page.data.messages[0]?.msg_id).toBe(BIG);
    expect(page.data.next_msg_id).toBe(1552747048460091407n);
    expect(page.data.messages[0]?.timestamp).toBe(1700000000000);

    const sent = await rest.call(
      'PUT /message/send',
      { content_type: 0, content: 'hi', attachment: '', targets: [2000000000001], type: 1 },
      {},
    );
    expect(sent.msg_ids).toEqual([BIG]);
  });

  it('returns the top-level cursor, total and version of list endpoints beside data', async () => {
    server.setScript(() => ({
      headers: { 'content-type': 'application/json' },
      body: '{"code":200,"data":[],"cursor":"c2","total":9007199254740993,"version":5}',
    }));
    const reply = await rest.call('GET /group/member_list', { group_id: 1, limit: 10 }, {});
    expect(reply).toEqual({ data: [], cursor: 'c2', total: 9007199254740993n, version: 5 });
    // The extras are typed per endpoint, from the table.
    expectTypeOf(reply.cursor).toEqualTypeOf<string | undefined>();
    expectTypeOf(reply.total).toEqualTypeOf<Int64 | undefined>();
    server.setScript(() => envelope({}));
    const profile = await rest.call('GET /user/profile', {}, {});
    expectTypeOf(profile).not.toHaveProperty('cursor');
  });
});

describe('REST client: headers', () => {
  it('sends the default app_id, and the caller’s app_id in its place when given', async () => {
    server.setScript(() => envelope({}));
    await rest.call('GET /user/profile', {}, {});
    expect(last().headers.app_id).toBe('default-app');
    await rest.call('GET /user/profile', {}, { appId: 'caller-app' });
    expect(last().headers.app_id).toBe('caller-app');
  });

  it('forwards access-token and user_id', async () => {
    await rest.call('GET /user/profile', {}, { token: 'admin-token', userId: '2000000000001' });
    expect(last().headers['access-token']).toBe('admin-token');
    expect(last().headers.user_id).toBe('2000000000001');
  });

  it('withholds group_id from endpoints marked "no group_id header" and sends it to the others', async () => {
    const caller = { token: 'admin-token', groupId: '3000000000001' };
    await rest.call('GET /group/info', { group_id: 3000000000002 }, caller);
    expect(last().headers.group_id).toBeUndefined();
    expect(last().query.get('group_id')).toBe('3000000000002');
    server.setScript(() => envelope([]));
    await rest.call('POST /group/admin/add', { group_id: 3000000000001, user_list: [2000000000001] }, caller);
    expect(last().headers.group_id).toBe('3000000000001');
  });

  it('sends no identity headers the caller does not have', async () => {
    const bare = createRestClient({ baseUrl: server.url });
    try {
      server.setScript(() => envelope({}));
      await bare.call('POST /token/user', { name: 'alice', password: 'pw' }, {});
      const headers = last().headers;
      for (const name of ['app_id', 'access-token', 'user_id', 'group_id']) expect(headers[name]).toBeUndefined();
    } finally {
      await bare.close();
    }
  });
});

describe('REST client: parameter placement', () => {
  it('puts query parameters of a PUT, POST endpoint into the URL and sends no body, with POST (PUT /user/push/limit)', async () => {
    server.setScript(() => envelope(true));
    await rest.call('PUT /user/push/limit', { no_push_start_hour: 22, no_push_end_hour: 7 }, {});
    expect(last().method).toBe('POST');
    expect(last().path).toBe('/user/push/limit');
    expect(Object.fromEntries(last().query)).toEqual({ no_push_start_hour: '22', no_push_end_hour: '7' });
    expect(last().rawBody).toBe('');
    expect(last().headers['content-type']).toBeUndefined();
  });

  it('sends a JSON body with DELETE (DELETE /user/push/tag)', async () => {
    await rest.call('DELETE /user/push/tag', { tags: ['a', 'b'] }, {});
    expect(last().method).toBe('DELETE');
    expect(last().headers['content-type']).toBe('application/json');
    expect(last().rawBody).toBe('{"tags":["a","b"]}');
  });

  it('sends a bare JSON string as the body of PUT /user/private', async () => {
    await rest.call('PUT /user/private', { info: 'say "hi"' }, {});
    expect(last().rawBody).toBe('"say \\"hi\\""');
    expect(last().headers['content-type']).toBe('application/json');
  });

  it('splits one params object between query and body (POST /group/application_list)', async () => {
    server.setScript(() => envelope([]));
    await rest.call('POST /group/application_list', { group_list: [3000000000001], limit: 5, cursor: 'c1' }, {});
    expect(Object.fromEntries(last().query)).toEqual({ limit: '5', cursor: 'c1' });
    expect(last().rawBody).toBe('{"group_list":[3000000000001]}');
  });

  it('writes booleans in a query as true/false and omits undefined values', async () => {
    server.setScript(() => envelope(true));
    await rest.call('PUT /user/push', { value: false }, {});
    expect(last().url).toBe('/user/push?value=false');
    await rest.call('GET /message/ack', { conversation_id: 1, msg_id: undefined }, {});
    expect(last().url).toBe('/message/ack?conversation_id=1');
  });

  it('sends an empty JSON object for a body whose fields are all optional and absent', async () => {
    await rest.call('DELETE /user/delete', {}, {});
    expect(last().rawBody).toBe('{}');
  });

  it('passes values the table refuses through unchanged, for the upstream to reject', async () => {
    await rest.call('PUT /user/push/limit', { no_push_start_hour: 99, no_push_end_hour: 7 }, {});
    expect(last().query.get('no_push_start_hour')).toBe('99');
  });

  it('rejects with a TypeError, sending nothing, for a parameter the endpoint does not have', async () => {
    const before = server.requests.length;
    // @ts-expect-error: 'hours' is not a parameter of this endpoint
    await expect(rest.call('PUT /user/push/limit', { hours: 3 }, {})).rejects.toThrow(TypeError);
    // @ts-expect-error: the download endpoints are not JSON endpoints
    await expect(rest.call('GET /file/download/chat', { file_sign: 'x' }, {})).rejects.toThrow(TypeError);
    expect(server.requests.length).toBe(before);
  });

  it('keeps a base URL path prefix', async () => {
    const prefixed = createRestClient({ baseUrl: `${server.url}/im/` });
    try {
      await prefixed.call('PUT /user/push', { value: true }, {});
      expect(last().url).toBe('/im/user/push?value=true');
    } finally {
      await prefixed.close();
    }
  });
});
