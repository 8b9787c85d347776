// The storage behind upload targets: multipart POST and raw PUT uploads, signature, expiry and
// size checks, and downloads through the download URL and /file/download/chat.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadTarget } from '../../../src/rest/records';
import { startEmulator, type TestEmulator, type TestUser, useEmulator } from '../../helpers/emulator';

let now = Date.now();
const emu = useEmulator({ clock: () => now });

function chatTarget(u: TestUser, toId: number): Promise<UploadTarget> {
  return emu.ok<UploadTarget>('GET', '/file/upload/chat', { token: u.token, query: { file_type: 100, to_id: toId } });
}

/** POSTs the target's fields (first, as OSS wants) and the file as multipart/form-data. */
function postFile(target: UploadTarget, bytes: Buffer, type = 'application/octet-stream', fields = target.oss_body_param) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), 'blob.bin');
  return fetch(target.upload_url, { method: target.upload_method, body: form });
}

async function download(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

function chatDownloadUrl(fileSign: string, u: TestUser): string {
  const url = new URL('/file/download/chat', emu.url);
  url.search = new URLSearchParams({ file_sign: fileSign, app_id: emu.appId, 'access-token': u.token }).toString();
  return url.toString();
}

describe('upload storage', () => {
  it('accepts 1 MB by multipart POST and serves it back byte-equal by both URLs', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const target = await chatTarget(a, b.id);
    expect(target.upload_method).toBe('POST');
    expect(target.upload_url.startsWith(emu.url)).toBe(true);
    expect(Object.keys(target.oss_body_param)).toEqual(expect.arrayContaining(['key', 'policy', 'signature', 'OSSAccessKeyId']));
    const bytes = randomBytes(1024 * 1024);
    const res = await postFile(target, bytes, 'video/mp4');
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { code: number; data: { key: string; size: number; download_url: string } };
    expect(answer).toMatchObject({
      code: 200,
      data: { key: target.oss_body_param.key, size: bytes.length, download_url: target.download_url },
    });

    const direct = await download(target.download_url);
    expect(direct.status).toBe(200);
    expect(direct.type).toBe('video/mp4');
    expect(direct.bytes.equals(bytes)).toBe(true);
    const viaTable = await download(chatDownloadUrl(target.oss_body_param.key!, a));
    expect(viaTable.status).toBe(200);
    expect(viaTable.type).toBe('video/mp4');
    expect(viaTable.bytes.equals(bytes)).toBe(true);
  });

  it('refuses a bad signature with 10010 (HTTP 403) and stores nothing', async () => {
    const a = await emu.user();
    const target = await chatTarget(a, a.id);
    const forged = { ...target.oss_body_param, signature: Buffer.alloc(32).toString('base64') };
    const res = await postFile(target, randomBytes(2048), undefined, forged);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 10010 });
    expect((await download(target.download_url)).status).toBe(404);
  });

  it('refuses a key that is not the signed one', async () => {
    const a = await emu.user();
    const one = await chatTarget(a, a.id);
    const other = await chatTarget(a, a.id);
    const res = await postFile(one, randomBytes(16), undefined, { ...one.oss_body_param, key: other.oss_body_param.key! });
    expect(res.status).toBe(403);
    expect((await download(other.download_url)).status).toBe(404);
  });

  it('refuses an expired target', async () => {
    const a = await emu.user();
    const target = await chatTarget(a, a.id);
    now += 2 * 3600_000;
    try {
      const res = await postFile(target, randomBytes(16));
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toContain('expired');
    } finally {
      now -= 2 * 3600_000;
    }
    expect((await download(target.download_url)).status).toBe(404);
  });

  it('refuses a form without a file part, and a file sent before the fields', async () => {
    const a = await emu.user();
    const target = await chatTarget(a, a.id);
    const noFile = new FormData();
    for (const [k, v] of Object.entries(target.oss_body_param)) noFile.append(k, v);
    const res1 = await fetch(target.upload_url, { method: 'POST', body: noFile });
    expect(res1.status).toBe(400);
    expect(await res1.json()).toMatchObject({ code: 10002 });

    const fileFirst = new FormData();
    fileFirst.append('file', new Blob([randomBytes(8)]), 'x');
    for (const [k, v] of Object.entries(target.oss_body_param)) fileFirst.append(k, v);
    const res2 = await fetch(target.upload_url, { method: 'POST', body: fileFirst });
    expect(res2.status).toBe(400);
    expect((await download(target.download_url)).status).toBe(404);
  });

  it('refuses a body that is not multipart', async () => {
    const a = await emu.user();
    const target = await chatTarget(a, a.id);
    const res = await fetch(target.upload_url, { method: 'POST', body: 'plain', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 10002 });
  });

  it('accepts a PUT of the raw bytes with the fields in the query', async () => {
    const a = await emu.user();
    const target = await chatTarget(a, a.id);
    const url = new URL(target.upload_url);
    for (const [k, v] of Object.entries(target.oss_body_param)) url.searchParams.set(k, v);
    const bytes = randomBytes(300_000);
    const res = await fetch(url, { method: 'PUT', body: bytes, headers: { 'content-type': 'image/png' } });
    expect(res.status).toBe(200);
    const back = await download(target.download_url);
    expect(back.type).toBe('image/png');
    expect(back.bytes.equals(bytes)).toBe(true);

    const unsigned = new URL(target.upload_url);
    unsigned.searchParams.set('key', target.oss_body_param.key!);
    const refused = await fetch(unsigned, { method: 'PUT', body: bytes });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 10002 });
  });

  it('answers 404 for an unknown object', async () => {
    expect((await download(`${emu.url}/_storage/object/chat/nothing`)).status).toBe(404);
  });
});

describe('upload size limit', () => {
  let small: TestEmulator;
  beforeAll(async () => {
    small = await startEmulator({ maxUploadBytes: 1000 });
  });
  afterAll(() => small.stop());

  it('refuses a file over maxUploadBytes with 413 and stores nothing, and takes one at the limit', async () => {
    const a = await small.user();
    const target = await small.ok<UploadTarget>('GET', '/file/upload/chat', { token: a.token, query: { file_type: 102, to_id: a.id } });
    const over = await postFile(target, randomBytes(1001));
    expect(over.status).toBe(413);
    expect(await over.json()).toMatchObject({ code: 10002 });
    expect((await download(target.download_url)).status).toBe(404);
    const url = new URL(target.upload_url);
    for (const [k, v] of Object.entries(target.oss_body_param)) url.searchParams.set(k, v);
    expect((await fetch(url, { method: 'PUT', body: randomBytes(5000) })).status).toBe(413);
    const exact = randomBytes(1000);
    expect((await postFile(target, exact)).status).toBe(200);
    expect((await download(target.download_url)).bytes.equals(exact)).toBe(true);
  });
});
