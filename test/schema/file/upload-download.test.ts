// Files through the gateway: upload targets (6.3-6.5), forwarding (6.6), download URLs of the
// gateway's route (6.1, 6.2), and uploads over the GraphQL multipart request spec, each checked by
// its values, the REST calls the service received, and the bytes read back.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import type { Group, UploadTarget } from '../../../src/rest/records';
import { UploadHostRefused, uploadToTarget } from '../../../src/rest/upload';
import type { TestUser as User } from '../../helpers/emulator';
import { gatewayVia, startStack, useStack } from '../../helpers/stack';
import { type FileToSend, gqlUpload, sha256 } from '../../helpers/multipart-upload';
import { close, listen, startProxy } from '../../helpers/proxy';
import { startScriptedServer } from '../../helpers/scripted-server';

const stack = useStack();

const as = (u: User) => ({ 'access-token': u.token });
const calls = () => stack.emu.server.calls.map((c) => ({ endpoint: c.endpoint, query: c.query, body: c.body }));
const upload = <T>(query: string, variables: Record<string, unknown>, files: FileToSend[], u: User, url = stack.url) =>
  gqlUpload<T>(url, query, variables, files, { app_id: stack.emu.appId, ...as(u) });
const aFile = (bytes: Buffer, name = 'notes.txt', type = 'text/plain'): FileToSend => ({ path: 'variables.file', name, type, data: bytes });

async function groupOf(owner: User): Promise<number> {
  const group = await stack.emu.ok<Group>('POST', '/group/create', { token: owner.token, body: { name: 'files' } });
  return Number(group.group_id);
}

async function download(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Reads a file from the service's own download URL, as its clients do: with the identity, following its redirect to the storage. */
const fromService = (url: string, u: User) => download(url, { app_id: stack.emu.appId, ...as(u) });

/** Reads a file back through the gateway's download route with the user's identity headers. */
const viaRoute = (path: string, u: User) => download(`${stack.url}${path}`, { app_id: stack.emu.appId, ...as(u) });

const TARGET = 'uploadUrl uploadMethod downloadUrl formFields { key value }';
interface TargetOut {
  uploadUrl: string;
  uploadMethod: string;
  downloadUrl: string;
  formFields: { key: string; value: string }[];
}

describe('upload targets', () => {
  it('hands out a fresh user avatar target per field, from GET /file/upload/avatar/user', async () => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ a: TargetOut; b: TargetOut }>(
      `{ a: userAvatarUploadTarget { ${TARGET} } b: userAvatarUploadTarget { ${TARGET} } }`,
      {},
      as(u),
    );
    expect(reply.errors).toBeUndefined();
    const { a, b } = reply.data!;
    expect(a.uploadUrl.startsWith(stack.emu.url)).toBe(true);
    expect(a.uploadMethod).toBe('POST');
    expect(a.formFields.map((f) => f.key)).toEqual(expect.arrayContaining(['key', 'policy', 'signature', 'OSSAccessKeyId']));
    expect(a.formFields.find((f) => f.key === 'key')?.value).toMatch(new RegExp(`^avatar/user/${u.id}/`));
    expect(a.downloadUrl).not.toBe(b.downloadUrl);
    expect(calls()).toEqual([
      { endpoint: 'GET /file/upload/avatar/user', query: {}, body: undefined },
      { endpoint: 'GET /file/upload/avatar/user', query: {}, body: undefined },
    ]);
  });

  it('gives a group avatar target with group_id in the query, and reports an unknown group on that field alone', async () => {
    const u = await stack.emu.user();
    const groupId = await groupOf(u);
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ ok: TargetOut; missing: null }>(
      `query($g: ID!) { ok: groupAvatarUploadTarget(groupId: $g) { downloadUrl formFields { key value } } missing: groupAvatarUploadTarget(groupId: "1") { downloadUrl } }`,
      { g: String(groupId) },
      as(u),
    );
    expect(reply.data?.ok.formFields.find((f) => f.key === 'key')?.value).toMatch(new RegExp(`^avatar/group/${groupId}/`));
    expect(reply.data?.missing).toBeNull();
    expect(reply.errors).toHaveLength(1);
    expect(reply.errors?.[0]).toMatchObject({
      path: ['missing'],
      extensions: { code: 'NOT_FOUND', upstreamCode: 20001, endpoint: 'GET /file/upload/avatar/group' },
    });
    expect(calls().map((c) => c.query)).toEqual([{ group_id: String(groupId) }, { group_id: '1' }]);
  });

  it('gives a chat file target that a client can upload to itself', async () => {
    const [a, b] = [await stack.emu.user(), await stack.emu.user()];
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ chatFileUploadTarget: TargetOut }>(
      `query($to: ID!) { chatFileUploadTarget(fileType: CHAT_IMAGE, toId: $to, toType: USER) { ${TARGET} } }`,
      { to: String(b.id) },
      as(a),
    );
    expect(calls()).toEqual([
      { endpoint: 'GET /file/upload/chat', query: { file_type: '102', to_id: String(b.id), to_type: '1' }, body: undefined },
    ]);
    const target = reply.data!.chatFileUploadTarget;
    const form = new FormData();
    for (const { key, value } of target.formFields) form.append(key, value);
    const bytes = randomBytes(3000);
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'a.png');
    expect((await fetch(target.uploadUrl, { method: target.uploadMethod, body: form })).status).toBe(200);
    expect((await fromService(target.downloadUrl, a)).bytes.equals(bytes)).toBe(true);
  });
});

const CHAT_UPLOAD = `mutation($file: File!, $to: ID!) {
  uploadChatFile(input: { file: $file, fileType: CHAT_FILE, toId: $to }) { ok file { downloadUrl fileKey fileName contentType size } }
}`;
interface UploadedOut {
  downloadUrl: string;
  fileKey: string;
  fileName: string;
  contentType: string;
  size: number;
}

describe('uploadChatFile', () => {
  it('streams the file to a chat upload target and answers where to download it', async () => {
    const [a, b] = [await stack.emu.user(), await stack.emu.user()];
    const bytes = randomBytes(200_000);
    stack.emu.server.resetCalls();
    const reply = await upload<{ uploadChatFile: { ok: boolean; file: UploadedOut } }>(
      CHAT_UPLOAD,
      { file: null, to: String(b.id) },
      [aFile(bytes)],
      a,
    );
    expect(reply.errors).toBeUndefined();
    const { ok, file } = reply.data!.uploadChatFile;
    expect(ok).toBe(true);
    expect(file).toMatchObject({ fileName: 'notes.txt', contentType: 'text/plain', size: bytes.length });
    // The fileKey is the file_sign the download URL carries, not the storage key.
    expect(file.fileKey).toBe(new URL(file.downloadUrl).searchParams.get('file_sign'));
    expect(file.fileKey).not.toMatch(/^chat\//);
    expect(calls()).toEqual([{ endpoint: 'GET /file/upload/chat', query: { file_type: '100', to_id: String(b.id) }, body: undefined }]);
    // Read back from the download URL and through the gateway's route (6.2), byte for byte.
    const direct = await fromService(file.downloadUrl, b);
    expect(direct).toMatchObject({ status: 200, type: 'text/plain' });
    expect(direct.bytes.equals(bytes)).toBe(true);
    const urlReply = await stack.gql<{ chatFileDownloadUrl: string }>(
      'query($s: String!) { chatFileDownloadUrl(fileKey: $s) }',
      { s: file.fileKey },
      as(b),
    );
    const routed = await viaRoute(urlReply.data!.chatFileDownloadUrl, b);
    expect(routed.status).toBe(200);
    expect(sha256(routed.bytes)).toBe(sha256(bytes));
  });

  it('refuses a File given as a JSON value before any REST call', async () => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql(CHAT_UPLOAD, { file: 'not-a-file', to: String(u.id) }, as(u));
    expect(reply.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(reply.errors?.[0]?.message).toContain('multipart');
    expect(stack.emu.server.calls).toHaveLength(0);
  });

  it('runs two upload mutations of one request in order; a failing one drops its file and the next still gets its own', async () => {
    const [a, b] = [await stack.emu.user(), await stack.emu.user()];
    const second = randomBytes(50_000);
    const reply = await gqlUpload<{ bad: null; good: { file: UploadedOut } }>(
      stack.url,
      `mutation($f1: File!, $f2: File!, $to: ID!) {
        bad: uploadGroupAvatar(input: { groupId: "1", file: $f1 }) { ok }
        good: uploadChatFile(input: { file: $f2, fileType: CHAT_FILE, toId: $to }) { file { downloadUrl size } }
      }`,
      { f1: null, f2: null, to: String(b.id) },
      [
        { path: 'variables.f1', name: 'a.png', type: 'image/png', data: randomBytes(80_000) },
        { path: 'variables.f2', name: 'b.bin', type: 'application/octet-stream', data: second },
      ],
      { app_id: stack.emu.appId, ...as(a) },
    );
    expect(reply.data?.bad).toBeNull();
    expect(reply.errors).toHaveLength(1);
    expect(reply.errors?.[0]).toMatchObject({
      path: ['bad'],
      extensions: { code: 'NOT_FOUND', upstreamCode: 20001, endpoint: 'GET /file/upload/avatar/group' },
    });
    expect(reply.data?.good.file.size).toBe(second.length);
    expect((await fromService(reply.data!.good.file.downloadUrl, a)).bytes.equals(second)).toBe(true);
  });

  it('refuses a file over MAX_UPLOAD_BYTES as BAD_USER_INPUT on the file', async () => {
    const small = await startStack({ MAX_UPLOAD_BYTES: '10000' });
    try {
      const [a, b] = [await small.emu.user(), await small.emu.user()];
      const reply = await gqlUpload(small.url, CHAT_UPLOAD, { file: null, to: String(b.id) }, [aFile(randomBytes(50_000))], {
        app_id: small.emu.appId,
        ...as(a),
      });
      expect(reply.errors?.[0]).toMatchObject({ path: ['uploadChatFile'], extensions: { code: 'BAD_USER_INPUT', field: 'input.file' } });
      expect(reply.errors?.[0]?.message).toContain('10000');
      // The connection and the gateway stay usable.
      const again = await gqlUpload<{ uploadChatFile: { ok: boolean } }>(
        small.url,
        CHAT_UPLOAD,
        { file: null, to: String(b.id) },
        [aFile(randomBytes(500))],
        {
          app_id: small.emu.appId,
          ...as(a),
        },
      );
      expect(again.data?.uploadChatFile.ok).toBe(true);
    } finally {
      await small.stop();
    }
  });
});

describe('uploadUserAvatar', () => {
  it('with setAsAvatar, uploads and sets the avatar with PUT /user/avatar; the user reads it back', async () => {
    const u = await stack.emu.user();
    const bytes = randomBytes(10_000);
    stack.emu.server.resetCalls();
    const reply = await upload<{ uploadUserAvatar: { ok: boolean; avatarSet: boolean; file: UploadedOut; user: { avatar: string } } }>(
      'mutation($file: File!) { uploadUserAvatar(input: { file: $file, setAsAvatar: true }) { ok avatarSet file { downloadUrl fileKey } user { avatar } } }',
      { file: null },
      [aFile(bytes, 'me.jpg', 'image/jpeg')],
      u,
    );
    expect(reply.errors).toBeUndefined();
    const out = reply.data!.uploadUserAvatar;
    expect(out).toMatchObject({ ok: true, avatarSet: true, user: { avatar: out.file.downloadUrl } });
    expect(calls()).toEqual([
      { endpoint: 'GET /file/upload/avatar/user', query: {}, body: undefined },
      { endpoint: 'PUT /user/avatar', query: {}, body: { avatar: out.file.downloadUrl } },
      { endpoint: 'GET /user/profile', query: {}, body: undefined },
    ]);
    const avatarUrl = await stack.gql<{ avatarDownloadUrl: string }>(
      'query($o: String!) { avatarDownloadUrl(fileKey: $o) }',
      { o: out.file.fileKey },
      as(u),
    );
    const routed = await viaRoute(avatarUrl.data!.avatarDownloadUrl, u);
    expect(routed).toMatchObject({ status: 200, type: 'image/jpeg' });
    expect(routed.bytes.equals(bytes)).toBe(true);
  });

  it('without setAsAvatar makes only the target call and leaves the avatar alone', async () => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await upload<{ uploadUserAvatar: { ok: boolean; avatarSet: boolean } }>(
      'mutation($file: File!) { uploadUserAvatar(input: { file: $file }) { ok avatarSet } }',
      { file: null },
      [aFile(randomBytes(100), 'x.png', 'image/png')],
      u,
    );
    expect(reply.data?.uploadUserAvatar).toEqual({ ok: true, avatarSet: false });
    expect(calls().map((c) => c.endpoint)).toEqual(['GET /file/upload/avatar/user']);
  });
});

describe('uploadGroupAvatar', () => {
  it('with setAsAvatar, sets the group avatar with PUT /group/info/avatar', async () => {
    const u = await stack.emu.user();
    const groupId = await groupOf(u);
    stack.emu.server.resetCalls();
    const reply = await upload<{
      uploadGroupAvatar: { ok: boolean; avatarSet: boolean; file: UploadedOut; group: { id: string; avatar: string } };
    }>(
      'mutation($g: ID!, $file: File!) { uploadGroupAvatar(input: { groupId: $g, file: $file, setAsAvatar: true }) { ok avatarSet file { downloadUrl } group { id avatar } } }',
      { g: String(groupId), file: null },
      [aFile(randomBytes(4000), 'g.png', 'image/png')],
      u,
    );
    expect(reply.errors).toBeUndefined();
    const out = reply.data!.uploadGroupAvatar;
    expect(out).toMatchObject({ ok: true, avatarSet: true, group: { id: String(groupId), avatar: out.file.downloadUrl } });
    expect(calls().slice(0, 2)).toEqual([
      { endpoint: 'GET /file/upload/avatar/group', query: { group_id: String(groupId) }, body: undefined },
      { endpoint: 'PUT /group/info/avatar', query: {}, body: { group_id: groupId, value: out.file.downloadUrl } },
    ]);
  });
});

describe('uploadGroupFile', () => {
  const GROUP_FILE = `mutation($g: ID!, $file: File!, $name: String) {
    uploadGroupFile(input: { groupId: $g, file: $file, name: $name }) { ok file { downloadUrl size } sharedFile { id name size type url } }
  }`;

  it('picks the shared file type by MIME, uploads, and records the shared file with POST /group/file/upload', async () => {
    const u = await stack.emu.user();
    const groupId = await groupOf(u);
    const bytes = randomBytes(7000);
    stack.emu.server.resetCalls();
    const reply = await upload<{
      uploadGroupFile: {
        ok: boolean;
        file: UploadedOut;
        sharedFile: { id: string; name: string; size: number; type: string; url: string };
      };
    }>(GROUP_FILE, { g: String(groupId), file: null }, [aFile(bytes, 'holiday.png', 'image/png')], u);
    expect(reply.errors).toBeUndefined();
    const { file, sharedFile } = reply.data!.uploadGroupFile;
    expect(sharedFile).toMatchObject({ name: 'holiday.png', size: bytes.length, type: 'image/png', url: file.downloadUrl });
    expect(calls()).toEqual([
      { endpoint: 'GET /file/upload/chat', query: { file_type: '202', to_id: String(groupId), to_type: '2' }, body: undefined },
      {
        endpoint: 'POST /group/file/upload',
        query: {},
        body: { group_id: groupId, name: 'holiday.png', size: bytes.length, url: file.downloadUrl, type: 'image/png' },
      },
    ]);
    // The state read back: the group lists the file, and its URL serves the bytes.
    const listed = await stack.emu.ok<{ file_id: number; name: string }[]>('GET', '/group/file/list', {
      token: u.token,
      query: { group_id: groupId },
    });
    expect(listed.map((f) => [String(f.file_id), f.name])).toContainEqual([sharedFile.id, 'holiday.png']);
    expect((await fromService(sharedFile.url, u)).bytes.equals(bytes)).toBe(true);
  });

  it.each([
    ['video/mp4', '203'],
    ['audio/mpeg', '201'],
    ['application/pdf', '200'],
  ])('asks for a %s file with file_type %s and takes the given name', async (type, fileType) => {
    const u = await stack.emu.user();
    const groupId = await groupOf(u);
    stack.emu.server.resetCalls();
    const reply = await upload<{ uploadGroupFile: { sharedFile: { name: string } } }>(
      GROUP_FILE,
      { g: String(groupId), file: null, name: 'Renamed' },
      [aFile(randomBytes(100), 'x', type)],
      u,
    );
    expect(reply.data?.uploadGroupFile.sharedFile.name).toBe('Renamed');
    expect(stack.emu.server.calls[0]?.query.file_type).toBe(fileType);
  });

  it('refuses an empty name before any REST call, and the request still completes', async () => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await upload(GROUP_FILE, { g: '1', file: null, name: '' }, [aFile(randomBytes(300_000))], u);
    expect(reply.status).toBe(200);
    expect(reply.errors?.[0]).toMatchObject({ path: ['uploadGroupFile'], extensions: { code: 'BAD_USER_INPUT', field: 'input.name' } });
    expect(stack.emu.server.calls).toHaveLength(0);
  });
});

describe('forwardChatFile', () => {
  it('answers the address of a forwarded copy from GET /file/upload/forward', async () => {
    const [a, b] = [await stack.emu.user(), await stack.emu.user()];
    const bytes = randomBytes(1000);
    const sent = await upload<{ uploadChatFile: { file: UploadedOut } }>(CHAT_UPLOAD, { file: null, to: String(b.id) }, [aFile(bytes)], a);
    const fileSign = sent.data!.uploadChatFile.file.fileKey;
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ forwardChatFile: { url: string } }>(
      'mutation($s: String!, $to: ID!) { forwardChatFile(input: { fileKey: $s, toId: $to, toType: USER }) { url } }',
      { s: fileSign, to: String(b.id) },
      as(a),
    );
    expect(calls()).toEqual([
      { endpoint: 'GET /file/upload/forward', query: { file_sign: fileSign, to_id: String(b.id), to_type: '1' }, body: undefined },
    ]);
    const url = reply.data!.forwardChatFile.url;
    expect(url).not.toBe(sent.data!.uploadChatFile.file.downloadUrl);
    expect((await fromService(url, b)).bytes.equals(bytes)).toBe(true);
  });

  it('takes a download URL as the fileKey and forwards by the sign it carries, never by the storage key', async () => {
    const [a, b] = [await stack.emu.user(), await stack.emu.user()];
    const bytes = randomBytes(700);
    const target = await stack.emu.ok<UploadTarget>('GET', '/file/upload/chat', { token: a.token, query: { file_type: 100, to_id: b.id } });
    expect(
      (await uploadToTarget(target, { stream: Readable.from([bytes]), filename: 'x', mimeType: 'text/plain' }, uploadOptions())).size,
    ).toBe(bytes.length);
    const sign = new URL(target.download_url).searchParams.get('file_sign')!;
    stack.emu.server.resetCalls();
    const FORWARD = 'mutation($s: String!, $to: ID!) { forwardChatFile(input: { fileKey: $s, toId: $to }) { url } }';
    const byUrl = await stack.gql<{ forwardChatFile: { url: string } }>(FORWARD, { s: target.download_url, to: String(b.id) }, as(a));
    expect(byUrl.errors).toBeUndefined();
    expect(calls()[0]?.query.file_sign).toBe(sign);
    expect((await fromService(byUrl.data!.forwardChatFile.url, b)).bytes.equals(bytes)).toBe(true);
    // The forwarded copy's own URL forwards again.
    const again = await stack.gql<{ forwardChatFile: { url: string } }>(
      FORWARD,
      { s: byUrl.data!.forwardChatFile.url, to: String(a.id) },
      as(b),
    );
    expect((await fromService(again.data!.forwardChatFile.url, a)).bytes.equals(bytes)).toBe(true);
    // A client that takes the storage key for the file_sign is refused by the service.
    const byKey = await stack.gql(FORWARD, { s: target.oss_body_param.key, to: String(b.id) }, as(a));
    expect(byKey.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      upstreamCode: 10002,
      endpoint: 'GET /file/upload/forward',
    });
  });

  it('refuses an empty fileKey before any REST call, and reports an unknown one with the upstream code', async () => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const empty = await stack.gql('mutation { forwardChatFile(input: { fileKey: "", toId: "1" }) { ok } }', {}, as(u));
    expect(empty.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.fileKey' });
    expect(stack.emu.server.calls).toHaveLength(0);
    const unknown = await stack.gql(
      'mutation($to: ID!) { forwardChatFile(input: { fileKey: "chat/nothing", toId: $to }) { ok } }',
      { to: String(u.id) },
      as(u),
    );
    expect(unknown.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      upstreamCode: 10002,
      endpoint: 'GET /file/upload/forward',
    });
  });
});

describe('download URL fields', () => {
  it('build route paths with the options as wire codes, and make no REST call', async () => {
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ a: string; c: string }>(
      `{ a: avatarDownloadUrl(fileKey: "avatar/user/1/ab", imageType: THUMBNAIL, width: 100, height: 50.5, thumbnailStrategy: LOCAL)
         c: chatFileDownloadUrl(fileKey: "chat/x y", format: MP3, source: "miniprogram", storeToken: "st") }`,
    );
    expect(reply.data).toEqual({
      a: '/files/avatar?objectName=avatar%2Fuser%2F1%2Fab&imageType=2&w=100&h=50.5&thumbnailStrategy=2',
      c: '/files/chat?fileSign=chat%2Fx+y&format=mp3&source=miniprogram&storeToken=st',
    });
    expect(stack.emu.server.calls).toHaveLength(0);
  });

  it('take a download URL for the fileKey, naming the file by the sign or object name it carries', async () => {
    const reply = await stack.gql<{ c: string; a: string; plain: string }>(
      `{ c: chatFileDownloadUrl(fileKey: "https://im.example/file/download/chat?file_sign=Ab+c_d") plain: chatFileDownloadUrl(fileKey: "Ab+c_d")
         a: avatarDownloadUrl(fileKey: "https://im.example/file/download/avatar?object_name=avatar%2Fuser%2F1%2Fab") }`,
    );
    expect(reply.data).toEqual({
      c: '/files/chat?fileSign=Ab%2Bc_d',
      plain: '/files/chat?fileSign=Ab%2Bc_d',
      a: '/files/avatar?objectName=avatar%2Fuser%2F1%2Fab',
    });
  });

  it("with withToken, carry the caller's identity for image tags", async () => {
    const reply = await stack.gql<{ chatFileDownloadUrl: string }>(
      '{ chatFileDownloadUrl(fileKey: "s", withToken: true) }',
      {},
      stack.asUser(42),
    );
    const url = new URL(reply.data!.chatFileDownloadUrl, 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      fileSign: 's',
      'access-token': stack.emu.adminToken,
      app_id: stack.emu.appId,
      user_id: '42',
    });
  });

  it.each([
    ['an empty object name', '{ avatarDownloadUrl(fileKey: "") }', 'fileKey'],
    ['a zero width', '{ avatarDownloadUrl(fileKey: "a", width: 0) }', 'width'],
    ['a negative height', '{ chatFileDownloadUrl(fileKey: "a", height: -1) }', 'height'],
  ])('refuse %s', async (_what, query, field) => {
    const reply = await stack.gql(query);
    expect(reply.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
  });
});

// ---- upload hosts: the gateway speaks to the IM service through a proxy, so the emulator's own
// upload_url is on another host than the gateway's IM_BASE_URL.

describe('upload hosts', () => {
  it('refuses an upload target on a foreign host as FORBIDDEN without sending it anything', async () => {
    let trapped = 0;
    const trap = await listen((req, res) => {
      trapped++;
      req.resume();
      res.end();
    });
    const proxy = await startProxy(stack.emu.url, trap.url);
    const { gateway, url } = await gatewayVia(proxy.url);
    try {
      const [a, b] = [await stack.emu.user(), await stack.emu.user()];
      stack.emu.server.resetCalls();
      const reply = await upload(CHAT_UPLOAD, { file: null, to: String(b.id) }, [aFile(randomBytes(20_000))], a, url);
      expect(reply.errors?.[0]).toMatchObject({
        path: ['uploadChatFile'],
        extensions: { code: 'FORBIDDEN', uploadHost: new URL(trap.url).host },
      });
      expect(trapped).toBe(0);
      expect(stack.emu.server.calls.map((c) => c.endpoint)).toEqual(['GET /file/upload/chat']);
    } finally {
      await gateway.stop();
      await close(proxy.server);
      await close(trap.server);
    }
  });

  it('sends to a host listed in UPLOAD_HOSTS', async () => {
    const proxy = await startProxy(stack.emu.url);
    const host = new URL(stack.emu.url).host;
    const refusing = await gatewayVia(proxy.url);
    const allowing = await gatewayVia(proxy.url, { UPLOAD_HOSTS: `example.org,${host}` });
    try {
      const [a, b] = [await stack.emu.user(), await stack.emu.user()];
      const bytes = randomBytes(5000);
      const refused = await upload(CHAT_UPLOAD, { file: null, to: String(b.id) }, [aFile(bytes)], a, refusing.url);
      expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const reply = await upload<{ uploadChatFile: { file: UploadedOut } }>(
        CHAT_UPLOAD,
        { file: null, to: String(b.id) },
        [aFile(bytes)],
        a,
        allowing.url,
      );
      expect(reply.errors).toBeUndefined();
      expect((await fromService(reply.data!.uploadChatFile.file.downloadUrl, b)).bytes.equals(bytes)).toBe(true);
    } finally {
      await refusing.gateway.stop();
      await allowing.gateway.stop();
      await close(proxy.server);
    }
  });
});

const uploadOptions = () => ({ imBaseUrl: stack.emu.url, uploadHosts: [], maxBytes: 1024 * 1024 });

describe('uploadToTarget (the REST layer under the upload mutations)', () => {
  const options = uploadOptions;
  const source = (bytes: Buffer, mimeType = 'application/pdf') => ({ stream: Readable.from([bytes]), filename: 'a.pdf', mimeType });

  it('PUTs the raw bytes with the form fields in the query when the target says PUT', async () => {
    const u = await stack.emu.user();
    const target = await stack.emu.ok<UploadTarget>('GET', '/file/upload/chat', { token: u.token, query: { file_type: 100, to_id: u.id } });
    const bytes = randomBytes(4096);
    expect(await uploadToTarget({ ...target, upload_method: 'PUT' }, source(bytes), options())).toEqual({ size: bytes.length });
    const back = await fromService(target.download_url, u);
    expect(back.type).toBe('application/pdf');
    expect(back.bytes.equals(bytes)).toBe(true);
  });

  it("reports the storage's refusal as an UpstreamError of the upload", async () => {
    const u = await stack.emu.user();
    const target = await stack.emu.ok<UploadTarget>('GET', '/file/upload/avatar/user', { token: u.token });
    const forged = { ...target, oss_body_param: { ...target.oss_body_param, signature: 'AAAA' } };
    const err = await uploadToTarget(forged, source(randomBytes(100)), options()).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'UpstreamError', endpoint: 'POST upload_url', kind: 'http', httpStatus: 403 });
    expect((err as { upstreamMessage: string }).upstreamMessage).toMatch(/^SignatureDoesNotMatch: /);
    expect((err as { code?: number }).code).toBeUndefined();
  });

  it('refuses a target that is not http(s) without sending anything', async () => {
    const u = await stack.emu.user();
    const target = await stack.emu.ok<UploadTarget>('GET', '/file/upload/avatar/user', { token: u.token });
    await expect(uploadToTarget({ ...target, upload_url: 'file:///etc/passwd' }, source(randomBytes(1)), options())).rejects.toBeInstanceOf(
      UploadHostRefused,
    );
  });
});

describe('the storage’s own answers to an upload', () => {
  it('takes any 2xx but 203 as success whatever its body (the IM envelope is not looked for), and 203 CallbackFailed as a failure', async () => {
    const storage = await startScriptedServer(() => undefined);
    const target: UploadTarget = {
      upload_url: `${storage.url}/upload`,
      upload_method: 'POST',
      download_url: `${storage.url}/file/download/chat?file_sign=s`,
      oss_body_param: { key: 'k' },
    };
    const send = () =>
      uploadToTarget(
        target,
        { stream: Readable.from([randomBytes(10)]), filename: 'f', mimeType: 'text/plain' },
        {
          imBaseUrl: storage.url,
          uploadHosts: [],
          maxBytes: 1000,
        },
      );
    try {
      for (const answer of [
        { status: 204, body: '' },
        { status: 200, body: '' },
        { status: 201, headers: { 'content-type': 'application/xml' }, body: '<PostResponse><Key>k</Key></PostResponse>' },
        { status: 200, body: { Status: 'OK' } },
        { status: 200, body: { code: 10010, data: null, message: 'a callback server that answers its own way' } },
      ]) {
        storage.setScript(() => answer);
        expect(await send()).toEqual({ size: 10 });
      }
      storage.setScript(() => ({
        status: 203,
        headers: { 'content-type': 'application/xml' },
        body: '<Error><Code>CallbackFailed</Code><Message>Error status : 502.</Message></Error>',
      }));
      await expect(send()).rejects.toMatchObject({ kind: 'http', httpStatus: 203, upstreamMessage: 'CallbackFailed: Error status : 502.' });
    } finally {
      await storage.close();
    }
  });
});

describe('downloads the service redirects to its storage', () => {
  /** A proxy in front of the service that passes every answer on as it is (redirects included). */
  const passThrough = (target: string) =>
    listen((req, res) => {
      const upstream = request(
        `${target}${req.url}`,
        { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          void pipeline(answer, res).catch(() => undefined);
        },
      );
      void pipeline(req, upstream).catch(() => undefined);
    });

  it('streams the bytes from a storage host in UPLOAD_HOSTS, and passes a redirect to any other host on untouched', async () => {
    // Through the proxy the service is on another host than its storage (the emulator's own).
    const proxy = await passThrough(stack.emu.url);
    const storageHost = new URL(stack.emu.url).host;
    const following = await gatewayVia(proxy.url, { UPLOAD_HOSTS: storageHost });
    const passing = await gatewayVia(proxy.url);
    try {
      const u = await stack.emu.user();
      const bytes = randomBytes(100_000);
      const target = await stack.emu.ok<UploadTarget>('GET', '/file/upload/chat', {
        token: u.token,
        query: { file_type: 102, to_id: u.id },
      });
      await uploadToTarget(target, { stream: Readable.from([bytes]), filename: 'p.png', mimeType: 'image/png' }, uploadOptions());
      const path = `/files/chat?fileSign=${encodeURIComponent(new URL(target.download_url).searchParams.get('file_sign')!)}`;
      const headers = { app_id: stack.emu.appId, ...as(u) };

      const streamed = await fetch(`${following.url}${path}`, { headers, redirect: 'manual' });
      expect(streamed.status).toBe(200);
      expect(streamed.headers.get('content-type')).toBe('image/png');
      expect(streamed.headers.get('location')).toBeNull();
      expect(Buffer.from(await streamed.arrayBuffer()).equals(bytes)).toBe(true);

      const passed = await fetch(`${passing.url}${path}`, { headers, redirect: 'manual' });
      expect(passed.status).toBe(302);
      expect(passed.headers.get('location')).toBe(`${stack.emu.url}/_storage/object/${target.oss_body_param.key}`);
      await passed.arrayBuffer();
    } finally {
      await following.gateway.stop();
      await passing.gateway.stop();
      await close(proxy.server);
    }
  });
});
