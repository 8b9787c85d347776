// Push through the gateway: certificates, sendPush (its body exactly as the service receives it,
// input checks before any REST call), and task statistics batched into one POST /push/task/detail.
import { beforeAll, describe, expect, it } from 'vitest';
import type { PushCertificate, PushTaskStats } from '../../../src/rest/records';
import { useStack } from '../../helpers/stack';

const stack = useStack();
let admin: Record<string, string>;
beforeAll(() => {
  admin = { 'access-token': stack.emu.adminToken };
});

/** The request_id the gateway makes up when the client gives none (so that a lost answer can be retried). */
const GENERATED_ID = expect.stringMatching(/^gw-[0-9a-f-]{36}$/);
const endpoints = () => stack.emu.server.calls.map((c) => c.endpoint);

/** A user with one device (logged in with a device_guid), so that pushes have a target. */
async function userWithDevice() {
  const user = await stack.emu.user();
  await stack.emu.ok('POST', '/token/user', { body: { name: user.name, password: user.password, device_guid: `guid-${user.id}` } });
  return user;
}

const SEND = `mutation($input: SendPushInput!) { sendPush(input: $input) { ok taskId task { id channels { channel target sent received } totals { target sent received } } } }`;
const SEND_OK = `mutation($input: SendPushInput!) { sendPush(input: $input) { ok taskId } }`;

interface TaskOut {
  id: string;
  channels: { channel: string; target: number; sent: number; received: number }[];
  totals: { target: number; sent: number; received: number };
}

/** The statistics the service itself reports for a task, in the gateway's shape. */
async function serviceStats(taskId: string): Promise<TaskOut> {
  const [stats] = await stack.emu.ok<PushTaskStats[]>('POST', '/push/task/detail', {
    token: stack.emu.adminToken,
    body: { list: [taskId] },
  });
  const channels = ['apns', 'fcm', 'flyme', 'huawei', 'nativepush', 'oppo', 'vivo', 'xiaomi'].map((c) => {
    const get = (k: string) => Number((stats as unknown as Record<string, number>)[`${c}_${k}`]);
    return { channel: c.toUpperCase(), target: get('target'), sent: get('sent'), received: get('received') };
  });
  const total = (k: 'target' | 'sent' | 'received') => channels.reduce((n, c) => n + c[k], 0);
  return { id: taskId, channels, totals: { target: total('target'), sent: total('sent'), received: total('received') } };
}

describe('pushCertificate', () => {
  it('reads GET /push/certificate with the provider and environment codes', async () => {
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ pushCertificate: Record<string, string> }>(
      '{ pushCertificate(provider: HUAWEI, environment: DEVELOPMENT) { appId appKey appSecret certificate name } }',
      {},
      admin,
    );
    const record = await stack.emu.ok<PushCertificate>('GET', '/push/certificate', {
      token: stack.emu.adminToken,
      query: { provider: 2, environment: 0 },
    });
    expect(reply.data?.pushCertificate).toEqual({
      appId: record.app_id,
      appKey: record.app_key,
      appSecret: record.app_secret,
      certificate: record.certificate,
      name: 'huawei-development',
    });
    expect(stack.emu.server.calls[0]).toMatchObject({ endpoint: 'GET /push/certificate', query: { provider: '2', environment: '0' } });
  });

  it('leaves the environment to the service when not given', async () => {
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ pushCertificate: { name: string } }>('{ pushCertificate(provider: APNS) { name } }', {}, admin);
    expect(reply.data?.pushCertificate.name).toBe('apns-production');
    expect(stack.emu.server.calls.map((c) => c.query)).toEqual([{ provider: '1' }]);
  });

  it('reports a user token as FORBIDDEN on that field alone', async () => {
    const user = await stack.emu.user();
    const reply = await stack.gql<{ pushCertificate: null; url: string }>(
      '{ pushCertificate(provider: FCM) { name } url: chatFileDownloadUrl(fileKey: "abc") }',
      {},
      { 'access-token': user.token },
    );
    expect(reply.data).toEqual({ pushCertificate: null, url: '/files/chat?fileSign=abc' });
    expect(reply.errors).toHaveLength(1);
    expect(reply.errors?.[0]).toMatchObject({
      path: ['pushCertificate'],
      extensions: { code: 'FORBIDDEN', upstreamCode: 10010, endpoint: 'GET /push/certificate' },
    });
  });
});

describe('sendPush', () => {
  it('sends the audience and message as POST /push/notify and reads the task lazily', async () => {
    const a = await userWithDevice();
    const b = await userWithDevice();
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ sendPush: { ok: boolean; taskId: string; task: TaskOut } }>(
      SEND,
      { input: { audience: { userIds: [String(a.id), String(b.id)] }, message: { title: 'Hello', body: 'World' } } },
      admin,
    );
    expect(reply.errors).toBeUndefined();
    const { ok, taskId, task } = reply.data!.sendPush;
    expect(ok).toBe(true);
    expect(taskId).toMatch(/^\d+$/);
    expect(stack.emu.server.calls.map((c) => [c.endpoint, c.body])).toEqual([
      [
        'POST /push/notify',
        { audience: { user_id: [a.id, b.id] }, setting: { request_id: GENERATED_ID }, message: { title: 'Hello', body: 'World' } },
      ],
      ['POST /push/task/detail', { list: [Number(taskId)] }],
    ]);
    expect(task).toEqual(await serviceStats(taskId));
    expect(task.totals.target).toBe(2);
  });

  it("answers the de-duplication ID it sent: the one made up for the client, or the client's own", async () => {
    const a = await userWithDevice();
    const ask = async (setting: Record<string, unknown>) => {
      stack.emu.server.resetCalls();
      const reply = await stack.gql<{ sendPush: { ok: boolean; requestId: string } }>(
        'mutation($input: SendPushInput!) { sendPush(input: $input) { ok requestId } }',
        { input: { audience: { userIds: [String(a.id)] }, message: { title: 'Hi', body: 'there' }, ...setting } },
        admin,
      );
      expect(reply.errors).toBeUndefined();
      const sent = (stack.emu.server.calls[0]!.body as { setting: { request_id: string } }).setting.request_id;
      return { answered: reply.data!.sendPush.requestId, sent };
    };
    const made = await ask({});
    expect(made.answered).toEqual(GENERATED_ID);
    expect(made.answered).toBe(made.sent);
    const own = `client-${Date.now()}`;
    expect(await ask({ setting: { requestId: own } })).toEqual({ answered: own, sent: own });
  });

  it('makes exactly one REST call when only ok and taskId are selected', async () => {
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ sendPush: { ok: boolean } }>(
      SEND_OK,
      { input: { audience: { all: true }, message: { body: 'x' } } },
      admin,
    );
    expect(reply.data?.sendPush.ok).toBe(true);
    expect(stack.emu.server.calls.map((c) => [c.endpoint, c.body])).toEqual([
      ['POST /push/notify', { audience: 'all', setting: { request_id: GENERATED_ID }, message: { body: 'x' } }],
    ]);
  });

  it('translates settings, times, ext and every vendor object into the spec body', async () => {
    stack.emu.server.resetCalls();
    const input = {
      audience: { tags: ['vip', 'beta'] },
      setting: { requestId: `req-${Date.now()}`, distributionStrategy: 'OSPUSH_ONLY', osPushSequence: ['HUAWEI', 'UPS', 'FCM'] },
      message: {
        type: 'IMAGE',
        title: 'Sale',
        body: 'Now',
        attachmentUrl: 'https://cdn.example/banner.PNG?v=2',
        bigText: 'Big',
        badge: '+1',
        ext: '{"orderId": 12, "tags": ["a"]}',
        showBeginTime: '2030-01-02T03:04:05.678Z',
        showEndTime: '2030-01-03T00:00:00.000Z',
        ios: { sound: 'ding', contentAvailable: true, mutableContent: false, threadId: 't1', apnsCollapseId: 'c1' },
        android: { clickAction: 'OPEN_APP', channelId: 'news' },
        huawei: { clickAction: 'INTENT', intent: 'intent://open#Intent;component=a/.B;end', badgeClass: 'a.Main' },
        vivo: { pushMode: 'TEST', classification: 'SYSTEM', sound: 's' },
        fcm: { sound: 'f' },
      },
    };
    const reply = await stack.gql<{ sendPush: { ok: boolean } }>(SEND_OK, { input }, admin);
    expect(reply.errors).toBeUndefined();
    expect(stack.emu.server.calls[0]?.body).toEqual({
      audience: { tag: ['vip', 'beta'] },
      setting: { request_id: input.setting.requestId, distribution_strategy: 'ospush_only', ospush_sequence: ['huawei', 'ups', 'fcm'] },
      message: {
        type: 'image',
        title: 'Sale',
        body: 'Now',
        attachment_url: 'https://cdn.example/banner.PNG?v=2',
        big_text: 'Big',
        badge: '+1',
        ext: { orderId: 12, tags: ['a'] },
        show_begin_time: Math.floor(Date.parse('2030-01-02T03:04:05.678Z') / 1000),
        show_end_time: Math.floor(Date.parse('2030-01-03T00:00:00.000Z') / 1000),
        ios: { sound: 'ding', content_available: true, mutable_content: false, thread_id: 't1', apns_collapse_id: 'c1' },
        android: { click_action: 'open_app', channel_id: 'news' },
        huawei: { click_action: 'intent', intent: 'intent://open#Intent;component=a/.B;end', badge_class: 'a.Main' },
        vivo: { push_mode: 1, classification: 1, sound: 's' },
        fcm: { sound: 'f' },
      },
    });
  });

  it('answers the first task again for a repeated requestId', async () => {
    const input = { audience: { aliases: ['nobody'] }, setting: { requestId: `dup-${Date.now()}` }, message: { title: 't' } };
    const first = await stack.gql<{ sendPush: { taskId: string } }>(SEND_OK, { input }, admin);
    const second = await stack.gql<{ sendPush: { taskId: string } }>(SEND_OK, { input }, admin);
    expect(second.data?.sendPush.taskId).toBe(first.data?.sendPush.taskId);
  });

  const aliases = (n: number) => Array.from({ length: n }, (_, i) => `alias-${i}`);
  const refusals: [string, Record<string, unknown>, string][] = [
    ['501 aliases', { audience: { aliases: aliases(501) }, message: { title: 't' } }, 'input.audience.aliases'],
    ['an empty audience', { audience: {}, message: { title: 't' } }, 'input.audience'],
    ['two audience kinds', { audience: { all: true, tags: ['a'] }, message: { title: 't' } }, 'input.audience'],
    ['all: false', { audience: { all: false }, message: { title: 't' } }, 'input.audience.all'],
    ['an empty user list', { audience: { userIds: [] }, message: { title: 't' } }, 'input.audience.userIds'],
    ['an empty push token', { audience: { pushTokens: [''] }, message: { title: 't' } }, 'input.audience.pushTokens'],
    ['an empty message', { audience: { all: true }, message: { badge: '3' } }, 'input.message'],
    [
      'an image push without a jpg/png URL',
      { audience: { all: true }, message: { type: 'IMAGE', attachmentUrl: 'https://x/a.gif' } },
      'input.message.attachmentUrl',
    ],
    ['a malformed badge', { audience: { all: true }, message: { title: 't', badge: 'many' } }, 'input.message.badge'],
    ['ext that is not a JSON object', { audience: { all: true }, message: { title: 't', ext: '[1]' } }, 'input.message.ext'],
    ['ext that is not JSON', { audience: { all: true }, message: { title: 't', ext: '{oops' } }, 'input.message.ext'],
    [
      'an INTENT click without intent',
      { audience: { all: true }, message: { title: 't', xiaomi: { clickAction: 'INTENT' } } },
      'input.message.xiaomi.intent',
    ],
    [
      'an intent that is no intent URI',
      { audience: { all: true }, message: { title: 't', oppo: { intent: 'https://x' } } },
      'input.message.oppo.intent',
    ],
    [
      'an end before the beginning',
      { audience: { all: true }, message: { title: 't', showBeginTime: '2030-01-02T00:00:00Z', showEndTime: '2030-01-01T00:00:00Z' } },
      'input.message.showEndTime',
    ],
  ];
  it.each(refusals)('refuses %s with BAD_USER_INPUT naming the field, before any REST call', async (_what, input, field) => {
    stack.emu.server.resetCalls();
    const reply = await stack.gql(SEND_OK, { input }, admin);
    expect(reply.data?.sendPush ?? null).toBeNull();
    expect(reply.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(stack.emu.server.calls).toHaveLength(0);
  });

  it('accepts exactly 500 aliases', async () => {
    const reply = await stack.gql(SEND_OK, { input: { audience: { aliases: aliases(500) }, message: { title: 't' } } }, admin);
    expect(reply.errors).toBeUndefined();
  });

  it('reports a user token as FORBIDDEN with the upstream code', async () => {
    const user = await stack.emu.user();
    const reply = await stack.gql(SEND_OK, { input: { audience: { all: true }, message: { title: 't' } } }, { 'access-token': user.token });
    expect(reply.errors?.[0]).toMatchObject({
      path: ['sendPush'],
      extensions: { code: 'FORBIDDEN', upstreamCode: 10010, endpoint: 'POST /push/notify' },
    });
  });
});

describe('pushTasks', () => {
  it('reads 5 tasks with ONE POST /push/task/detail, in the order asked, null for an unknown one', async () => {
    const user = await userWithDevice();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const sent = await stack.gql<{ sendPush: { taskId: string } }>(
        SEND_OK,
        { input: { audience: { userIds: [String(user.id)] }, message: { title: `n${i}` } } },
        admin,
      );
      ids.push(sent.data!.sendPush.taskId);
    }
    const asked = [ids[2]!, ids[0]!, '999999999', ids[3]!, ids[1]!];
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ pushTasks: (TaskOut | null)[] }>(
      'query($ids: [ID!]!) { pushTasks(ids: $ids) { id channels { channel target sent received } totals { target sent received } } }',
      { ids: asked },
      admin,
    );
    expect(reply.errors).toBeUndefined();
    expect(endpoints()).toEqual(['POST /push/task/detail']);
    expect(stack.emu.server.calls[0]?.body).toEqual({ list: asked.map(Number) });
    expect(reply.data?.pushTasks.map((t) => t?.id ?? null)).toEqual([ids[2], ids[0], null, ids[3], ids[1]]);
    expect(reply.data?.pushTasks[0]).toEqual(await serviceStats(ids[2]!));
  });

  it('makes no REST call for an empty list', async () => {
    stack.emu.server.resetCalls();
    const reply = await stack.gql('{ pushTasks(ids: []) { id } }', {}, admin);
    expect(reply.data).toEqual({ pushTasks: [] });
    expect(stack.emu.server.calls).toHaveLength(0);
  });

  it('reports a user token as FORBIDDEN on that field alone', async () => {
    const user = await stack.emu.user();
    const reply = await stack.gql<{ pushTasks: null; url: string }>(
      '{ pushTasks(ids: ["1"]) { id } url: avatarDownloadUrl(fileKey: "a") }',
      {},
      { 'access-token': user.token },
    );
    expect(reply.data).toEqual({ pushTasks: null, url: '/files/avatar?objectName=a' });
    expect(reply.errors?.[0]).toMatchObject({
      path: ['pushTasks'],
      extensions: { code: 'FORBIDDEN', upstreamCode: 10010, endpoint: 'POST /push/task/detail' },
    });
  });
});
