// `npm run test:deploy` (not part of `npm test`): compose.yaml's arrangement run as processes,
// driven only through nginx as a client would be. Queries, an upload and its download, WebSocket and
// SSE subscriptions; one replica stopped (SIGTERM) under a steady load of queries, losing none of
// them, its subscribers resuming on the other replica with `after:`; /metrics off nginx, on each
// replica's METRICS_PORT.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlUpload } from '../helpers/multipart-upload';
import type { GqlReply } from '../helpers/stack';
import { type Feed, sseFeed, wsClient } from '../helpers/subscriptions/clients';
import { EVENTS, type EventData } from '../helpers/subscriptions/operations';
import { EVENT_DEADLINE_MS, until } from '../helpers/wait';
import { type Deployment, findNginx, startDeployment } from './processes';

const nginx = findNginx();
if ('reason' in nginx) console.warn(`test:deploy skipped: ${nginx.reason}`);

/** Queries sent under load by each of the workers, at most (the load stops well before, once the replica is gone). */
const LOAD_WORKERS = 4;
const LOAD_MAX_PER_WORKER = 20_000;

describe.skipIf('reason' in nginx)('the compose deployment, run as processes behind nginx', () => {
  let d: Deployment;
  /** Users of the emulator, acting with their own tokens. */
  let sender: { id: number; token: string };
  let reader: { id: number; token: string };
  const as = (user: { token: string }) => ({ app_id: d.emulator.appId, 'access-token': user.token });

  /** A call to the emulator itself (setting up, sending messages): the IM service, not the gateway. */
  async function emulatorRest<T>(path: string, body: unknown, token?: string): Promise<T> {
    const res = await fetch(`${d.emulator.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', app_id: d.emulator.appId, ...(token ? { 'access-token': token } : {}) },
      body: JSON.stringify(body),
    });
    const reply = (await res.json()) as T & { code: number; message: string };
    if (reply.code !== 200) throw new Error(`${path}: ${reply.code} ${reply.message}`);
    return reply;
  }

  /** Sends a text from sender to reader; its ID as the service wrote it (past 2^53: never through a JS number). */
  const send = async (content: string) => {
    const body = { content_type: 0, content, attachment: '', targets: [reader.id], type: 1 };
    const res = await fetch(`${d.emulator.url}/message/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', app_id: d.emulator.appId, 'access-token': sender.token },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    const id = /"msg_ids"\s*:\s*\[\s*"?(\d+)/.exec(text)?.[1];
    if (!id) throw new Error(`/message/send: ${text}`);
    return id;
  };

  async function gql<T>(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    const res = await fetch(`${d.lb}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    const text = await res.text();
    try {
      return { status: res.status, headers: res.headers, reply: JSON.parse(text) as GqlReply<T> };
    } catch {
      throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
    }
  }

  beforeAll(async () => {
    d = await startDeployment((nginx as { path: string }).path);
    const register = async (name: string) => {
      await emulatorRest('/user/register/v2', { username: name, password: 'deploy-pass' });
      const grant = await emulatorRest<{ data: { token: string; user_id: number } }>('/token/user', { name, password: 'deploy-pass' });
      return { id: grant.data.user_id, token: grant.data.token };
    };
    const tag = randomBytes(3).toString('hex');
    sender = await register(`deploy-sender-${tag}`);
    reader = await register(`deploy-reader-${tag}`);
  }, 300_000);
  afterAll(async () => {
    await d?.stopAll();
  });

  it('answers queries through nginx from both replicas, compressed when asked', async () => {
    for (let i = 0; i < 4; i++) {
      const { status, reply } = await gql<{ me: { id: string } }>('{ me { id } }', {}, as(reader));
      expect(status).toBe(200);
      expect(reply.data?.me.id).toBe(String(reader.id));
    }
    const page = `{ me { conversation(with: "${sender.id}", last: 50) { edges { node { id content } } } } }`;
    for (let i = 0; i < 12; i++) await send(`filler ${i}: some words to make the page longer than a kilobyte of JSON`);
    const { status, headers, reply } = await gql(page, {}, { ...as(reader), 'accept-encoding': 'br' });
    expect(status).toBe(200);
    expect(reply.errors).toBeUndefined();
    expect(headers.get('content-encoding')).toBe('br');
    expect(headers.get('vary')).toMatch(/accept-encoding/i);
  });

  it('refuses introspection (production) and keeps /metrics off nginx, on each replica METRICS_PORT', async () => {
    const { reply } = await gql('{ __schema { types { name } } }', {}, as(reader));
    expect(reply.errors?.[0]?.extensions?.code).toBeDefined();
    expect((await fetch(`${d.lb}/metrics`)).status).toBe(404);
    for (const replica of d.replicas) {
      expect((await fetch(`${replica.origin}/metrics`)).status).toBe(404);
      const res = await fetch(`${replica.metricsOrigin}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^# HELP /m);
    }
  });

  it('uploads a chat file and downloads the same bytes, both through nginx', async () => {
    const data = randomBytes(300 * 1024);
    const upload = await gqlUpload<{ uploadChatFile: { ok: boolean; file: { fileKey: string } | null } }>(
      d.lb,
      'mutation($file: File!, $to: ID!) { uploadChatFile(input: { file: $file, fileType: CHAT_FILE, toId: $to, toType: USER }) { ok file { fileKey } } }',
      { file: null, to: String(sender.id) },
      [{ path: 'variables.file', name: 'notes.bin', type: 'application/octet-stream', data }],
      as(reader),
    );
    expect(upload.status).toBe(200);
    expect(upload.errors).toBeUndefined();
    const fileKey = upload.data!.uploadChatFile.file!.fileKey;
    const { reply } = await gql<{ chatFileDownloadUrl: string }>(
      'query($k: String!) { chatFileDownloadUrl(fileKey: $k) }',
      { k: fileKey },
      as(reader),
    );
    expect(reply.errors).toBeUndefined();
    // A URL on the gateway, built from the Host nginx passed on (when absolute): nginx's own address.
    const url = new URL(reply.data!.chatFileDownloadUrl, d.lb);
    expect(url.origin).toBe(d.lb);
    const res = await fetch(url, { headers: as(reader) });
    expect(res.status).toBe(200);
    const got = Buffer.from(await res.arrayBuffer());
    expect(createHash('sha256').update(got).digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
  });

  it('stops one replica under load without losing a request; its subscribers resume on the other with after:', async () => {
    // Four subscribers, opened one after another: nginx's round robin spreads them over both replicas.
    // Each starts after a message sent before it, so none misses one sent before its first poll.
    const anchor = await send('the subscribers start after this one');
    const ws = [wsClient(d.lb, as(reader)), wsClient(d.lb, as(reader))];
    const subscribe = (i: number, after: string) =>
      i % 2 === 0
        ? ws[i / 2]!.feed<EventData>(EVENTS, { with: String(sender.id), after })
        : sseFeed<EventData>(d.lb, as(reader), EVENTS, { with: String(sender.id), after });
    const feeds: Feed<EventData>[] = [0, 1, 2, 3].map((i) => subscribe(i, anchor));
    const seen: string[][] = feeds.map(() => []);
    const received = (i: number, feed: Feed<EventData>) =>
      void (async () => {
        for (;;) {
          const result = await feed.next(3_600_000).catch(() => undefined);
          if (!result) return;
          const event = result.data?.conversationEvents;
          if (event?.__typename === 'MessageReceived') seen[i]!.push(event.messageId);
        }
      })();
    feeds.forEach((feed, i) => received(i, feed));
    try {
      const first = await send('before the stop');
      await until('every subscriber has the first message', () => seen.every((ids) => ids.includes(first))).catch((err: Error) => {
        throw new Error(`${err.message}; results: ${JSON.stringify(feeds.map((f) => f.results))}\n${d.logs()}`);
      });

      // A steady load of queries through nginx while replica 1 stops.
      let loading = true;
      const statuses = new Map<string, number>();
      const worker = async () => {
        for (let i = 0; i < LOAD_MAX_PER_WORKER && loading; i++) {
          const outcome = await gql<{ me: { id: string } }>('{ me { id } }', {}, as(reader)).then(
            ({ status, reply }) =>
              status === 200 && reply.data?.me.id === String(reader.id) ? '200' : `${status} ${JSON.stringify(reply)}`,
            (err: Error) => `failed: ${err.message} ${String((err.cause as Error | undefined)?.message)}`,
          );
          statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
        }
      };
      const load = Promise.all(Array.from({ length: LOAD_WORKERS }, worker));
      await until('the load is under way', () => (statuses.get('200') ?? 0) > 100);

      const stopping = d.replicas[0]!.process;
      const exited = new Promise<number | null>((resolve) => stopping.once('exit', (code) => resolve(code)));
      stopping.kill('SIGTERM');
      const code = await exited;
      // Queries go on against the replica left, a little while.
      const servedBefore = statuses.get('200') ?? 0;
      await until('queries answered after the stop', () => (statuses.get('200') ?? 0) > servedBefore + 200);
      loading = false;
      await load;
      expect(code).toBe(0);
      expect(JSON.stringify([...statuses]), d.logs()).toBe(JSON.stringify([['200', statuses.get('200')]]));

      // The stopped replica's subscribers were ended; each resumes after the last message it had.
      const endings = await Promise.all(
        feeds.map((feed) => Promise.race([feed.ending, new Promise((r) => setTimeout(() => r(undefined), 1_000))])),
      );
      const ended = endings.flatMap((ending, i) => (ending === undefined ? [] : [i]));
      expect(ended.length).toBeGreaterThan(0);
      expect(ended.length).toBeLessThan(feeds.length);
      const during = await send('while the subscriber was away');
      for (const i of ended) {
        expect(endings[i]).toEqual({ complete: true });
        const after = seen[i]!.at(-1)!;
        feeds[i] = subscribe(i, after);
        received(i, feeds[i]!);
      }
      const last = await send('after the resume');
      await until('every subscriber has every message once, in order', () => seen.every((ids) => ids.includes(last)), EVENT_DEADLINE_MS);
      for (const ids of seen) expect(ids).toEqual([first, during, last]);
    } finally {
      for (const feed of feeds) await feed.close();
      for (const client of ws) await client.dispose();
    }
  });
});
