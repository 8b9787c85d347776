// 6.1–6.6: upload targets of avatars and chat files, downloads by object_name and file_sign (a 302
// to the object's storage URL), and forwarding a chat file by its sign to another target.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { UploadTarget } from '../../../src/rest/records';
import type { Actor } from '../../../src/emulator/auth/actor';
import { type TestUser, useEmulator } from '../../helpers/emulator';

const emu = useEmulator();

async function upload(target: UploadTarget, bytes: Buffer, type: string): Promise<void> {
  const form = new FormData();
  for (const [k, v] of Object.entries(target.oss_body_param)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), 'f');
  const res = await fetch(target.upload_url, { method: target.upload_method, body: form });
  expect(res.status).toBe(200);
}

/**
 * A table download with headers, redirects off (as the service's connector asks): answers the
 * status, the Location, and the envelope of a refusal.
 */
async function get(path: string, query: Record<string, string>, token?: string) {
  const url = new URL(path, emu.url);
  url.search = new URLSearchParams(query).toString();
  const headers: Record<string, string> = { app_id: emu.appId, ...(token ? { 'access-token': token } : {}) };
  const res = await fetch(url, { headers, redirect: 'manual' });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  const envelope = type.startsWith('application/json') ? (JSON.parse(text) as { code: number; message: string }) : undefined;
  return { status: res.status, location: res.headers.get('location'), text, envelope };
}

/** The bytes and type at a storage URL, fetched with no identity at all. */
async function stored(location: string | null) {
  const res = await fetch(location!);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The file_sign a chat download URL carries: the text after `sign=`, as the web SDK reads it. */
const signIn = (downloadUrl: string) => downloadUrl.split('sign=')[1]!;

async function chatFile(u: TestUser, toId: number, bytes: Buffer) {
  const target = await emu.ok<UploadTarget>('GET', '/file/upload/chat', { token: u.token, query: { file_type: 102, to_id: toId } });
  await upload(target, bytes, 'image/jpeg');
  return { target, key: target.oss_body_param.key!, sign: signIn(target.download_url) };
}

describe('6.4 GET /file/upload/avatar/user and 6.1 GET /file/download/avatar', () => {
  it('gives a target whose download URL is 6.1 by object_name, which redirects to the stored bytes', async () => {
    const a = await emu.user();
    const target = await emu.ok<UploadTarget>('GET', '/file/upload/avatar/user', { token: a.token });
    const key = target.oss_body_param.key!;
    expect(key.startsWith(`avatar/user/${a.id}/`)).toBe(true);
    expect(target.download_url).toBe(`${emu.url}/file/download/avatar?object_name=${encodeURIComponent(key)}`);
    const png = randomBytes(4096);
    await upload(target, png, 'image/png');
    const got = await get('/file/download/avatar', { object_name: key, image_type: '2', w: '64', h: '64' }, a.token);
    expect(got.status).toBe(302);
    expect(got.location).toBe(`${emu.url}/_storage/object/${key}`);
    expect(got.text).toBe('');
    expect(await stored(got.location)).toMatchObject({ status: 200, type: 'image/png', bytes: png });
    // The download URL itself is the request the service's clients make.
    const direct = await fetch(target.download_url, { headers: { app_id: emu.appId, 'access-token': a.token }, redirect: 'manual' });
    expect(direct.headers.get('location')).toBe(got.location);
  });

  it('acts as the user_id header with the admin token, and needs it', async () => {
    const a = await emu.user();
    const target = await emu.ok<UploadTarget>('GET', '/file/upload/avatar/user', { token: emu.adminToken, userId: a.id });
    expect(target.oss_body_param.key!.startsWith(`avatar/user/${a.id}/`)).toBe(true);
    const missing = await emu.rest('GET', '/file/upload/avatar/user', { token: emu.adminToken });
    expect(missing.code).toBe(10002);
  });

  it('refuses an unknown object_name (and a chat file’s key) with 10002, HTTP 404', async () => {
    const a = await emu.user();
    const unknown = await get('/file/download/avatar', { object_name: 'avatar/user/1/none' }, a.token);
    expect(unknown.status).toBe(404);
    expect(unknown.location).toBeNull();
    expect(unknown.envelope).toMatchObject({ code: 10002 });
    expect(unknown.envelope!.message).toContain('object_name');
    const { key } = await chatFile(a, a.id, randomBytes(10));
    expect((await get('/file/download/avatar', { object_name: key }, a.token)).envelope).toMatchObject({ code: 10002 });
  });
});

describe('6.3 GET /file/upload/avatar/group', () => {
  let restore: (() => void) | undefined;
  afterEach(() => restore?.());

  it('asks the group contract whether the actor may modify the group, then gives a target', async () => {
    // GroupState is another domain's; stand in for a group that lets the caller edit it.
    const groups = emu.server.state.groups;
    const original = groups.assertCanModifyInfo;
    const asked: [number, Actor][] = [];
    groups.assertCanModifyInfo = (groupId, actor) => void asked.push([groupId, actor]);
    restore = () => {
      groups.assertCanModifyInfo = original;
    };
    const a = await emu.user();
    const target = await emu.ok<UploadTarget>('GET', '/file/upload/avatar/group', {
      token: a.token,
      query: { group_id: 4_000_000_000_777 },
    });
    expect(asked).toEqual([[4_000_000_000_777, { admin: false, userId: a.id }]]);
    expect(target.oss_body_param.key!.startsWith('avatar/group/4000000000777/')).toBe(true);
    const bytes = randomBytes(100);
    await upload(target, bytes, 'image/jpeg');
    const got = await get('/file/download/avatar', { object_name: target.oss_body_param.key! }, a.token);
    expect((await stored(got.location)).bytes.equals(bytes)).toBe(true);
  });

  it('refuses an unknown group with 20001', async () => {
    const a = await emu.user();
    const reply = await emu.rest('GET', '/file/upload/avatar/group', { token: a.token, query: { group_id: 4_999_999_999_999 } });
    expect(reply.code).toBe(20001);
  });
});

describe('6.5 GET /file/upload/chat and 6.2 GET /file/download/chat', () => {
  it('gives a target for every file type, with the callback field beside the policy fields', async () => {
    const a = await emu.user();
    const b = await emu.user();
    for (const fileType of [100, 101, 102, 103, 104, 200, 201, 202, 203]) {
      const target = await emu.ok<UploadTarget>('GET', '/file/upload/chat', {
        token: a.token,
        query: { file_type: fileType, to_id: b.id, to_type: 1 },
      });
      expect(target.oss_body_param.key).toMatch(/^chat\/[0-9a-f]{32}$/);
      expect(Object.keys(target.oss_body_param).sort()).toEqual(['OSSAccessKeyId', 'callback', 'key', 'policy', 'signature']);
    }
  });

  it('hands out a download URL that is 6.2 with the file’s sign, which is not its key', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const bytes = randomBytes(5000);
    const { target, key, sign } = await chatFile(a, b.id, bytes);
    expect(target.download_url).toBe(`${emu.url}/file/download/chat?file_sign=${sign}`);
    expect(new URL(target.download_url).searchParams.get('file_sign')).toBe(sign);
    expect(sign).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sign).not.toBe(key);
    expect(sign).not.toContain(key.slice('chat/'.length));
    const got = await get('/file/download/chat', { file_sign: sign, format: 'mp3' }, b.token);
    expect(got.status).toBe(302);
    expect(got.location).toBe(`${emu.url}/_storage/object/${key}`);
    expect(await stored(got.location)).toMatchObject({ status: 200, type: 'image/jpeg', bytes });
  });

  it('refuses the key given as file_sign (a client that assumes they are equal fails)', async () => {
    const a = await emu.user();
    const { key } = await chatFile(a, a.id, randomBytes(10));
    const got = await get('/file/download/chat', { file_sign: key }, a.token);
    expect(got.status).toBe(404);
    expect(got.location).toBeNull();
    expect(got.envelope).toMatchObject({ code: 10002 });
    expect(got.envelope!.message).toContain('file_sign');
  });

  it('refuses an unknown user (10000), an unknown group (20001) and a bad file_type (10002)', async () => {
    const a = await emu.user();
    expect((await emu.rest('GET', '/file/upload/chat', { token: a.token, query: { file_type: 100, to_id: 2_999_999_999_999 } })).code).toBe(
      10000,
    );
    expect(
      (await emu.rest('GET', '/file/upload/chat', { token: a.token, query: { file_type: 100, to_id: 4_999_999_999_999, to_type: 2 } }))
        .code,
    ).toBe(20001);
    const bad = await emu.rest('GET', '/file/upload/chat', { token: a.token, query: { file_type: 105, to_id: a.id } });
    expect(bad.code).toBe(10002);
    expect(bad.message).toContain('file_type');
  });

  it('refuses an unknown file_sign with 10002 (HTTP 404), and a download without token with 10003', async () => {
    const a = await emu.user();
    const unknown = await get('/file/download/chat', { file_sign: 'AAAA' }, a.token);
    expect(unknown.status).toBe(404);
    expect(unknown.envelope!.message).toContain('file_sign');
    const { sign } = await chatFile(a, a.id, randomBytes(10));
    const anonymous = await get('/file/download/chat', { file_sign: sign });
    expect(anonymous.envelope).toMatchObject({ code: 10003 });
    expect(anonymous.location).toBeNull();
  });

  it('takes the identity from query parameters, as the web SDK’s image tags send it', async () => {
    const a = await emu.user();
    const bytes = randomBytes(64);
    const { target } = await chatFile(a, a.id, bytes);
    const url = `${target.download_url.replace('?', `?app_id=${emu.appId}&access-token=${a.token}&`)}`;
    const res = await fetch(url);
    expect(res.redirected).toBe(true);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });
});

describe('6.6 GET /file/upload/forward', () => {
  it('takes the sign of the download URL and answers the download URL of a new file over the same bytes', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const bytes = randomBytes(20_000);
    const { sign, key } = await chatFile(a, a.id, bytes);
    const url = await emu.ok<string>('GET', '/file/upload/forward', { token: a.token, query: { file_sign: sign, to_id: b.id } });
    expect(url.startsWith(`${emu.url}/file/download/chat?file_sign=`)).toBe(true);
    const forwardedSign = signIn(url);
    expect(forwardedSign).not.toBe(sign);
    const got = await get('/file/download/chat', { file_sign: forwardedSign }, b.token);
    expect(got.status).toBe(302);
    expect(got.location).not.toBe(`${emu.url}/_storage/object/${key}`);
    expect((await stored(got.location)).bytes.equals(bytes)).toBe(true);
    // A forwarded file forwards again by its own sign.
    expect(
      signIn(await emu.ok<string>('GET', '/file/upload/forward', { token: b.token, query: { file_sign: forwardedSign, to_id: a.id } })),
    ).not.toBe(forwardedSign);
  });

  it('refuses the key instead of the sign, an unknown sign and an avatar, changing nothing', async () => {
    const a = await emu.user();
    const { key } = await chatFile(a, a.id, randomBytes(10));
    const count = () => emu.server.state.files.objects.size;
    const stored0 = count();
    for (const fileSign of [key, 'chat/none', 'AAAA']) {
      const refused = await emu.rest('GET', '/file/upload/forward', { token: a.token, query: { file_sign: fileSign, to_id: a.id } });
      expect(refused.code).toBe(10002);
      expect(refused.message).toContain('file_sign');
    }
    const avatar = await emu.ok<UploadTarget>('GET', '/file/upload/avatar/user', { token: a.token });
    await upload(avatar, randomBytes(10), 'image/png');
    for (const fileSign of [avatar.oss_body_param.key!, avatar.download_url.split('object_name=')[1]!]) {
      expect((await emu.rest('GET', '/file/upload/forward', { token: a.token, query: { file_sign: fileSign, to_id: a.id } })).code).toBe(
        10002,
      );
    }
    expect(count()).toBe(stored0 + 1);
  });

  it('refuses an unknown target (10000, 20001)', async () => {
    const a = await emu.user();
    const { sign } = await chatFile(a, a.id, randomBytes(10));
    expect(
      (await emu.rest('GET', '/file/upload/forward', { token: a.token, query: { file_sign: sign, to_id: 2_999_999_999_999 } })).code,
    ).toBe(10000);
    expect(
      (await emu.rest('GET', '/file/upload/forward', { token: a.token, query: { file_sign: sign, to_id: 4_999_999_999_999, to_type: 2 } }))
        .code,
    ).toBe(20001);
  });
});
