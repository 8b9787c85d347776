// A download's exchange and its storage-redirect rule: which redirects it follows (the service's
// host and the storage hosts it is given, over http(s) only), and the chain it fetches: the
// service with the caller's identity, the storage with none, the final answer's status recorded.
import { Agent, Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer } from '../../src/rest/attempt';
import { downloadExchange, storageLocation } from '../../src/rest/download';
import { prepare } from '../../src/rest/prepare';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-server';

const base = new URL('http://im.example:4001/');
const from = new URL('http://im.example:4001/file/download/chat');
const redirect = (location: string) => ({ location });

describe('the storage-redirect rule', () => {
  it("follows a redirect to the service's own host or to a storage host it is given", () => {
    expect(storageLocation(302, redirect('/oss/a'), from, base, [])?.href).toBe('http://im.example:4001/oss/a');
    expect(storageLocation(307, redirect('https://oss.example/a?sig=1'), from, base, ['oss.example'])?.href).toBe(
      'https://oss.example/a?sig=1',
    );
    expect(storageLocation(301, redirect('http://oss.example:9000/a'), from, base, ['oss.example:9000'])).toBeDefined();
  });

  it('hands back any other redirect: another host, another port than the one named, another scheme', () => {
    expect(storageLocation(302, redirect('http://elsewhere.example/a'), from, base, ['oss.example'])).toBeUndefined();
    expect(storageLocation(302, redirect('http://oss.example:9001/a'), from, base, ['oss.example:9000'])).toBeUndefined();
    expect(storageLocation(302, redirect('ftp://im.example:4001/a'), from, base, [])).toBeUndefined();
  });

  it('reads no redirect in an answer that is not one, or whose location is missing or no URL', () => {
    expect(storageLocation(200, redirect('/oss/a'), from, base, [])).toBeUndefined();
    expect(storageLocation(302, {}, from, base, [])).toBeUndefined();
    expect(storageLocation(302, redirect('http://[bad'), from, base, [])).toBeUndefined();
  });
});

describe('the download exchange', () => {
  let service: ScriptedServer;
  let storage: ScriptedServer;
  let pool: Pool;
  let agent: Agent;

  beforeAll(async () => {
    storage = await startScriptedServer(() => ({ status: 200, headers: { 'content-type': 'image/png' }, body: 'PNG' }));
    service = await startScriptedServer(() => ({ status: 302, headers: { location: `${storage.url}/bucket/a?sig=1` } }));
    pool = new Pool(service.url);
    agent = new Agent();
  });
  afterAll(async () => {
    await Promise.all([pool.close(), agent.close(), service.close(), storage.close()]);
  });

  it("fetches the service with the caller's identity, then the storage with none, and records the storage's status", async () => {
    const exchange = downloadExchange({
      base: new URL(service.url),
      pool,
      storageAgent: agent,
      storageHosts: [new URL(storage.url).host],
      callTimeoutMs: 5_000,
      maxResponseBytes: 1024,
    });
    const prepared = prepare({ prefix: '' }, 'GET /file/download/chat', { file_sign: 's' }, { token: 'secret' }, 'binary', undefined);
    const answer: Answer = {};
    const download = await exchange(prepared, prepared.headers, undefined, answer);
    const chunks: Buffer[] = [];
    for await (const chunk of download.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('PNG');
    expect(answer.status).toBe(200);
    expect(service.requests[0]!.headers['access-token']).toBe('secret');
    expect(storage.requests[0]!.path).toBe('/bucket/a');
    expect(storage.requests[0]!.headers['access-token']).toBeUndefined();
  });
});
