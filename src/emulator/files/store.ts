// Stored files: the bytes as they arrived (chunks, never concatenated) with their content type.
// A forwarded copy shares the chunks of its original.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

type ObjectKind = 'chat' | 'avatar';

export interface StoredObject {
  readonly kind: ObjectKind;
  readonly chunks: readonly Buffer[];
  readonly size: number;
  readonly contentType: string;
  /** As OSS gives it for a simple upload: the MD5 of the bytes, upper-case hex, in quotes. */
  readonly etag: string;
}

export const kindOfKey = (key: string): ObjectKind | undefined =>
  key.startsWith('chat/') ? 'chat' : key.startsWith('avatar/') ? 'avatar' : undefined;

export class ObjectStore {
  private readonly objects = new Map<string, StoredObject>();

  /** Uploading to a key again replaces its bytes (a retried upload is harmless). */
  put(key: string, object: StoredObject): void {
    this.objects.set(key, object);
  }

  get(key: string): StoredObject | undefined {
    return this.objects.get(key);
  }

  /** How many keys are stored (forwarded copies count: each has its own key). */
  get size(): number {
    return this.objects.size;
  }
}

export function etagOf(chunks: readonly Buffer[]): string {
  const md5 = createHash('md5');
  for (const chunk of chunks) md5.update(chunk);
  return `"${md5.digest('hex').toUpperCase()}"`;
}

/** The object's bytes as a stream: served chunk by chunk, with backpressure. */
export const streamOf = (object: StoredObject): Readable => Readable.from(object.chunks);
