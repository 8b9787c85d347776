// GraphQL multipart requests written by hand (the file parts are streamed from any byte source),
// and whole-body reads with a hash, for the file tests.
import { createHash, randomBytes } from 'node:crypto';
import type { GqlReply } from './stack';

export interface FileToSend {
  /** Where the file goes in `variables` (e.g. 'variables.file'). */
  path: string;
  name: string;
  type: string;
  data: Buffer | AsyncIterable<Buffer>;
}

/** The multipart body: operations, map, then each file part, in that order (as the spec requires). */
async function* multipart(
  boundary: string,
  query: string,
  variables: Record<string, unknown>,
  files: FileToSend[],
): AsyncGenerator<Buffer> {
  const map = Object.fromEntries(files.map((f, i) => [String(i), [f.path]]));
  const field = (name: string, value: string) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  yield field('operations', JSON.stringify({ query, variables }));
  yield field('map', JSON.stringify(map));
  for (const [i, file] of files.entries()) {
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${i}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    );
    if (Buffer.isBuffer(file.data)) yield file.data;
    else yield* file.data;
    yield Buffer.from('\r\n');
  }
  yield Buffer.from(`--${boundary}--\r\n`);
}

/** Sends a GraphQL multipart request to the gateway over HTTP; the file variables are set to null. */
export async function gqlUpload<T = Record<string, unknown>>(
  gatewayUrl: string,
  query: string,
  variables: Record<string, unknown>,
  files: FileToSend[],
  headers: Record<string, string>,
): Promise<GqlReply<T> & { status: number }> {
  const boundary = `test-${randomBytes(8).toString('hex')}`;
  const res = await fetch(`${gatewayUrl}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'x-graphql-yoga-csrf': 'upload',
      accept: 'application/graphql-response+json',
      ...headers,
    },
    body: multipart(boundary, query, variables, files) as unknown as BodyInit,
    duplex: 'half',
  } as RequestInit & { duplex: 'half' });
  return { ...((await res.json()) as GqlReply<T>), status: res.status };
}

/** Reads a response body to its end, hashing it, without keeping it. */
export async function hashOf(res: Response): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    hash.update(chunk);
  }
  return { size, sha256: hash.digest('hex') };
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
