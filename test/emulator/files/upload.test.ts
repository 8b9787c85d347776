// The storage behind upload targets, in the manner of Aliyun OSS: multipart POST and raw PUT
// uploads, signature, expiry and size checks, the callback and the storage's own answers (the
// callback server's JSON, or OSS's empty or XML answers; OSS XML errors, never the IM envelope),
// and downloads through the service's download URL, which redirects to the storage.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadTarget } from '../../../src/rest/records';
import { startEmulator, type TestEmulator, type TestUser, useEmulator } from '../../helpers/emulator';

let now = Date.now();
const emu = useEmulator({ clock: () => now });

function chatTarget(u: TestUser, toId: number, on: TestEmulator = emu): Promise<UploadTarget> {
  return on.ok<UploadTarget>('GET', '/file/upload/chat', { token: u.token, query: { file_type: 100, to_id: toId } });
}

/** POSTs the target's fields (first, as OSS wants) and the file as multipart/form-data. */
function postFile(target: UploadTarget, bytes: Buffer, type = 'application/octet-stream', fields = target.oss_body_param) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), 'blob.bin');
  return fetch(target.upload_url, { method: target.upload_method, body: form });
}

/** PUTs the raw bytes with the given fields in the query. */
function putFile(target: UploadTarget, bytes: Buffer, fields: Record<string, string>, type?: string) {
  const url = new URL(target.upload_url);
  for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
  return fetch(url, { method: 'PUT', body: new Uint8Array(bytes), ...(type ? { headers: { 'content-type': type } } : {}) });
}

const without = (fields: Record<string, string>, name: string) => Object.fromEntries(Object.entries(fields).filter(([k]) => k !== name));

/** The object under the target's key, read from the storage itself (no identity). */
async function storedAt(target: UploadTarget, on: TestEmulator = emu) {
  const res = await fetch(`${on.url}/_storage/object/${target.oss_body_param.key!}`);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The storage's XML error: its status, Code and Message. */
async function storageError(res: Response) {
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    code: /<Code>([^<]*)<\/Code>/.exec(text)?.[1],
    message: /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? '',
  };
}

const callbackOf = (target: UploadTarget) =>
  JSON.parse(Buffer.from(target.oss_body_param.callback!, 'base64').toString('utf8')) as Record<string, string>;
const withCallback = (target: UploadTarget, change: Record<string, string>) => ({
  ...target.oss_body_param,
  callback: Buffer.from(JSON.stringify({ ...callbackOf(target), ...change })).toString('base64'),
});

describe('upload storage', () => {
  it('takes 1 MB by multipart POST and answers the callback server’s JSON, not the IM envelope', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const target = await chatTarget(a, b.id);
    expect(target.upload_method).toBe('POST');
    expect(target.upload_url.startsWith(emu.url)).toBe(true);
    expect(callbackOf(target)).toEqual({
      callbackUrl: `${emu.url}/_storage/callback`,
      callbackBody: 'bucket=${bucket}&object=${object}&etag=${etag}&size=${size}&mimeType=${mimeType}',
      callbackBodyType: 'application/x-www-form-urlencoded',
    });
    const bytes = randomBytes(1024 * 1024);
    const res = await postFile(target, bytes, 'video/mp4');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('etag')).toMatch(/^"[0-9A-F]{32}"$/);
    const answer = (await res.json()) as Record<string, unknown>;
    expect(answer).toEqual({ Status: 'OK', object: target.oss_body_param.key, size: bytes.length, mimeType: 'video/mp4' });

    const back = await storedAt(target);
    expect(back).toMatchObject({ status: 200, type: 'video/mp4' });
    expect(back.bytes.equals(bytes)).toBe(true);
    // The download URL with the caller's identity redirects to the same bytes.
    const viaService = await fetch(target.download_url, { headers: { app_id: emu.appId, 'access-token': b.token } });
    expect(viaService.redirected).toBe(true);
    expect(Buffer.from(await viaService.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it.each([
    [undefined, 204],
    ['200', 200],
  ])('without a callback answers success_action_status %s with HTTP %i and no body', async (status, expected) => {
    const a = await emu.user();
    const target = await chatTarget(a, a.id);
    const fields = without(target.oss_body_param, 'callback');
    const res = await postFile(target, randomBytes(100), 'image/png', status ? { ...fields, success_action_status: status } : fields);
    expect(res.status).toBe(expected);
    expect(await res.text()).toBe('');
    expect((await storedAt(target)).status).toBe(200);
  });

  it('without a callback and with success_action_status 201 answers the OSS PostResponse XML', async () => {
    const a = await emu.user();
    const target = await chatTarget(a, a.id);
    const res = await postFile(target, randomBytes(100), 'image/png', {
      ...without(target.oss_body_param, 'callback'),
      success_action_status: '201',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/xml');
    const xml = await res.text();
    expect(xml).toContain(`<Key>${target.oss_body_param.key}</Key>`);
    expect(xml).toContain(`<Location>${emu.url}/_storage/object/${target.oss_body_param.key}</Location>`);
  });

  it('refuses a bad signature with an OSS XML error (HTTP 403) and stores nothing', async () => {
    const a = await emu.user();
    const target = await chatTarget(a, a.id);
    const forged = { ...target.oss_body_param, signature: Buffer.alloc(32).toString('base64') };
    expect(await storageError(await postFile(target, randomBytes(2048), undefined, forged))).toMatchObject({
      status: 403,
      type: 'application/xml',
      code: 'SignatureDoesNotMatch',
    });
    expect((await storedAt(target)).status).toBe(404);
  });

  it('refuses a callback to another URL, or one that is not base64 JSON, and stores nothing', async () => {
    const a = await emu.user();
    const target = await chatTarget(a, a.id);
    for (const fields of [
      withCallback(target, { callbackUrl: 'http://127.0.0.1:9/steal' }),
      withCallback(target, { callbackBodyType: 'application/json' }),
      { ...target.oss_body_param, callback: 'not base64 json' },
    ]) {
      const refused = await storageError(await postFile(target, randomBytes(64), undefined, fields));
      expect(refused).toMatchObject({ status: 400, code: 'InvalidArgument' });
    }
    expect((await storedAt(target)).status).toBe(404);
  });

  it('refuses a key that is not the signed one', async () => {
    const a = await emu.user();
    const one = await chatTarget(a, a.id);
    const other = await chatTarget(a, a.id);
    const res = await postFile(one, randomBytes(16), undefined, { ...one.oss_body_param, key: other.oss_body_param.key! });
    expect(await storageError(res)).toMatchObject({ status: 403, code: 'AccessDenied' });
    expect((await storedAt(other)).status).toBe(404);
  });

  it('refuses an expired target', async () => {
    const a = await emu.user();
    const target = await chatTarget(a, a.id);
    now += 2 * 3600_000;
    try {
      const refused = await storageError(await postFile(target, randomBytes(16)));
      expect(refused).toMatchObject({ status: 403, code: 'AccessDenied' });
      expect(refused.message).toContain('expired');
    } finally {
      now -= 2 * 3600_000;
    }
    expect((await storedAt(target)).status).toBe(404);
  });

  it('refuses a form without a file part, and a file sent before the fields', async () => {
    const a = await emu.user();
    const target = await chatTarget(a, a.id);
    const noFile = new FormData();
    for (const [k, v] of Object.entries(target.oss_body_param)) noFile.append(k, v);
    expect(await storageError(await fetch(target.upload_url, { method: 'POST', body: noFile }))).toMatchObject({
      status: 400,
      code: 'MalformedPOSTRequest',
    });

    const fileFirst = new FormData();
    fileFirst.append('file', new Blob([randomBytes(8)]), 'x');
    for (const [k, v] of Object.entries(target.oss_body_param)) fileFirst.append(k, v);
    expect((await storageError(await fetch(target.upload_url, { method: 'POST', body: fileFirst }))).status).toBe(400);
    expect((await storedAt(target)).status).toBe(404);
  });

  it('refuses a body that is not multipart', async () => {
    const a = await emu.user();
    const target = await chatTarget(a, a.id);
    const res = await fetch(target.upload_url, { method: 'POST', body: 'plain', headers: { 'content-type': 'text/plain' } });
    expect(await storageError(res)).toMatchObject({ status: 400, code: 'MalformedPOSTRequest' });
  });

  it('takes a PUT of the raw bytes with the fields in the query: the callback’s JSON, or 200 and no body', async () => {
    const a = await emu.user();
    const target = await chatTarget(a, a.id);
    const bytes = randomBytes(300_000);
    const res = await putFile(target, bytes, target.oss_body_param, 'image/png');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ Status: 'OK', object: target.oss_body_param.key, size: bytes.length, mimeType: 'image/png' });
    const back = await storedAt(target);
    expect(back.type).toBe('image/png');
    expect(back.bytes.equals(bytes)).toBe(true);

    const plain = await chatTarget(a, a.id);
    const quiet = await putFile(plain, bytes, without(plain.oss_body_param, 'callback'));
    expect(quiet.status).toBe(200);
    expect(await quiet.text()).toBe('');

    const unsigned = await chatTarget(a, a.id);
    const refused = await storageError(await putFile(unsigned, bytes, { key: unsigned.oss_body_param.key! }));
    expect(refused).toMatchObject({ status: 400, code: 'InvalidArgument' });
    expect((await storedAt(unsigned)).status).toBe(404);
  });

  it('answers NoSuchKey (404) for an unknown object', async () => {
    expect(await storageError(await fetch(`${emu.url}/_storage/object/chat/nothing`))).toMatchObject({ status: 404, code: 'NoSuchKey' });
  });
});

describe('upload size limit', () => {
  let small: TestEmulator;
  beforeAll(async () => {
    small = await startEmulator({ maxUploadBytes: 1000 });
  });
  afterAll(() => small.stop());

  it('refuses a file over maxUploadBytes with EntityTooLarge and stores nothing, and takes one at the limit', async () => {
    const a = await small.user();
    const target = await chatTarget(a, a.id, small);
    expect(await storageError(await postFile(target, randomBytes(1001)))).toMatchObject({ status: 400, code: 'EntityTooLarge' });
    expect((await storedAt(target, small)).status).toBe(404);
    expect(await storageError(await putFile(target, randomBytes(5000), target.oss_body_param))).toMatchObject({
      status: 400,
      code: 'EntityTooLarge',
    });
    const exact = randomBytes(1000);
    expect((await postFile(target, exact)).status).toBe(200);
    expect((await storedAt(target, small)).bytes.equals(exact)).toBe(true);
  });
});
