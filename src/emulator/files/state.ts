// FileState: stored files and upload targets. Keys say what a file is: chat/<hex> for chat files
// (the key is the file_sign of 6.2), avatar/user/<uid>/<hex> and avatar/group/<gid>/<hex> for
// avatars (the key is the object_name of 6.1). Download URLs point at the storage route.
import { randomBytes } from 'node:crypto';
import type { UploadTarget } from '../../rest/records';
import type { State } from '../state';
import { type SignedFields, UploadSigner } from './signing';
import { kindOfKey, ObjectStore, type StoredObject } from './store';

/** How long an upload target stays valid. */
const UPLOAD_TTL_MS = 3600_000;

export const STORAGE_UPLOAD_PATH = '/_storage/upload';
export const STORAGE_OBJECT_PREFIX = '/_storage/object/';

export class FileState {
  readonly signer = new UploadSigner();
  readonly objects = new ObjectStore();

  constructor(readonly root: State) {}

  /** An upload target for a new key under `prefix` ('chat', 'avatar/user/<id>', ...). */
  target(prefix: string, now: number, baseUrl: string): UploadTarget {
    const key = `${prefix}/${randomBytes(16).toString('hex')}`;
    const fields: SignedFields = this.signer.sign(key, now + UPLOAD_TTL_MS, this.root.options.maxUploadBytes);
    return {
      upload_url: `${baseUrl}${STORAGE_UPLOAD_PATH}`,
      upload_method: 'POST',
      download_url: downloadUrl(baseUrl, key),
      oss_body_param: { ...fields },
    };
  }

  /** An object of the given kind, if stored. */
  find(key: string, kind: StoredObject['kind']): StoredObject | undefined {
    const object = this.objects.get(key);
    return object?.kind === kind ? object : undefined;
  }

  /** A new chat key sharing the bytes of an existing chat file (6.6 forward). */
  forward(object: StoredObject): string {
    const key = `chat/${randomBytes(16).toString('hex')}`;
    this.objects.put(key, object);
    return key;
  }

  store(key: string, chunks: Buffer[], size: number, contentType: string): StoredObject {
    const kind = kindOfKey(key);
    // Keys come from signed policies, which only this module writes.
    if (!kind) throw new Error(`emulator: signed key ${key} has no known kind`);
    const object: StoredObject = { kind, chunks, size, contentType };
    this.objects.put(key, object);
    return object;
  }
}

export const downloadUrl = (baseUrl: string, key: string) => `${baseUrl}${STORAGE_OBJECT_PREFIX}${key}`;
