// The streaming multipart parser: requests without files, malformed requests, a request whose
// variables are refused before any resolver runs (its file is drained, the answer still comes),
// and a client that goes away mid-file (the upload to the storage is cut too).
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { gatewayVia, useStack } from '../../helpers/stack';
import { gqlUpload } from '../../helpers/multipart-upload';
import { close, listen, startProxy } from '../../helpers/proxy';
import { until } from '../../helpers/wait';

const stack = useStack();

/** Posts a hand-written multipart body; answers status and JSON. */
async function postRaw(parts: string, boundary = 'b0undary', url = stack.url) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-graphql-yoga-csrf': 'upload', app_id: stack.emu.appId },
    body: parts,
  });
  return {
    status: res.status,
    body: (await res.json()) as { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] },
  };
}

const field = (name: string, value: string, boundary = 'b0undary') =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (name: string, content: string, boundary = 'b0undary') =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="f.txt"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n`;
const end = (boundary = 'b0undary') => `--${boundary}--\r\n`;

const UPLOAD = 'mutation($file: File!, $to: ID!) { uploadChatFile(input: { file: $file, fileType: CHAT_FILE, toId: $to }) { ok } }';

describe('multipart requests', () => {
  it('runs an operation sent as multipart without any file', async () => {
    const reply = await postRaw(field('operations', JSON.stringify({ query: '{ a: chatFileDownloadUrl(fileKey: "x") }' })) + end());
    expect(reply).toEqual({ status: 200, body: { data: { a: '/files/chat?fileSign=x' } } });
  });

  it.each([
    [
      'a file before the map',
      field('operations', JSON.stringify({ query: UPLOAD })) + filePart('0', 'x') + field('map', '{"0":["variables.file"]}') + end(),
    ],
    ['no operations', field('map', '{}') + end()],
    ['operations that are not JSON', field('operations', '{nope') + field('map', '{}') + end()],
    ['a map path into nothing', field('operations', JSON.stringify({ query: UPLOAD })) + field('map', '{"0":["variables.a.b"]}') + end()],
  ])('answers 400 to %s', async (_what, body) => {
    stack.emu.server.resetCalls();
    const reply = await postRaw(body);
    expect(reply.status).toBe(400);
    expect(reply.body.errors?.[0]?.message).toBeTruthy();
    expect(stack.emu.server.calls).toHaveLength(0);
  });

  it('answers 413 to more than 10 files', async () => {
    const map = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [String(i), [`variables.f${i}`]]));
    const files = Array.from({ length: 11 }, (_, i) => filePart(String(i), 'x')).join('');
    const reply = await postRaw(
      field('operations', JSON.stringify({ query: '{ __typename }', variables: {} })) + field('map', JSON.stringify(map)) + files + end(),
    );
    expect(reply.status).toBe(413);
  });

  it('answers a refused variable, and reads the file that no resolver read to its end', async () => {
    const u = await stack.emu.user();
    stack.emu.server.resetCalls();
    const boundary = 'dr4in';
    const operations = JSON.stringify({ query: UPLOAD, variables: { file: null, to: 'not-an-id' } });
    const req = request(`${stack.url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'x-graphql-yoga-csrf': 'upload',
        app_id: stack.emu.appId,
        'access-token': u.token,
      },
    });
    const answer = new Promise<string>((resolve) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve(text));
      });
    });
    const write = (chunk: string | Buffer) => (req.write(chunk) ? undefined : new Promise((resolve) => req.once('drain', resolve)));
    await write(field('operations', operations, boundary) + field('map', '{"0":["variables.file"]}', boundary));
    await write(`--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="f"\r\nContent-Type: text/plain\r\n\r\n`);
    // 16 MB, more than the sockets' buffers hold: the writes finish only if the gateway reads them.
    const chunk = randomBytes(64 * 1024);
    for (let i = 0; i < 256; i++) await write(chunk);
    const sent = new Promise<void>((resolve) => req.end(`\r\n--${boundary}--\r\n`, resolve));
    expect(JSON.parse(await answer).errors[0].extensions.code).toBe('BAD_USER_INPUT');
    await sent;
    expect(stack.emu.server.calls).toHaveLength(0);
  });

  it('refuses a file that is used by two arguments', async () => {
    const u = await stack.emu.user();
    const reply = await gqlUpload<{ a: { ok: boolean } | null; b: { ok: boolean } | null }>(
      stack.url,
      `mutation($file: File!, $to: ID!) {
        a: uploadChatFile(input: { file: $file, fileType: CHAT_FILE, toId: $to }) { ok }
        b: uploadChatFile(input: { file: $file, fileType: CHAT_FILE, toId: $to }) { ok }
      }`,
      { file: null, to: String(u.id) },
      [{ path: 'variables.file', name: 'f', type: 'text/plain', data: randomBytes(1000) }],
      { app_id: stack.emu.appId, 'access-token': u.token },
    );
    expect(reply.data).toEqual({ a: { ok: true }, b: null });
    expect(reply.errors?.[0]).toMatchObject({ path: ['b'], extensions: { code: 'BAD_USER_INPUT', field: 'file' } });
  });

  it('cuts the upload to the storage when the client goes away mid-file', async () => {
    // The storage: counts what arrives and whether the upload ended or broke off.
    let received = 0;
    let outcome: (how: 'ended' | 'aborted') => void = () => undefined;
    const uploadOutcome = new Promise<'ended' | 'aborted'>((resolve) => {
      outcome = resolve;
    });
    const storage = await listen((req, res) => {
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
      });
      req.on('end', () => {
        outcome('ended');
        res.end('{"code":200,"data":null,"message":null}');
      });
      req.on('close', () => outcome('aborted'));
    });
    const proxy = await startProxy(stack.emu.url, storage.url);
    const { gateway, url } = await gatewayVia(proxy.url, { UPLOAD_HOSTS: new URL(storage.url).host });
    try {
      const [a, b] = [await stack.emu.user(), await stack.emu.user()];
      const boundary = 'abortb0undary';
      const req = request(`${url}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'x-graphql-yoga-csrf': 'upload',
          app_id: stack.emu.appId,
          'access-token': a.token,
        },
      });
      req.on('error', () => undefined);
      const operations = JSON.stringify({ query: UPLOAD, variables: { file: null, to: String(b.id) } });
      req.write(field('operations', operations, boundary) + field('map', '{"0":["variables.file"]}', boundary));
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      );
      req.write(randomBytes(256 * 1024));
      // Once the storage has bytes of the file, the client vanishes.
      await until('the storage has 64 KiB of the file', () => received >= 64 * 1024);
      req.destroy();
      expect(await uploadOutcome).toBe('aborted');
      // The gateway carries on.
      const after = await postRaw(
        field('operations', JSON.stringify({ query: '{ a: chatFileDownloadUrl(fileKey: "x") }' })) + end(),
        'b0undary',
        url,
      );
      expect(after.body).toEqual({ data: { a: '/files/chat?fileSign=x' } });
    } finally {
      await gateway.stop();
      await close(proxy.server);
      await close(storage.server);
    }
  });
});
