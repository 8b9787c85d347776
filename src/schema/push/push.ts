// Push (section 7, admin token): certificates, sending a push notification, and the delivery
// statistics of push tasks. Task statistics go through one loader, so any number of tasks in a
// request is one POST /push/task/detail.
import { randomUUID } from 'node:crypto';
import DataLoader from 'dataloader';
import type { Int64 } from '../../rest/json';
import { PUSH_CHANNELS, type PushCertificate, type PushTaskStats } from '../../rest/records';
import { builder, reaches } from '../core/builder';
import { fromResult, mutation, payloadType } from '../core/mutation';
import { PushChannel, PushEnvironment, PushProvider } from './enums';
import { withRetryKey } from '../core/upstream-errors';
import { idempotencyKey } from '../core/idempotency-key';
import { defineLoader } from '../core/loader';
import { pushBodyOf, SendPushInput } from './input';
import { idListInput } from '../core/id-kinds';

/** Tasks per POST /push/task/detail (the cost estimate counts calls by it). */
export const PUSH_TASK_BATCH_SIZE = 1000;

/** Task statistics by task ID; null for a task the service does not know (it leaves those out). */
const pushTaskLoader = defineLoader(
  (ctx) =>
    new DataLoader<Int64, PushTaskStats | null, string>(
      async (ids) => {
        const reply = await ctx.rest.call('POST /push/task/detail', { list: [...ids] });
        const byId = new Map(reply.data.map((stats) => [String(stats.task_id), stats]));
        return ids.map((id) => byId.get(String(id)) ?? null);
      },
      { cacheKeyFn: String, maxBatchSize: PUSH_TASK_BATCH_SIZE },
    ),
);

const PushCertificateRef = builder.objectRef<PushCertificate>('PushCertificate').implement({
  description: 'The push certificate of a vendor push service, as configured for the app.',
  fields: (t) => ({
    appId: t.exposeString('app_id', { description: "The app's ID at the vendor." }),
    appKey: t.exposeString('app_key', { description: "The app's key at the vendor." }),
    appSecret: t.exposeString('app_secret', { description: "The app's secret at the vendor." }),
    certificate: t.exposeString('certificate', { description: 'The certificate (APNs).' }),
    name: t.exposeString('name', { description: 'Certificate name (what devices bind as their notifier name).' }),
  }),
});

interface Counts {
  target: Int64;
  sent: Int64;
  received: Int64;
}

const PushCountsRef = builder.objectRef<Counts>('PushCounts').implement({
  description: 'Delivery counters of a push task.',
  fields: (t) => ({
    target: t.field({ type: 'SafeInt', nullable: false, description: 'Valid targets.', resolve: (c) => c.target }),
    sent: t.field({ type: 'SafeInt', nullable: false, description: 'Sent.', resolve: (c) => c.sent }),
    received: t.field({ type: 'SafeInt', nullable: false, description: 'Delivered.', resolve: (c) => c.received }),
  }),
});

const PushChannelStatsRef = builder.objectRef<Counts & { channel: (typeof PUSH_CHANNELS)[number] }>('PushChannelStats').implement({
  description: 'Delivery counters of a push task on one channel.',
  fields: (t) => ({
    channel: t.field({ type: PushChannel, nullable: false, description: 'The channel.', resolve: (c) => c.channel }),
    target: t.field({ type: 'SafeInt', nullable: false, description: 'Valid targets on this channel.', resolve: (c) => c.target }),
    sent: t.field({ type: 'SafeInt', nullable: false, description: 'Sent on this channel.', resolve: (c) => c.sent }),
    received: t.field({ type: 'SafeInt', nullable: false, description: 'Delivered on this channel.', resolve: (c) => c.received }),
  }),
});

const channelsOf = (s: PushTaskStats) =>
  PUSH_CHANNELS.map((channel) => ({
    channel,
    target: s[`${channel}_target`],
    sent: s[`${channel}_sent`],
    received: s[`${channel}_received`],
  }));

// Summed as bigints: the counters are int64; SafeInt refuses a total beyond 2^53 rather than round it.
const sum = (values: Int64[]) => values.reduce<bigint>((total, v) => total + BigInt(v), 0n);

const PushTaskRef = builder.objectRef<PushTaskStats>('PushTask').implement({
  description: 'A push task and its delivery statistics.',
  fields: (t) => ({
    id: t.field({ type: 'ID', nullable: false, description: 'Task ID.', resolve: (s) => s.task_id }),
    channels: t.field({
      type: [PushChannelStatsRef],
      nullable: false,
      description: 'Counters per channel: apns, fcm, flyme, huawei, nativepush (the service itself), oppo, vivo, xiaomi.',
      resolve: channelsOf,
    }),
    totals: t.field({
      type: PushCountsRef,
      nullable: false,
      description: 'Counters summed over all channels.',
      resolve: (s) => {
        const channels = channelsOf(s);
        return {
          target: sum(channels.map((c) => c.target)),
          sent: sum(channels.map((c) => c.sent)),
          received: sum(channels.map((c) => c.received)),
        };
      },
    }),
  }),
});

builder.queryFields((t) => ({
  pushCertificate: t.field({
    type: PushCertificateRef,
    description: 'The push certificate of a vendor push service (admin token).',
    extensions: reaches('GET /push/certificate'),
    args: {
      provider: t.arg({ type: PushProvider, required: true, description: 'The vendor push service.' }),
      environment: t.arg({ type: PushEnvironment, required: false, description: 'Development or production (the default).' }),
    },
    resolve: async (_root, a, ctx) =>
      (await ctx.rest.call('GET /push/certificate', { provider: a.provider, environment: a.environment ?? undefined })).data,
  }),
  pushTasks: t.field({
    type: [PushTaskRef],
    nullable: { list: true, items: true },
    description: 'Delivery statistics of push tasks (admin token), in the order asked; null for a task the service does not know.',
    extensions: reaches('POST /push/task/detail'),
    args: { ids: t.arg(idListInput({ serviceId: true, required: true, description: 'Task IDs.' })) },
    resolve: async (_root, a, ctx) => {
      const tasks = await pushTaskLoader(ctx).loadMany(a.ids);
      // A failed batch fails every item alike: report it once, on the field.
      const failed = tasks.find((t): t is Error => t instanceof Error);
      if (failed) throw failed;
      return tasks as (PushTaskStats | null)[];
    },
  }),
}));

const SendPushPayload = payloadType<{ taskId: Int64; requestId: string }>('SendPushPayload', {
  description: 'Result of sendPush.',
  fields: (t) => ({
    taskId: t.field({
      type: 'ID',
      description: 'The push task (for a repeated requestId: the task of the first push).',
      resolve: fromResult((p) => p.taskId),
    }),
    requestId: t.string({
      description:
        "The de-duplication ID the push was sent with: the input's requestId, or one the gateway made up when it had none. " +
        'Sending again with it never pushes twice.',
      resolve: fromResult((p) => p.requestId),
    }),
    task: t.field({
      type: PushTaskRef,
      description: "The task's delivery statistics.",
      extensions: reaches('POST /push/task/detail'),
      resolve: fromResult((p, ctx) => pushTaskLoader(ctx).load(p.taskId)),
    }),
  }),
});

mutation('sendPush', {
  description: 'Send a push notification to devices (admin token).',
  endpoints: ['POST /push/notify'],
  payload: SendPushPayload,
  input: SendPushInput,
  resolve: async (input, ctx) => {
    const given = pushBodyOf(input);
    // Without a requestId of the client's, one of ours: a push whose answer was lost can then be
    // sent again with it (the error names it) and is not pushed twice.
    const requestId = idempotencyKey('input.setting.requestId', input.setting?.requestId, () => `gw-${randomUUID()}`);
    const body = { ...given, setting: { ...given.setting, request_id: requestId } };
    return { taskId: (await withRetryKey({ requestId }, ctx.rest.call('POST /push/notify', body))).data.task_id, requestId };
  },
});
