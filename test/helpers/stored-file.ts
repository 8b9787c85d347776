// A file put in the service's storage the way a client does: ask for an upload target, post the form.
import { expect } from 'vitest';
import { fileKeyOf } from '../../src/files/file-keys';
import type { UploadTarget } from '../../src/rest/records';
import type { TestEmulator } from './emulator';

type User = Awaited<ReturnType<TestEmulator['user']>>;

/**
 * Stores `bytes` with content type `type` as a chat file or an avatar of `u`; answers what names the
 * file to the service: a chat file's file_sign (the sign its download URL carries), an avatar's object_name.
 */
export async function storedFile(emu: TestEmulator, u: User, kind: 'chat' | 'avatar', bytes: Buffer, type: string): Promise<string> {
  const target =
    kind === 'chat'
      ? await emu.ok<UploadTarget>('GET', '/file/upload/chat', { token: u.token, query: { file_type: 102, to_id: u.id } })
      : await emu.ok<UploadTarget>('GET', '/file/upload/avatar/user', { token: u.token });
  const form = new FormData();
  for (const [k, v] of Object.entries(target.oss_body_param)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), 'f');
  expect((await fetch(target.upload_url, { method: 'POST', body: form })).status).toBe(200);
  return fileKeyOf(target)!;
}
