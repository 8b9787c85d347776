// Reading upstream response bodies without trusting their size. Every path ends with the body
// either read to its end or destroyed, so its socket goes back to the pool or is closed.
import { Readable } from 'node:stream';

/**
 * How much of a body too large to read whole is kept: a reader may recover what precedes its
 * large part (a page of history: the one message that is too large, by its ID; src/schema/message/oversized.ts).
 */
export const HEAD_BYTES = 64 * 1024;

export class BodyTooLarge extends Error {
  constructor(
    readonly limit: number,
    /** The body's first bytes (up to HEAD_BYTES) as UTF-8, when they were read. */
    readonly head?: string,
  ) {
    super(`body larger than ${limit} bytes`);
  }
}

/** The first HEAD_BYTES of the chunks read, as UTF-8 (a character cut at the end decodes as U+FFFD). */
export const headOf = (chunks: readonly Buffer[]): string => Buffer.concat(chunks).subarray(0, HEAD_BYTES).toString('utf8');

function declaredLength(headers: Record<string, string | string[] | undefined>): number | undefined {
  const raw = headers['content-length'];
  const value = typeof raw === 'string' ? Number(raw) : NaN;
  return Number.isSafeInteger(value) ? value : undefined;
}

/** Reads the whole body as UTF-8, or destroys it and throws BodyTooLarge past `limit` bytes. */
export async function readText(body: Readable, headers: Record<string, string | string[] | undefined>, limit: number): Promise<string> {
  const declared = declaredLength(headers);
  if (declared !== undefined && declared > limit) {
    body.destroy();
    throw new BodyTooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw new BodyTooLarge(limit);
      chunks.push(chunk);
    }
  } finally {
    // Leaving the loop early (an error, the limit) must not leave the socket half-read.
    if (!body.readableEnded) body.destroy();
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

type Peeked = { complete: true; bytes: Buffer } | { complete: false; stream: Readable };

/**
 * Looks at up to `limit` bytes of a body. A body that ends within them comes back whole; a longer
 * one comes back as a stream that yields the bytes already read and then the rest, unbuffered.
 */
export async function peek(body: Readable, limit: number): Promise<Peeked> {
  const iterator = (body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let size = 0;
  try {
    while (size <= limit) {
      const step = await iterator.next();
      if (step.done) return { complete: true, bytes: Buffer.concat(head, size) };
      head.push(step.value);
      size += step.value.length;
    }
  } catch (err) {
    body.destroy();
    throw err;
  }
  async function* rest(): AsyncGenerator<Buffer> {
    yield* head;
    for (let step = await iterator.next(); !step.done; step = await iterator.next()) yield step.value;
  }
  const stream = Readable.from(rest(), { objectMode: false });
  // The consumer destroyed the stream early (even before reading), or it failed: release the
  // upstream socket too.
  stream.once('close', () => {
    if (!body.readableEnded) body.destroy();
  });
  return { complete: false, stream };
}
