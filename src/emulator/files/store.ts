// Stored files: the bytes as they arrived (chunks, never concatenated) with their content type.
// A forwarded copy shares the chunks of its original.
import { Readable } from 'node:stream';

type ObjectKind = 'chat' | 'avatar';

export interface StoredObject {
  readonly kind: ObjectKind;
  readonly chunks: readonly Buffer[];
  readonly size: number;
  readonly contentType: string;
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
}

/** The object's bytes as a stream: served chunk by chunk, with backpressure. */
export const streamOf = (object: StoredObject): Readable => Readable.from(object.chunks);
