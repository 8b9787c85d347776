// What coding an answer costs at each level, on the answers compression is for: a page of 50
// messages of history (as a chat screen reads it) and the introspection JSON, both taken from a
// gateway in front of the emulator. CPU is this process's own (process.cpuUsage) over many codings,
// so a busy machine moves it less than a wall-clock figure. bench/RESULTS.md, "Compression".
//
//   npm run bench:compression
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { loadConfig } from '../src/config';
import { createEmulator } from '../src/emulator';
import { createGateway } from '../src/gateway/create-gateway';

const ROUNDS = 400;

async function answers(): Promise<Record<string, Buffer>> {
  const adminToken = 'bench-compression-admin';
  const emulator = createEmulator({ adminToken, host: '127.0.0.1', port: 0 });
  const imBaseUrl = await emulator.start();
  const appId = emulator.state.options.appId;
  const gateway = createGateway({ ...loadConfig({ PORT: '1', COMPRESSION: 'false' }), port: 0 }, { imBaseUrl });
  const url = await gateway.start();
  try {
    const rest = async (path: string, body: unknown, actAs?: number) => {
      const headers = {
        'content-type': 'application/json',
        app_id: appId,
        ...(actAs ? { 'access-token': adminToken, user_id: String(actAs) } : {}),
      };
      const res = await fetch(`${imBaseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      return (await res.json()) as { data: { user_id: number } };
    };
    const register = async (username: string) => (await rest('/user/register/v2', { username, password: 'bench-pass' })).data.user_id;
    const [owner, other] = [await register('bench-owner'), await register('bench-other')];
    for (let i = 0; i < 50; i++) {
      const content = `message ${i}: shall we move the meeting to Thursday afternoon? the room on the third floor is free then`;
      await rest('/message/send', { content_type: 0, content, attachment: '', targets: [owner], type: 1 }, other);
    }
    const gql = async (query: string) => {
      const headers = { 'content-type': 'application/json', 'access-token': adminToken, user_id: String(owner), app_id: appId };
      const res = await fetch(`${url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query }) });
      return Buffer.from(await res.arrayBuffer());
    };
    return {
      'me (small)': await gql('{ me { id username nickName } }'),
      'history page, 50 messages': await gql(
        `{ me { conversation(with: "${other}", last: 50) { edges { cursor node { id content sentAt status from { id } } } pageInfo { startCursor hasPreviousPage } } } }`,
      ),
      introspection: await gql('{ __schema { types { name description fields { name description } } } }'),
    };
  } finally {
    await gateway.stop();
    await emulator.stop();
  }
}

const coders: [string, (body: Buffer) => Buffer][] = [
  ...[1, 4, 6, 9].map((level): [string, (body: Buffer) => Buffer] => [`gzip ${level}`, (body) => gzipSync(body, { level })]),
  ...[1, 3, 4, 5, 6, 11].map((quality): [string, (body: Buffer) => Buffer] => [
    `br ${quality}`,
    (body) =>
      brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: quality,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        },
      }),
  ]),
];

for (const [name, body] of Object.entries(await answers())) {
  console.log(`\n${name}: ${body.byteLength} B`);
  console.log('coding      bytes   CPU µs per answer');
  for (const [label, code] of coders) {
    const rounds = label === 'br 11' ? Math.ceil(ROUNDS / 20) : ROUNDS;
    for (let i = 0; i < 20; i++) code(body); // warm-up
    const before = process.cpuUsage();
    let size = 0;
    for (let i = 0; i < rounds; i++) size = code(body).byteLength;
    const used = process.cpuUsage(before);
    console.log(`${label.padEnd(10)} ${String(size).padStart(6)}   ${((used.user + used.system) / rounds).toFixed(1).padStart(8)}`);
  }
}
