// The emulator side of bench/queries.ts, in a process of its own: the gateway's CPU and memory are
// then measured without the emulator's work in them, and the emulator's own CPU per REST call is
// measured here. Seeds the users and groups the queries read, then counts, at each `mark`, the
// REST calls received (and the CPU spent) since the previous mark.
import { randomBytes } from 'node:crypto';
import { createEmulator } from '../src/emulator';

export interface EmulatorSetup {
  url: string;
  appId: string;
  adminToken: string;
  /** The user every query acts as (admin token + user_id header); owner of every group. */
  ownerId: number;
  /** Groups of the owner alone, for groups(ids:). */
  groupIds: number[];
  /** A group of `bigGroupSize` members (the owner and the others), for members(first:). */
  bigGroupId: number;
  bigGroupSize: number;
  /** The big group's members other than the owner (bench/abuse.ts acts as each: one identity per client). */
  bigGroupMembers: number[];
  /** A group of `midGroupSize` members (the owner and the first others), for members' profiles (bench/peers.ts). */
  midGroupId: number;
  midGroupSize: number;
  /** A user who sent the owner `historySize` text messages (a page of history, bench/peers.ts). */
  historyWith: number;
  historySize: number;
  /**
   * Groups of `variedGroupSize` distinct members each (no member in two), each with an owner of
   * its own holding a user token (bench/peers.ts's varied cases).
   */
  varied: { groupId: number; ownerId: number; ownerToken: string }[];
  variedGroupSize: number;
}

export type ToEmulator = { type: 'mark' } | { type: 'stop' };
export type FromEmulator =
  | { type: 'ready'; setup: EmulatorSetup }
  | { type: 'marked'; calls: number; byEndpoint: Record<string, number>; cpuMicros: number }
  | { type: 'failed'; error: string };

// The owner's groups of one member; bench/peers.ts asks for 48, so that the owner has joined 50 in all.
const GROUPS = Number(process.env.BENCH_SMALL_GROUPS ?? 50);
const BIG_GROUP = 100;
const MID_GROUP = 20;
const HISTORY = 50;
const VARIED_GROUPS = 32;
const VARIED_GROUP_SIZE = 10;

function post(message: FromEmulator) {
  process.send!(message);
}

const adminToken = randomBytes(12).toString('hex');
// Large enough never to drop a call (it would then shift the whole array on every request).
const emulator = createEmulator({ adminToken, host: '127.0.0.1', port: 0, recordCalls: 5_000_000 });

async function seed(): Promise<EmulatorSetup> {
  const url = await emulator.start();
  const appId = emulator.state.options.appId;
  async function rest<T>(path: string, body: unknown, actAs?: number): Promise<T> {
    const headers: Record<string, string> = { 'content-type': 'application/json', app_id: appId };
    if (actAs !== undefined) Object.assign(headers, { 'access-token': adminToken, user_id: String(actAs) });
    const res = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const reply = (await res.json()) as { code: number; data: T; message: string };
    if (reply.code !== 200) throw new Error(`${path}: ${reply.code} ${reply.message}`);
    return reply.data;
  }
  const register = async (name: string) =>
    (await rest<{ user_id: number }>('/user/register/v2', { username: name, password: 'bench-pass' })).user_id;

  const ownerId = await register('bench-owner');
  const members: number[] = [];
  for (let i = 1; i < BIG_GROUP; i++) members.push(await register(`bench-member${i}`));
  const groupIds: number[] = [];
  for (let i = 0; i < GROUPS; i++)
    groupIds.push((await rest<{ group_id: number }>('/group/create', { name: `bench group ${i}`, type: 0 }, ownerId)).group_id);
  const big = await rest<{ group_id: number }>('/group/create', { name: 'bench big group', type: 0, user_list: members }, ownerId);
  const mid = await rest<{ group_id: number }>(
    '/group/create',
    { name: 'bench mid group', type: 0, user_list: members.slice(0, MID_GROUP - 1) },
    ownerId,
  );
  // A chat's screen: about 9.8 KB of JSON for 50 messages, as issue 22 measured one.
  for (let i = 0; i < HISTORY; i++) {
    const content = `message ${i}: shall we move the meeting to Thursday afternoon? the room on the third floor is free then`;
    await rest('/message/send', { content_type: 0, content, attachment: '', targets: [ownerId], type: 1 }, members[0]);
  }
  const varied: EmulatorSetup['varied'] = [];
  for (let g = 0; g < VARIED_GROUPS; g++) {
    const owner = await register(`bench-v${g}-owner`);
    const others: number[] = [];
    for (let i = 1; i < VARIED_GROUP_SIZE; i++) others.push(await register(`bench-v${g}-member${i}`));
    const group = await rest<{ group_id: number }>('/group/create', { name: `bench varied ${g}`, type: 0, user_list: others }, owner);
    // The owner logs in as a client does: a user token of its own.
    const { token } = await rest<{ token: string }>('/token/id', { user_id: owner, password: 'bench-pass' });
    varied.push({ groupId: group.group_id, ownerId: owner, ownerToken: token });
  }
  emulator.resetCalls();
  return {
    url,
    appId,
    adminToken,
    ownerId,
    groupIds,
    bigGroupId: big.group_id,
    bigGroupSize: BIG_GROUP,
    bigGroupMembers: members,
    midGroupId: mid.group_id,
    midGroupSize: MID_GROUP,
    historyWith: members[0]!,
    historySize: HISTORY,
    varied,
    variedGroupSize: VARIED_GROUP_SIZE,
  };
}

let cpuMark = process.cpuUsage();

// The bench stopped or died: do not outlive it (the listening emulator would keep this process up).
process.on('disconnect', () => process.exit(0));

process.on('message', (message: ToEmulator) => {
  if (message.type === 'stop') {
    void emulator.stop().then(() => process.disconnect());
    return;
  }
  const cpu = process.cpuUsage(cpuMark);
  cpuMark = process.cpuUsage();
  const byEndpoint: Record<string, number> = {};
  for (const call of emulator.calls) byEndpoint[call.endpoint] = (byEndpoint[call.endpoint] ?? 0) + 1;
  const calls = emulator.calls.length;
  emulator.resetCalls();
  post({ type: 'marked', calls, byEndpoint, cpuMicros: cpu.user + cpu.system });
});

seed().then(
  (setup) => post({ type: 'ready', setup }),
  (err: unknown) => post({ type: 'failed', error: err instanceof Error ? err.message : String(err) }),
);
