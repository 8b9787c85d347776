// Trusted documents over real HTTP: `documentId` (bare or sha256:) from the generated manifest and
// from an app's own (PERSISTED_DOCUMENTS), PERSISTED_ONLY, coded refusals without a REST call, and
// the ETag and Cache-Control of a GET.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config';
import manifest from '../../../src/generated/persisted-documents.json' with { type: 'json' };
import type { TestUser } from '../../helpers/emulator';
import { startStack, type Stack } from '../../helpers/stack';
import { codes, get, persistedQuery, post, sha256 } from './send';

/** The manifest's ID of the example operation named `name`. */
function idOf(name: string): string {
  const found = Object.entries(manifest).find(([, document]) => new RegExp(`^(query|mutation|subscription) ${name}\\b`).test(document));
  if (!found) throw new Error(`no example operation ${name} in the manifest`);
  return found[0];
}
const ME = idOf('Me');
const SET_NICKNAME = idOf('SetNickname');

const APP_DOCUMENT = 'query AppOwn { me { id username } }';
const dir = mkdtempSync(join(tmpdir(), 'persisted-'));
const appManifest = join(dir, 'app.json');
writeFileSync(appManifest, JSON.stringify({ [sha256(APP_DOCUMENT)]: APP_DOCUMENT }));

describe('documentId', () => {
  let stack: Stack;
  let user: TestUser;
  const as = (u: TestUser) => ({ 'access-token': u.token, app_id: stack.emu.appId });
  beforeAll(async () => {
    stack = await startStack({ PERSISTED_DOCUMENTS: appManifest });
    user = await stack.emu.user();
  });
  afterAll(() => stack.stop());

  it('runs a document of the generated manifest by POST, named as codegen writes it (sha256:) or bare', async () => {
    expect(ME).toMatch(/^sha256:[0-9a-f]{64}$/);
    for (const documentId of [ME, ME.slice('sha256:'.length)]) {
      const answer = await post(stack.url, { documentId }, as(user));
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ data: { me: { id: String(user.id), username: user.name } } });
    }
  });

  it("runs the app's own manifest (PERSISTED_DOCUMENTS) beside the generated one", async () => {
    const answer = await post(stack.url, { documentId: sha256(APP_DOCUMENT) }, as(user));
    expect(answer.body).toEqual({ data: { me: { id: String(user.id), username: user.name } } });
  });

  it('runs a mutation by POST with its variables', async () => {
    const answer = await post(stack.url, { documentId: SET_NICKNAME, variables: { nickName: 'Doc' } }, as(user));
    expect(answer.body?.data?.setNickname).toMatchObject({ ok: true, user: { nickName: 'Doc' } });
  });

  it('refuses an unknown documentId with PERSISTED_QUERY_NOT_FOUND and a malformed one with BAD_USER_INPUT naming documentId, no REST call', async () => {
    stack.emu.mark();
    const unknown = await post(stack.url, { documentId: `sha256:${'0'.repeat(64)}` }, as(user));
    expect(unknown.status).toBe(404);
    expect(codes(unknown)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    for (const documentId of ['abc', `md5:${'0'.repeat(32)}`, 42, `sha256:${'0'.repeat(63)}`]) {
      const malformed = await post(stack.url, { documentId }, as(user));
      expect(malformed.status).toBe(400);
      expect(malformed.body?.errors?.[0]).toMatchObject({
        message: expect.stringMatching(/^documentId /),
        extensions: { code: 'BAD_USER_INPUT', field: 'documentId' },
      });
    }
    const both = await post(stack.url, { documentId: ME, query: '{ me { id } }' }, as(user));
    expect(codes(both)).toEqual(['BAD_USER_INPUT']);
    const byGet = await get(stack.url, { documentId: 'nope' }, as(user));
    expect(codes(byGet)).toEqual(['BAD_USER_INPUT']);
    expect(stack.emu.calls()).toHaveLength(0);
  });

  it('answers a GET with a private ETag: 304 for the same caller holding it, the full answer for another caller', async () => {
    const first = await get(stack.url, { documentId: ME }, as(user));
    expect(first.status).toBe(200);
    expect(first.body?.data?.me).toMatchObject({ id: String(user.id) });
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await get(stack.url, { documentId: ME }, { ...as(user), 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();
    expect(again.headers.get('etag')).toBe(etag);

    const other = await stack.emu.user();
    const theirs = await get(stack.url, { documentId: ME }, { ...as(other), 'if-none-match': etag });
    expect(theirs.status).toBe(200);
    expect(theirs.body?.data?.me).toMatchObject({ id: String(other.id) });
    expect(theirs.headers.get('etag')).not.toBe(etag);
  });

  it('answers anew once the data changed, though the caller holds the old ETag', async () => {
    const before = await get(stack.url, { documentId: ME }, as(user));
    await post(stack.url, { documentId: SET_NICKNAME, variables: { nickName: `N${Date.now()}` } }, as(user));
    const after = await get(stack.url, { documentId: ME }, { ...as(user), 'if-none-match': before.headers.get('etag')! });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });

  it('still refuses a mutation over GET', async () => {
    stack.emu.mark();
    const refused = await get(stack.url, { documentId: SET_NICKNAME, variables: { nickName: 'Get' } }, as(user));
    expect(refused.status).toBe(405);
    expect(stack.emu.calls()).toHaveLength(0);
  });
});

describe('PERSISTED_ONLY=true', () => {
  let stack: Stack;
  let user: TestUser;
  const as = () => ({ 'access-token': user.token, app_id: stack.emu.appId });
  beforeAll(async () => {
    stack = await startStack({ PERSISTED_ONLY: 'true' });
    user = await stack.emu.user();
  });
  afterAll(() => stack.stop());

  it('refuses text queries and APQ registrations with PERSISTED_QUERY_ONLY, no REST call', async () => {
    stack.emu.mark();
    const text = await post(stack.url, { query: '{ me { id } }' }, as());
    expect(text.status).toBe(400);
    expect(codes(text)).toEqual(['PERSISTED_QUERY_ONLY']);
    const query = '{ me { username } }';
    const registration = await post(stack.url, { query, extensions: persistedQuery(sha256(query)) }, as());
    expect(codes(registration)).toEqual(['PERSISTED_QUERY_ONLY']);
    expect(stack.emu.calls()).toHaveLength(0);
  });

  it('runs trusted documents, by documentId and by their hash in the APQ extension', async () => {
    const byId = await post(stack.url, { documentId: ME }, as());
    expect(byId.body?.data?.me).toMatchObject({ id: String(user.id) });
    const byHash = await post(stack.url, { extensions: persistedQuery(ME.slice('sha256:'.length)) }, as());
    expect(byHash.body?.data?.me).toMatchObject({ id: String(user.id) });
  });
});

describe('PERSISTED_DOCUMENTS, checked at start', () => {
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  it.each([
    ['not JSON', file('bad.json', '{ nope')],
    ['an array', file('array.json', '[]')],
    ['a key that is no hash', file('key.json', JSON.stringify({ Me: '{ me { id } }' }))],
    ['a document that is no string', file('value.json', JSON.stringify({ [sha256('x')]: 1 }))],
    ['a missing file', join(dir, 'missing.json')],
  ])('refuses %s with a ConfigError naming the variable', (_what, path) => {
    expect(() => loadConfig({ PERSISTED_DOCUMENTS: path })).toThrow(ConfigError);
    expect(() => loadConfig({ PERSISTED_DOCUMENTS: path })).toThrow(/PERSISTED_DOCUMENTS/);
  });
});
