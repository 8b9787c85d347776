// A 20 MB file through the gateway, both ways, while the gateway's memory is watched: the upload
// (a real multipart HTTP request) is streamed to the upload target, and the download route streams
// the file back, so neither grows the gateway's memory by anything like the file's size.
//
// Only the gateway runs in the test process: the IM service and the HTTP client are child
// processes, so their copies of the file are not counted. Memory is sampled after a forced
// collection, so the samples count what is alive (the chunks in flight), not the garbage of chunks
// already passed on, which V8 collects at leisure.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config';
import { createGateway, type Gateway } from '../../../src/gateway/create-gateway';
import { freePort } from '../../helpers/free-port';
import { hashOf } from '../../helpers/multipart-upload';
import { waitForLine } from '../../helpers/wait-for-line';

const MB = 1024 * 1024;
const APP_ID = 'im-stream-test';
const ADMIN_TOKEN = 'stream-test-admin-token';
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let emulator: ChildProcess;
let emulatorUrl: string;
let gateway: Gateway;
let gatewayUrl: string;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function startChildEmulator(): Promise<void> {
  const port = await freePort();
  emulator = spawn(process.execPath, ['--import', 'tsx', 'src/emulator/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, EMULATOR_PORT: String(port), IM_ADMIN_TOKEN: ADMIN_TOKEN, IM_APP_ID: APP_ID },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await waitForLine(emulator, /IM emulator/);
  emulatorUrl = `http://127.0.0.1:${port}`;
}

/**
 * The HTTP client, run as `node -e`: 'upload' sends a GraphQL multipart request whose file part is
 * `size` random bytes made as they are sent; 'download' GETs a URL. Either prints
 * {status, size, sha256, headers, reply} of what it sent (upload) or received (download).
 */
const CLIENT = `
const http = require('node:http');
const crypto = require('node:crypto');
const [mode, target, headersJson, operations, sizeText] = process.argv.slice(1);
const hash = crypto.createHash('sha256');
let size = 0;
const headers = JSON.parse(headersJson);
const boundary = 'child-' + crypto.randomBytes(8).toString('hex');
if (mode === 'upload') Object.assign(headers, { 'content-type': 'multipart/form-data; boundary=' + boundary, 'x-graphql-yoga-csrf': 'upload' });
const req = http.request(target, { method: mode === 'upload' ? 'POST' : 'GET', headers }, (res) => {
  const chunks = [];
  res.on('data', (c) => { if (mode === 'download') { size += c.length; hash.update(c); } else chunks.push(c); });
  res.on('end', () => process.stdout.write(JSON.stringify({
    status: res.statusCode, size, sha256: hash.digest('hex'), headers: res.headers,
    reply: mode === 'upload' ? JSON.parse(Buffer.concat(chunks).toString()) : null,
  })));
});
const write = (chunk) => (req.write(chunk) ? undefined : new Promise((r) => req.once('drain', r)));
(async () => {
  if (mode !== 'upload') return req.end();
  const field = (n, v) => '--' + boundary + '\\r\\nContent-Disposition: form-data; name="' + n + '"\\r\\n\\r\\n' + v + '\\r\\n';
  await write(field('operations', operations) + field('map', '{"0":["variables.file"]}') +
    '--' + boundary + '\\r\\nContent-Disposition: form-data; name="0"; filename="big.mp4"\\r\\nContent-Type: video/mp4\\r\\n\\r\\n');
  const total = Number(sizeText);
  while (size < total) {
    const chunk = crypto.randomBytes(Math.min(65536, total - size));
    hash.update(chunk);
    size += chunk.length;
    await write(chunk);
  }
  req.end('\\r\\n--' + boundary + '--\\r\\n');
})();
`;

interface ClientResult {
  status: number;
  size: number;
  sha256: string;
  headers: Record<string, string>;
  reply: { data?: { uploadChatFile: { file: { downloadUrl: string; fileKey: string; size: number } } }; errors?: unknown[] } | null;
}

function client(args: string[]): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', CLIENT, ...args], { maxBuffer: MB }, (err, stdout) =>
      err ? reject(err) : resolve(JSON.parse(stdout) as ClientResult),
    );
  });
}

async function rest<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${emulatorUrl}${path}`, {
    method: 'POST',
    headers: { app_id: APP_ID, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const envelope = (await res.json()) as { code: number; data: T };
  if (envelope.code !== 200) throw new Error(`${path}: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

async function user(name: string): Promise<{ id: number; token: string }> {
  await rest('/user/register/v2', { username: name, password: 'secret-1' });
  const grant = await rest<{ user_id: number; token: string }>('/token/user', { name, password: 'secret-1' });
  return { id: grant.user_id, token: grant.token };
}

beforeAll(async () => {
  await startChildEmulator();
  gateway = createGateway({ ...loadConfig({ PORT: '1', IM_APP_ID: APP_ID }), port: 0 }, { imBaseUrl: emulatorUrl });
  gatewayUrl = await gateway.start();
});

afterAll(async () => {
  await gateway?.stop();
  if (emulator && emulator.exitCode === null) {
    const exited = new Promise((resolve) => emulator.once('exit', resolve));
    emulator.kill('SIGTERM');
    await exited;
  }
});

/** Peak growth of the process's live memory over a baseline, sampled every 20 ms. */
function watchMemory() {
  gc();
  const base = process.memoryUsage();
  const peak = { rss: 0, arrayBuffers: 0, heapUsed: 0 };
  const timer = setInterval(() => {
    gc();
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss - base.rss);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers - base.arrayBuffers);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed - base.heapUsed);
  }, 20);
  return () => {
    clearInterval(timer);
    const mb = (n: number) => Math.round((n / MB) * 10) / 10;
    return { rssMB: mb(peak.rss), arrayBuffersMB: mb(peak.arrayBuffers), heapUsedMB: mb(peak.heapUsed) };
  };
}

const UPLOAD = `mutation($file: File!, $to: ID!) { uploadChatFile(input: { file: $file, fileType: CHAT_VIDEO, toId: $to }) { file { downloadUrl fileKey size } } }`;

const uploadOf = (size: number, sender: { token: string }, to: number) =>
  client([
    'upload',
    `${gatewayUrl}/graphql`,
    JSON.stringify({ app_id: APP_ID, 'access-token': sender.token }),
    JSON.stringify({ query: UPLOAD, variables: { file: null, to: String(to) } }),
    String(size),
  ]);

describe('streaming a 20 MB file', () => {
  it('uploads it through the gateway and reads it back byte for byte, the gateway growing far less than the file', async () => {
    const a = await user(`streamer_a_${Date.now()}`);
    const b = await user(`streamer_b_${Date.now()}`);
    // Warm up the code paths, so that first-use allocations are not counted.
    await uploadOf(MB, a, b.id);

    const size = 20 * MB;
    const upWatch = watchMemory();
    const sent = await uploadOf(size, a, b.id);
    const up = upWatch();
    expect(sent.reply?.errors).toBeUndefined();
    const file = sent.reply!.data!.uploadChatFile.file;
    expect(file.size).toBe(size);

    // Straight from the download URL (the service, which redirects to its storage), then through the gateway's route.
    const fromService = await fetch(file.downloadUrl, { headers: { app_id: APP_ID, 'access-token': b.token } });
    expect(fromService.redirected).toBe(true);
    expect(await hashOf(fromService)).toEqual({ size, sha256: sent.sha256 });
    const downWatch = watchMemory();
    const routed = await client([
      'download',
      `${gatewayUrl}/files/chat?fileSign=${encodeURIComponent(file.fileKey)}`,
      JSON.stringify({ app_id: APP_ID, 'access-token': b.token }),
    ]);
    const down = downWatch();
    expect(routed).toMatchObject({ status: 200, size, sha256: sent.sha256 });
    expect(routed.headers['content-length']).toBe(String(size));
    expect(routed.headers['content-type']).toBe('video/mp4');

    console.log(
      `gateway memory, peak live growth: 20 MB upload ${JSON.stringify(up)}; 20 MB download through the route ${JSON.stringify(down)}`,
    );
    // Buffering the file would grow arrayBuffers by at least its 20 MB (yoga's own parser: ~42 MB),
    // and RSS with them. RSS also moves with the allocator and V8's spaces (0.9 to 12.1 MB across
    // runs of this same code while arrayBuffers stayed under 2 MB; 16.6 and 18.9 MB once each in a
    // whole-suite run): below the file's size is the point, and arrayBuffers is the precise check.
    for (const growth of [up, down]) {
      expect(growth.arrayBuffersMB).toBeLessThan(6);
      expect(growth.rssMB).toBeLessThan(20);
    }
  });
});
