// 6.1–6.6: upload targets of avatars and chat files, downloads by object_name and file_sign,
// and forwarding a chat file to another target.
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

/** A table download with headers; answers status, content type, bytes and (if JSON) the envelope. */
async function get(path: string, query: Record<string, string>, token?: string) {
  const url = new URL(path, emu.url);
  url.search = new URLSearchParams(query).toString();
  const headers: Record<string, string> = { app_id: emu.appId, ...(token ? { 'access-token': token } : {}) };
  const res = await fetch(url, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  const envelope = type.startsWith('application/json') ? (JSON.parse(bytes.toString()) as { code: number; message: string }) : undefined;
  return { status: res.status, type, bytes, envelope };
}

async function chatFile(u: TestUser, toId: number, bytes: Buffer): Promise<string> {
  const target = await emu.ok<UploadTarget>('GET', '/file/upload/chat', { token: u.token, query: { file_type: 102, to_id: toId } });
  await upload(target, bytes, 'image/jpeg');
  return target.oss_body_param.key!;
}

describe('6.4 GET /file/upload/avatar/user and 6.1 GET /file/download/avatar', () => {
  it('gives a target whose key is the object_name the avatar downloads by', async () => {
    const a = await emu.user();
    const target = await emu.ok<UploadTarget>('GET', '/file/upload/avatar/user', { token: a.token });
    const key = target.oss_body_param.key!;
    expect(key.startsWith(`avatar/user/${a.id}/`)).toBe(true);
    expect(target.download_url).toBe(`${emu.url}/_storage/object/${key}`);
    const png = randomBytes(4096);
    await upload(target, png, 'image/png');
    const got = await get('/file/download/avatar', { object_name: key, image_type: '2', w: '64', h: '64' }, a.token);
    expect(got.status).toBe(200);
    expect(got.type).toBe('image/png');
    expect(got.bytes.equals(png)).toBe(true);
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
    expect(unknown.envelope).toMatchObject({ code: 10002 });
    expect(unknown.envelope!.message).toContain('object_name');
    const chatKey = await chatFile(a, a.id, randomBytes(10));
    expect((await get('/file/download/avatar', { object_name: chatKey }, a.token)).envelope).toMatchObject({ code: 10002 });
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
    expect((await get('/file/download/avatar', { object_name: target.oss_body_param.key! }, a.token)).bytes.equals(bytes)).toBe(true);
  });

  it('refuses an unknown group with 20001', async () => {
    const a = await emu.user();
    const reply = await emu.rest('GET', '/file/upload/avatar/group', { token: a.token, query: { group_id: 4_999_999_999_999 } });
    expect(reply.code).toBe(20001);
  });
});

describe('6.5 GET /file/upload/chat and 6.2 GET /file/download/chat', () => {
  it('gives a target for every file type; the key is the file_sign', async () => {
    const a = await emu.user();
    const b = await emu.user();
    for (const fileType of [100, 101, 102, 103, 104, 200, 201, 202, 203]) {
      const target = await emu.ok<UploadTarget>('GET', '/file/upload/chat', {
        token: a.token,
        query: { file_type: fileType, to_id: b.id, to_type: 1 },
      });
      expect(target.oss_body_param.key).toMatch(/^chat\/[0-9a-f]{32}$/);
    }
    const bytes = randomBytes(5000);
    const sign = await chatFile(a, b.id, bytes);
    const got = await get('/file/download/chat', { file_sign: sign, format: 'mp3' }, b.token);
    expect(got.status).toBe(200);
    expect(got.type).toBe('image/jpeg');
    expect(got.bytes.equals(bytes)).toBe(true);
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
    const unknown = await get('/file/download/chat', { file_sign: 'chat/none' }, a.token);
    expect(unknown.status).toBe(404);
    expect(unknown.envelope!.message).toContain('file_sign');
    const sign = await chatFile(a, a.id, randomBytes(10));
    expect((await get('/file/download/chat', { file_sign: sign })).envelope).toMatchObject({ code: 10003 });
  });
});

describe('6.6 GET /file/upload/forward', () => {
  it('answers the URL of a new file over the same bytes, whose key is a file_sign too', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const bytes = randomBytes(20_000);
    const sign = await chatFile(a, a.id, bytes);
    const url = await emu.ok<string>('GET', '/file/upload/forward', { token: a.token, query: { file_sign: sign, to_id: b.id } });
    expect(url.startsWith(`${emu.url}/_storage/object/chat/`)).toBe(true);
    const forwardedSign = url.slice(`${emu.url}/_storage/object/`.length);
    expect(forwardedSign).not.toBe(sign);
    expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(bytes)).toBe(true);
    expect((await get('/file/download/chat', { file_sign: forwardedSign }, b.token)).bytes.equals(bytes)).toBe(true);
  });

  it('refuses an unknown file_sign (10002), an avatar key (10002) and an unknown target (10000, 20001)', async () => {
    const a = await emu.user();
    const sign = await chatFile(a, a.id, randomBytes(10));
    const unknown = await emu.rest('GET', '/file/upload/forward', { token: a.token, query: { file_sign: 'chat/none', to_id: a.id } });
    expect(unknown.code).toBe(10002);
    expect(unknown.message).toContain('file_sign');
    const avatar = await emu.ok<UploadTarget>('GET', '/file/upload/avatar/user', { token: a.token });
    await upload(avatar, randomBytes(10), 'image/png');
    expect(
      (await emu.rest('GET', '/file/upload/forward', { token: a.token, query: { file_sign: avatar.oss_body_param.key!, to_id: a.id } }))
        .code,
    ).toBe(10002);
    expect(
      (await emu.rest('GET', '/file/upload/forward', { token: a.token, query: { file_sign: sign, to_id: 2_999_999_999_999 } })).code,
    ).toBe(10000);
    expect(
      (await emu.rest('GET', '/file/upload/forward', { token: a.token, query: { file_sign: sign, to_id: 4_999_999_999_999, to_type: 2 } }))
        .code,
    ).toBe(20001);
  });
});
