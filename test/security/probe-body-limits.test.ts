// Probes against request bodies: a JSON body past MAX_BODY_BYTES (with and without a
// Content-Length), one of hundreds of thousands of unused variables (once seconds of JSON.parse),
// an upload past yoga's old 25 MB cap, a multipart body past its own limit, and truncated
// multipart bodies (once INTERNAL_SERVER_ERROR with a stack trace). Uploads stream generated
// bytes; none is held whole by the test.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack';
import { expectNoErrorLogs } from '../helpers/no-error-logs';

const MiB = 1024 * 1024;
/** Above yoga's old 25 MB body limit, which cut uploads at ~24 MiB. */
const UPLOAD_LIMIT = 32 * MiB;

let stack: Stack;
let sender: { id: number; token: string };
let receiver: { id: number };
beforeAll(async () => {
  stack = await startStack({ MAX_UPLOAD_BYTES: String(UPLOAD_LIMIT) });
  sender = await stack.emu.user();
  receiver = await stack.emu.user();
});
afterAll(() => stack.stop());

expectNoErrorLogs();

interface Reply {
  status: number;
  connection: string | undefined;
  body: { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: Record<string, unknown> }[] };
}

/** POSTs `parts` (strings, or byte counts to generate) to /graphql, with a Content-Length or chunked. */
function send(contentType: string, parts: (string | number)[], chunked = false): Promise<Reply> {
  const length = parts.reduce<number>((sum, p) => sum + (typeof p === 'number' ? p : Buffer.byteLength(p)), 0);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      'content-type': contentType,
      'access-token': sender.token,
      accept: 'application/graphql-response+json',
    };
    if (!chunked) headers['content-length'] = String(length);
    // Multipart is a "simple" request: CSRF prevention wants a custom header (README).
    if (contentType.startsWith('multipart/') || contentType.startsWith('application/x-www-form-urlencoded')) {
      headers['x-graphql-yoga-csrf'] = 'upload';
    }
    const req = request(`${stack.url}/graphql`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: JSON.parse(text) as Reply['body'] }),
      );
    });
    // The server may answer (413) and close before everything is sent.
    req.on('error', reject);
    void (async () => {
      const block = Buffer.alloc(64 * 1024, 'x');
      for (const part of parts) {
        if (typeof part === 'string') {
          if (!req.write(part)) await new Promise((r) => req.once('drain', r));
          continue;
        }
        for (let left = part; left > 0 && !req.destroyed; left -= block.length) {
          if (!req.write(block.subarray(0, Math.min(block.length, left)))) await new Promise((r) => req.once('drain', r));
        }
      }
      req.end();
    })();
  });
}

const json = (body: unknown) => send('application/json', [JSON.stringify(body)]);

describe('JSON bodies', () => {
  it('refuses a body over MAX_BODY_BYTES (2 MiB by default) with 413 naming the limit', async () => {
    const reply = await json({ query: '{ __typename }', variables: { big: 'a'.repeat(2 * MiB) } });
    expect(reply.status).toBe(413);
    expect(reply.body.errors?.[0]?.extensions).toMatchObject({ code: 'REQUEST_ENTITY_TOO_LARGE', limit: 2 * MiB });
    expect(reply.body.errors?.[0]?.message).toContain(String(2 * MiB));
    // The unread rest of the body must not meet the client's next request on this connection.
    expect(reply.connection).toBe('close');
  });

  it('cuts a chunked body (no Content-Length) where it passes the limit', async () => {
    const reply = await send('application/json', ['{"query":"{ __typename }","variables":{"big":"', 3 * MiB, '"}}'], true);
    expect(reply.status).toBe(413);
    expect(reply.body.errors?.[0]?.extensions?.code).toBe('REQUEST_ENTITY_TOO_LARGE');
  });

  it.each(['application/json', 'application/graphql+json'])(
    'refuses 150,000 unused variables (within the size limit) sent as %s before parsing them',
    async (type) => {
      // About 1.7 MB: JSON.parse alone would block the event loop for about a second.
      const variables = Array.from({ length: 150_000 }, (_, i) => `"v${i}":0`).join(',');
      const reply = await send(type, [`{"query":"{ __typename }","variables":{${variables}}}`]);
      expect(reply.status).toBe(400);
      expect(reply.body.errors?.[0]).toMatchObject({
        message: 'the JSON body has more than 10000 object members',
        extensions: { code: 'BAD_REQUEST' },
      });
    },
  );

  it('refuses a variable list of 100,000 items before coercing them, and takes one of 10,000', async () => {
    const list = (n: number) =>
      `{"query":"query($ids: [ID!]!) { groups(ids: $ids) { id } }","variables":{"ids":[${Array(n).fill('"x"').join(',')}]}}`;
    const over = await send('application/json', [list(100_000)]);
    expect(over.status).toBe(400);
    expect(over.body.errors?.[0]).toMatchObject({
      message: 'the JSON body has more than 10000 array items',
      extensions: { code: 'BAD_REQUEST', limit: 10_000 },
    });
    // Within the scan's bound, the field refuses the list by its argument's name.
    const within = await send('application/json', [list(10_000)]);
    expect(within.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'ids[0]' });
  });

  it('refuses a form body whose variables field holds 60,000 members (percent-encoded JSON) before parsing it', async () => {
    const variables = `{${Array.from({ length: 60_000 }, (_, i) => `"v${i}":0`).join(',')}}`;
    const form = new URLSearchParams({ query: '{ __typename }', variables }).toString();
    const reply = await send('application/x-www-form-urlencoded', [form]);
    expect(reply.status).toBe(400);
    expect(reply.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST', limit: 10_000 } });
  });

  it('answers a form body with a few variables', async () => {
    const form = new URLSearchParams({ query: '{ __typename }', variables: '{"a":1}' }).toString();
    const reply = await send('application/x-www-form-urlencoded', [form]);
    expect(reply).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
  });

  it('still answers a body just under the limit', async () => {
    const reply = await json({ query: '{ __typename }', variables: { big: 'a'.repeat(2 * MiB - 100) } });
    expect(reply).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
  });
});

const UPLOAD =
  'mutation($file: File!, $to: ID!) { uploadChatFile(input: { file: $file, fileType: CHAT_VIDEO, toId: $to }) { file { size } } }';
const field = (name: string, value: string) => `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const head = () =>
  field('operations', JSON.stringify({ query: UPLOAD, variables: { file: null, to: String(receiver.id) } })) +
  field('map', '{"0":["variables.file"]}') +
  '--b\r\nContent-Disposition: form-data; name="0"; filename="a.mp4"\r\nContent-Type: video/mp4\r\n\r\n';
const multipart = (parts: (string | number)[], chunked = false) => send('multipart/form-data; boundary=b', parts, chunked);

describe('multipart bodies', () => {
  it('takes an upload of exactly MAX_UPLOAD_BYTES, past the old 25 MB body limit', async () => {
    const reply = await multipart([head(), UPLOAD_LIMIT, '\r\n--b--\r\n'], true);
    expect(reply.body.errors).toBeUndefined();
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ uploadChatFile: { file: { size: UPLOAD_LIMIT } } });
  });

  it('refuses a multipart body far over MAX_UPLOAD_BYTES from its Content-Length, with 413 naming the limit', async () => {
    const reply = await multipart([head(), UPLOAD_LIMIT + 4 * MiB, '\r\n--b--\r\n']).catch(() => undefined);
    // The answer may come before the client has sent everything (it then sees a reset): when it
    // arrives, it is the 413.
    if (reply) {
      expect(reply.status).toBe(413);
      expect(reply.body.errors?.[0]?.extensions?.code).toBe('REQUEST_ENTITY_TOO_LARGE');
      expect(reply.body.errors?.[0]?.message).toMatch(/multipart request body is larger than the limit of \d+ bytes/);
    }
  });

  it.each([
    ['in the operations field', () => '--b\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{"query":"{ __typename }"'],
    ['after the map', () => head().split('--b\r\nContent-Disposition: form-data; name="0"')[0]!],
    ['in the file part header', () => `${head().split('filename=')[0]!}filen`],
    ['in the file', () => `${head()}abcdef`],
    ['in the closing boundary', () => `${head()}abcdef\r\n--`],
  ])('answers a body truncated %s with 400 BAD_REQUEST', async (_where, body) => {
    const reply = await multipart([body()]);
    expect(reply.status).toBe(400);
    expect(reply.body.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_REQUEST']);
  });
});
