// FileState: stored files and upload targets. Keys say what a file is: chat/<hex> for chat files,
// avatar/user/<uid>/<hex> and avatar/group/<gid>/<hex> for avatars (the key is the object_name of
// 6.1). A chat file is named to the service by its file_sign (6.2, 6.6), an HMAC of its key, never
// the key itself. Download URLs are the service's own (6.1, 6.2, which redirect to the storage);
// the storage URL of an object is /_storage/object/<key>.
import { randomBytes } from 'node:crypto';
import type { UploadTarget } from '../../rest/records';
import type { EmulatorOptions } from '../options';
import { callbackParam } from './callback';
import { UploadSigner } from './signing';
import { etagOf, kindOfKey, ObjectStore, type StoredObject } from './store';

/** How long an upload target stays valid. */
const UPLOAD_TTL_MS = 3600_000;

export const STORAGE_UPLOAD_PATH = '/_storage/upload';
export const STORAGE_OBJECT_PREFIX = '/_storage/object/';

/** A stored chat file found by its file_sign. */
interface SignedFile {
  key: string;
  object: StoredObject;
}

export class FileState {
  readonly signer = new UploadSigner();
  readonly objects = new ObjectStore();
  /** file_sign → key, for every chat file stored (uploaded or forwarded). */
  private readonly signs = new Map<string, string>();

  constructor(readonly root: { readonly options: EmulatorOptions }) {}

  /** An upload target for a new key under `prefix` ('chat', 'avatar/user/<id>', ...). */
  target(prefix: string, now: number, baseUrl: string): UploadTarget {
    const key = `${prefix}/${randomBytes(16).toString('hex')}`;
    const fields = this.signer.sign(key, now + UPLOAD_TTL_MS, this.root.options.maxUploadBytes, callbackParam(baseUrl));
    return {
      upload_url: `${baseUrl}${STORAGE_UPLOAD_PATH}`,
      upload_method: 'POST',
      download_url: this.downloadUrl(baseUrl, key),
      oss_body_param: { ...fields },
    };
  }

  /**
   * The service's download URL of a key: 6.2 with the file_sign for a chat file, 6.1 with the
   * object_name for an avatar. The sign is the URL's last value, as the web SDK reads it (the text
   * after `sign=`).
   */
  downloadUrl(baseUrl: string, key: string): string {
    return kindOfKey(key) === 'chat'
      ? `${baseUrl}/file/download/chat?file_sign=${this.signer.fileSign(key)}`
      : `${baseUrl}/file/download/avatar?object_name=${encodeURIComponent(key)}`;
  }

  /** An avatar by its key (object_name), if stored. */
  avatar(key: string): StoredObject | undefined {
    const object = this.objects.get(key);
    return object?.kind === 'avatar' ? object : undefined;
  }

  /** A chat file by its file_sign, if stored. */
  bySign(fileSign: string): SignedFile | undefined {
    const key = this.signs.get(fileSign);
    const object = key === undefined ? undefined : this.objects.get(key);
    return key !== undefined && object ? { key, object } : undefined;
  }

  /** A new chat key sharing the bytes of an existing chat file (6.6 forward); answers the key. */
  forward(object: StoredObject): string {
    const key = `chat/${randomBytes(16).toString('hex')}`;
    this.put(key, object);
    return key;
  }

  store(key: string, chunks: Buffer[], size: number, contentType: string): StoredObject {
    const kind = kindOfKey(key);
    // Keys come from signed policies, which only this module writes.
    if (!kind) throw new Error(`emulator: signed key ${key} has no known kind`);
    const object: StoredObject = { kind, chunks, size, contentType, etag: etagOf(chunks) };
    this.put(key, object);
    return object;
  }

  private put(key: string, object: StoredObject): void {
    this.objects.put(key, object);
    if (object.kind === 'chat') this.signs.set(this.signer.fileSign(key), key);
  }
}

/** Where the storage serves an object's bytes (no token: the unguessable key is the capability). */
export const storageUrl = (baseUrl: string, key: string) => `${baseUrl}${STORAGE_OBJECT_PREFIX}${key}`;
