// The two execution paths answer alike: one emulator, two gateways in process (operations compiled
// by graphql-jit on their first run, and graphql-js alone; every other setting the same), and a corpus of raw requests (test/helpers/
// request-corpus.ts, deterministic from a seed) sent byte for byte to both. Status line, body
// bytes and the headers a client acts on must be equal. DIFF_SEED=<n> replays another corpus.
//
// Production behaviour where it matters: GraphiQL off (NODE_ENV=production in the config), error
// masking as in production (yoga adds error details only when process.env.NODE_ENV is
// "development", checked below). (The corpus was first written for the fast path and yoga's own
// handler, which answered 21 of its requests differently; one pipeline now serves every request.)
//
// Mutations share the one emulator: each request goes to one gateway and then the other before the
// next is sent, and the corpus's writes are idempotent (one nickname value; sendMessage with a
// fixed transactionId, which the service de-duplicates and answers with the same message IDs), so
// both gateways see the same state for every request.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway';
import { startEmulator, type TestEmulator } from '../helpers/emulator';
import { createGroup } from '../helpers/groups';
import { type RawAnswer, sendRaw } from '../helpers/raw-http';
import { type CorpusRequest, requestCorpus } from '../helpers/request-corpus';

const SEED = process.env.DIFF_SEED ? Number(process.env.DIFF_SEED) : 19;
const ALLOWED_ORIGIN = 'https://app.example';

/**
 * Compared headers. Left out: date (the clock), keep-alive (Node's, the same everywhere), and
 * headers no client acts on; their order is not compared (a client reads them by name).
 */
const COMPARED =
  /^(content-type|cache-control|vary|access-control-.*|connection|content-encoding|content-length|transfer-encoding|allow|accept|retry-after|location|www-authenticate)$/;

let emu: TestEmulator;
const gateways: { compiled?: Gateway; graphqlJs?: Gateway } = {};
let ports: { compiled: number; graphqlJs: number };
let corpus: CorpusRequest[];

beforeAll(async () => {
  expect(process.env.NODE_ENV).not.toBe('development');
  // A window longer than any run: the second send of the corpus's message is always a repeat.
  emu = await startEmulator({ dedupWindowMs: 3_600_000 });
  const [user, other] = [await emu.user(), await emu.user()];
  const groupId = await createGroup(emu, user, { members: [other] });
  const env = { PORT: '1', NODE_ENV: 'production', IM_APP_ID: emu.appId, CORS_ORIGINS: `${ALLOWED_ORIGIN},https://other.example` };
  const config = loadConfig(env);
  const start = async (jit: boolean) => {
    // Production's metrics listener on a free port each (its default, 9464, is one for the machine).
    const gateway = createGateway({ ...config, port: 0, metricsPort: 0, jit, jitAfterRuns: 1 }, { imBaseUrl: emu.url });
    return [gateway, Number(new URL(await gateway.start()).port)] as const;
  };
  const [[compiled, compiledPort], [graphqlJs, graphqlJsPort]] = [await start(true), await start(false)];
  Object.assign(gateways, { compiled, graphqlJs });
  ports = { compiled: compiledPort, graphqlJs: graphqlJsPort };
  corpus = requestCorpus({
    seed: SEED,
    userToken: user.token,
    userId: user.id,
    otherUserId: other.id,
    adminToken: emu.adminToken,
    groupId,
    maxBodyBytes: config.maxBodyBytes,
    maxTokens: config.maxTokens,
    maxDepth: config.maxDepth,
    maxAliases: config.maxAliases,
    allowedOrigin: ALLOWED_ORIGIN,
    mutations: 80,
  });
});
afterAll(async () => {
  await gateways.compiled?.stop();
  await gateways.graphqlJs?.stop();
  await emu?.stop();
});

/**
 * A masked error's request ID (ERROR_DETAIL=masked, production's default) is random: its value is
 * left out, its place and length (a UUID's, so Content-Length too) are compared.
 */
const REQUEST_ID = /"requestId":"[0-9a-f-]{36}"/g;
const withoutRequestIds = (body: Buffer) => Buffer.from(body.toString('utf8').replace(REQUEST_ID, `"requestId":"${'0'.repeat(36)}"`));

/** What is compared of an answer. */
function comparable(answer: RawAnswer) {
  const headers = answer.headers.filter(([name]) => COMPARED.test(name)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    status: `${answer.status} ${answer.statusText}`,
    headers: headers.map(([n, v]) => `${n}: ${v}`).join('\n'),
    body: withoutRequestIds(answer.body).toString('base64'),
    cut: answer.cut ?? '',
  };
}

const short = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

function describeSide(name: string, answer: RawAnswer): string {
  const c = comparable(answer);
  return [
    `    ${name}: ${c.status}${c.cut ? ` [cut: ${c.cut}]` : ''}`,
    `      ${c.headers.replaceAll('\n', ' | ')}`,
    `      ${JSON.stringify(short(answer.body.toString('utf8'), 300))}`,
  ].join('\n');
}

it('answers every request of the corpus alike compiled and on graphql-js', { timeout: 900_000 }, async () => {
  expect(corpus.length).toBeGreaterThanOrEqual(150);
  const differences: string[] = [];
  for (const [index, request] of corpus.entries()) {
    // One gateway, then the other, before the next request: both see the same emulator state.
    const compiled = await sendRaw(ports.compiled, request.bytes, request.method);
    const graphqlJs = await sendRaw(ports.graphqlJs, request.bytes, request.method);
    const [a, b] = [comparable(compiled), comparable(graphqlJs)];
    const differing = (Object.keys(a) as (keyof typeof a)[]).filter((key) => a[key] !== b[key]);
    if (differing.length > 0) {
      differences.push(
        [
          `#${index} ${request.what} (differs in ${differing.join(', ')})`,
          describeSide('compiled', compiled),
          describeSide('graphql-js', graphqlJs),
        ].join('\n'),
      );
    }
  }
  const report = `${differences.length} of ${corpus.length} requests answered differently (seed ${SEED}; DIFF_SEED=${SEED} replays it)`;
  expect(differences, `${report}\n${differences.join('\n')}`).toEqual([]);
});
