// The methods the REST client sends, as the service's own clients do (spec/upstream-notes.md, "What
// the service's own clients show"): POST wherever the spec lists POST beside PUT or DELETE, else the
// one method listed; and no DELETE with a body, except 1.30 DELETE /user/push/tag, which lists
// DELETE alone and whose spec says its tags are 'sent as a body' (document 2): kept as the spec has
// it. Checked over the table (the placement every call is made from) and over the wire (every
// endpoint called once against a raw server that records what arrives).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/rest/caller';
import { createRestClient } from '../../src/rest/client';
import { endpoints } from '../../src/rest/endpoints';
import { placement } from '../../src/rest/placement';
import type { EndpointDef } from '../../src/rest/table';
import { envelope, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server';

const table = Object.entries(endpoints as Readonly<Record<string, EndpointDef>>);
const listsPost = table.filter(([, def]) => def.methods.includes('POST'));
const withoutPost = table.filter(([, def]) => !def.methods.includes('POST'));

// The endpoints that list DELETE alone (5.3, 1.30, 1.31): the only ones the client sends DELETE to.
const DELETE_ONLY = ['DELETE /message/conversation', 'DELETE /user/push/tag', 'DELETE /user/push/tag/all'];
// 1.30: 'tags array of string required (sent as a body)', with DELETE the only method listed.
const DELETE_WITH_BODY = ['DELETE /user/push/tag'];

describe('the methods the client sends, over the table', () => {
  it('sends POST to every endpoint that lists POST (beside PUT or DELETE too)', () => {
    const notPost = listsPost.filter(([name]) => placement(name).method !== 'POST').map(([name]) => name);
    expect(notPost).toEqual([]);
    // Both kinds of pair are there, so the rule is not vacuous.
    expect(listsPost.some(([, def]) => def.methods.includes('PUT'))).toBe(true);
    expect(listsPost.some(([, def]) => def.methods.includes('DELETE'))).toBe(true);
  });

  it('sends the one listed method to every endpoint that does not list POST', () => {
    const wrong = withoutPost
      .filter(([name, def]) => def.methods.length !== 1 || placement(name).method !== def.methods[0])
      .map(([name, def]) => `${name}: lists ${def.methods.join(',')}, sent ${placement(name).method}`);
    expect(wrong).toEqual([]);
  });

  it('sends DELETE only to the endpoints that list DELETE alone, and a body with DELETE only to 1.30', () => {
    const deletes = table.filter(([name]) => placement(name).method === 'DELETE');
    expect(deletes.map(([name]) => name).sort()).toEqual([...DELETE_ONLY].sort());
    expect(deletes.filter(([name]) => placement(name).body).map(([name]) => name)).toEqual(DELETE_WITH_BODY);
  });
});

describe('the methods the client sends, over the wire', () => {
  let server: ScriptedServer;
  let rest: ReturnType<typeof createRestClient>;
  const caller: Caller = { token: 't', groupId: '3000000000001' };

  beforeAll(async () => {
    server = await startScriptedServer(() => envelope(true));
    rest = createRestClient({ baseUrl: server.url, appId: 'app', retries: 0 });
  });
  afterAll(async () => {
    await rest.close();
    await server.close();
  });

  // What is sent does not depend on the values: the least params the client accepts (none, or the
  // name of a body that is a bare string or an array), which it passes on for the upstream to judge.
  function leastParams(def: EndpointDef): Record<string, unknown> {
    if (def.body && 'kind' in def.body) return { [def.body.name]: def.body.kind === 'array' ? [] : 'x' };
    return {};
  }

  /** Calls each endpoint once, one after another; the request the server recorded for each. */
  async function callEach(): Promise<Map<string, { method: string; body: string; headers: Record<string, unknown> }>> {
    const untyped = rest as unknown as {
      call(name: string, params: object, caller: Caller): Promise<unknown>;
      download(name: string, params: object, caller: Caller): Promise<{ body: NodeJS.ReadableStream & { resume(): void } }>;
    };
    const seen = new Map<string, { method: string; body: string; headers: Record<string, unknown> }>();
    for (const [name, def] of table) {
      const before = server.requests.length;
      if (def.result === 'binary') (await untyped.download(name, leastParams(def), caller)).body.resume();
      else await untyped.call(name, leastParams(def), caller);
      const req = server.requests[before];
      if (req && server.requests.length === before + 1) seen.set(name, { method: req.method, body: req.rawBody, headers: req.headers });
    }
    return seen;
  }

  it('sends each endpoint once, with POST where listed, else the one listed method, and a DELETE body only to 1.30', async () => {
    const seen = await callEach();
    expect([...seen.keys()]).toEqual(table.map(([name]) => name));

    const wrongMethod = table
      .filter(([name, def]) => seen.get(name)?.method !== (def.methods.includes('POST') ? 'POST' : def.methods[0]))
      .map(([name]) => `${name}: sent ${seen.get(name)?.method ?? 'nothing'}`);
    expect(wrongMethod).toEqual([]);

    const deletes = [...seen].filter(([, req]) => req.method === 'DELETE');
    expect(deletes.map(([name]) => name).sort()).toEqual([...DELETE_ONLY].sort());
    const carriesBody = (req: { body: string; headers: Record<string, unknown> }) =>
      req.body !== '' || req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    expect(deletes.filter(([, req]) => carriesBody(req)).map(([name]) => name)).toEqual(DELETE_WITH_BODY);
    expect(seen.get('DELETE /user/push/tag')?.headers['content-type']).toBe('application/json');
  });
});
