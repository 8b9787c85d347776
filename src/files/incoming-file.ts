// One file of a GraphQL multipart request as resolvers see it: the value of a `File` argument,
// whose bytes arrive as a stream of the request body. The multipart reader (gateway/http/multipart.ts)
// creates and feeds these; the schema only opens them. Kept below both, so neither imports upward.
import type { Readable } from 'node:stream';
import { GatewayError } from '../rest/errors';

/** What a file needs of the multipart request it belongs to. */
interface UploadQueue {
  /** A resolver waits for `file`: earlier files that arrived unclaimed are in the way. */
  waitingFor(file: IncomingFile): void;
}

export interface FilePart {
  filename: string;
  mimeType: string;
  /** The bytes as they arrive. Read it to its end, or call IncomingFile.discard(). */
  stream: Readable;
}

/** A file argument's failure: the client's request is at fault, on its `file` field. */
export const fileError = (message: string) => new GatewayError(message, 'BAD_USER_INPUT', 'file');

/** One file of a multipart request: the value a `File` argument resolves to. */
export class IncomingFile {
  private part?: FilePart;
  private claimed = false;
  private dropped = false;
  private readonly arrived: Promise<FilePart>;
  private settle!: { resolve: (part: FilePart) => void; reject: (err: Error) => void };

  constructor(
    private readonly session: UploadQueue,
    /** The multipart field (the key of `map`) that carries the file. */
    readonly field: string,
  ) {
    this.arrived = new Promise<FilePart>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // A file nobody opens may fail unobserved.
    this.arrived.catch(() => undefined);
  }

  get isArrived(): boolean {
    return this.part !== undefined;
  }

  get isClaimed(): boolean {
    return this.claimed;
  }

  /** Waits for the file's part; a file can be opened once. */
  open(): Promise<FilePart> {
    if (this.dropped) return Promise.reject(fileError(`file ${this.field} was skipped: files must be used in the order they are sent`));
    if (this.claimed) return Promise.reject(fileError(`file ${this.field} is used by more than one argument`));
    this.claimed = true;
    if (!this.part) this.session.waitingFor(this);
    return this.arrived;
  }

  /** Drops the file's bytes (now, or when its part arrives), so that the body can move on. */
  discard(): void {
    this.claimed = true;
    if (this.part) this.part.stream.resume();
    else
      void this.arrived.then(
        (p) => p.stream.resume(),
        () => undefined,
      );
  }

  /** Drops an unclaimed file for the order rule; opening it later fails. */
  skip(): void {
    if (this.claimed) return;
    this.dropped = true;
    this.discard();
  }

  attach(part: FilePart): void {
    // Whoever reads the stream sees its errors through the read; unread, an error must not crash.
    part.stream.on('error', () => undefined);
    this.part = part;
    this.settle.resolve(part);
  }

  fail(err: Error): void {
    if (this.part) this.part.stream.destroy(err);
    else this.settle.reject(err);
  }
}
