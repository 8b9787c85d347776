// Every example operation at no more REST round trips one after another (its depth) than
// test/helpers/screen-depths.ts allows, warm (the same request again, the gateway's caches filled)
// cold (a gateway started afresh: nothing remembered) and proven (the caller's token proven by a
// request of its own, nothing of the screen remembered: as once the 5 s caches expired). The
// depth is counted, not timed: a proxy answers the gateway's calls in rounds (test/helpers/depth.ts).
import { type DocumentNode, print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as documents from '../../src/generated/graphql';
import type { Gateway } from '../../src/gateway/create-gateway';
import { encodeGlobalId } from '../../src/schema/core/global-id';
import { startDepthProbe, type DepthProbe } from '../helpers/depth';
import { startEmulator, type TestEmulator, type TestUser } from '../helpers/emulator';
import { createGroup } from '../helpers/groups';
import { type Depths, SCREEN_DEPTHS, screenLabel, type ScreenDepth } from '../helpers/screen-depths';
import { gatewayVia } from '../helpers/stack';

let emu: TestEmulator;
let probe: DepthProbe;
let warm: { gateway: Gateway; url: string };
let alice: TestUser;
let bob: TestUser;
let dave: TestUser;
let groupId: number;
let lastMessageId: string;

/** A row's variables and caller (its document is the operation's in examples/, by name). */
interface Case {
  variables: () => Record<string, unknown>;
  caller: () => TestUser | 'admin';
  globalIds?: boolean;
}

const globalId = (kind: Parameters<typeof encodeGlobalId>[0], ...parts: (number | string)[]) =>
  encodeGlobalId(
    kind,
    parts.map((p) => BigInt(p)),
  );

/** How each row of the table is run: its variables and caller in the world beforeAll makes. */
const CASES: Record<string, Case> = {
  Me: { variables: () => ({}), caller: () => alice },
  ChatHome: { variables: () => ({}), caller: () => alice },
  Conversation: { variables: () => ({ with: String(bob.id) }), caller: () => alice },
  GroupScreen: { variables: () => ({ id: String(groupId) }), caller: () => bob },
  GroupActions: { variables: () => ({ id: String(groupId) }), caller: () => bob },
  'Refetch (User)': { variables: () => ({ id: String(bob.id) }), caller: () => alice },
  'Refetch (Conversation)': {
    variables: () => ({ id: globalId('Conversation', bob.id) }),
    caller: () => alice,
    globalIds: true,
  },
  'Refetch (Message)': {
    variables: () => ({ id: globalId('Message', bob.id, lastMessageId) }),
    caller: () => alice,
    globalIds: true,
  },
  'Refetch (Member)': {
    variables: () => ({ id: globalId('Member', groupId, alice.id) }),
    caller: () => bob,
    globalIds: true,
  },
  Users: { variables: () => ({ first: 10 }), caller: () => 'admin' },
  ChatFileDownload: { variables: () => ({ fileKey: 'chat/some-file' }), caller: () => alice },
  SetNickname: { variables: () => ({ nickName: 'Ally' }), caller: () => alice },
  SendText: {
    variables: () => ({ to: String(bob.id), targetType: 'USER', content: 'depth' }),
    caller: () => alice,
  },
  MarkRead: { variables: () => ({ conversationId: String(bob.id) }), caller: () => alice },
  LogIn: { variables: () => ({ username: bob.name, password: bob.password }), caller: () => bob },
};

/** Runs the row's case on the gateway at `url`; fails the test on any GraphQL error. */
async function runCase(url: string, row: ScreenDepth): Promise<void> {
  const c = CASES[screenLabel(row)]!;
  await runOperation(url, row.operation, c.variables(), c.caller(), c.globalIds);
}

/** Runs an example operation (by name) as the caller; fails the test on any GraphQL error. */
async function runOperation(
  url: string,
  operation: string,
  variables: Record<string, unknown>,
  caller: TestUser | 'admin',
  globalIds = false,
) {
  const document = (documents as unknown as Record<string, DocumentNode>)[`${operation}Document`]!;
  return runQuery(url, print(document), variables, caller, globalIds);
}

/** Runs a query as the caller and answers its data; fails the test on any GraphQL error. */
async function runQuery(url: string, query: string, variables: Record<string, unknown>, caller: TestUser | 'admin', globalIds = false) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      app_id: emu.appId,
      'access-token': caller === 'admin' ? emu.adminToken : caller.token,
      ...(globalIds ? { 'x-id-format': 'global' } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  const reply = (await res.json()) as { errors?: unknown[]; data?: unknown };
  expect(reply.errors, JSON.stringify(reply.errors)).toBeUndefined();
  return reply.data;
}

/** The depth of one run, with the rounds in the failure message. */
async function measure(url: string, row: ScreenDepth): Promise<{ depth: number; rounds: string[][] }> {
  probe.mark();
  await runCase(url, row);
  return { depth: probe.depth(), rounds: probe.rounds() };
}

const service = () => ({ imAdminToken: emu.adminToken });

beforeAll(async () => {
  emu = await startEmulator();
  probe = await startDepthProbe(emu.url);
  warm = await gatewayVia(probe.url, {}, service());
  alice = await emu.user();
  bob = await emu.user();
  const carol = await emu.user();
  dave = await emu.user();
  groupId = await createGroup(emu, alice, { members: [bob], admins: [carol] });
  await emu.ok('POST', '/group/announcement/edit', { token: alice.token, body: { group_id: groupId, title: 'hello', content: 'all' } });
  const body = (targets: number[], type: number) => ({ content_type: 0, content: 'hi', attachment: '', targets, type });
  await emu.ok('POST', '/message/send', { token: bob.token, body: body([groupId], 2) });
  const sent = await emu.rest('POST', '/message/send', { token: bob.token, body: body([alice.id], 1) });
  lastMessageId = /"msg_ids":\[(\d+)\]/.exec(sent.text)![1]!;
});
afterAll(async () => {
  await warm?.gateway.stop();
  await probe?.stop();
  await emu?.stop();
});

/** The depth the test holds a row to: the minimal, or today's where issue 34 has not reached it yet. */
const allowed = (row: ScreenDepth, when: Depths) => row.today?.[when] ?? row[when];

/** DEPTH_PRINT=1 prints each measured depth with its rounds. */
function report(when: Depths, row: ScreenDepth, depth: number, rounds: string[][]): void {
  if (process.env.DEPTH_PRINT) console.log(`depth ${when} ${screenLabel(row)}: ${depth} ${JSON.stringify(rounds)}`);
}

describe('round trips one after another per example operation', () => {
  it.each(SCREEN_DEPTHS.map((row) => [screenLabel(row), row] as const))('%s: warm', async (_label, row) => {
    await runCase(warm.url, row);
    const { depth, rounds } = await measure(warm.url, row);
    report('warm', row, depth, rounds);
    expect(depth, JSON.stringify(rounds)).toBeLessThanOrEqual(allowed(row, 'warm'));
  });

  // The caller's token proven by a request of its own (its profile read: rest/proven-tokens.ts)
  // on a gateway whose caches hold nothing of the screen: as after the 5 s caches expired.
  it.each(SCREEN_DEPTHS.map((row) => [screenLabel(row), row] as const))('%s: proven, caches expired', async (_label, row) => {
    const fresh = await gatewayVia(probe.url, {}, service());
    try {
      const caller = CASES[screenLabel(row)]!.caller();
      // The service token is proven from the start.
      if (caller !== 'admin') await runOperation(fresh.url, 'Me', {}, caller);
      const { depth, rounds } = await measure(fresh.url, row);
      report('proven', row, depth, rounds);
      expect(depth, JSON.stringify(rounds)).toBeLessThanOrEqual(allowed(row, 'proven'));
    } finally {
      await fresh.gateway.stop();
    }
  });

  it.each(SCREEN_DEPTHS.map((row) => [screenLabel(row), row] as const))('%s: cold', async (_label, row) => {
    const cold = await gatewayVia(probe.url, {}, service());
    try {
      const { depth, rounds } = await measure(cold.url, row);
      report('cold', row, depth, rounds);
      expect(depth, JSON.stringify(rounds)).toBeLessThanOrEqual(allowed(row, 'cold'));
    } finally {
      await cold.gateway.stop();
    }
  });
});

// Refetch (Member) proven at one round reads the member's profile ahead, from the user ID in the
// global ID: only when the selection asks for the user's profile and the caller is proven, so no
// call is added where none is asked for, nor one the caller's proof would hold back anyway.
describe("a refetched member's profile, read ahead only when it goes out at once", () => {
  const MEMBER = 'query ($id: ID!) { node(id: $id) { ... on Member { userId role user { id FIELDS } } } }';
  const profileReads = () => probe.calls().filter((c) => `${c.method} ${c.path}` === 'GET /user/profile').length;

  /** The calls bob's query about `user`'s membership makes on a gateway afresh (bob proven first when `proven`). */
  async function callsOf(user: () => TestUser, fields: string, proven: boolean) {
    const fresh = await gatewayVia(probe.url, {}, service());
    try {
      if (proven) await runOperation(fresh.url, 'Me', {}, bob);
      probe.mark();
      const data = await runQuery(fresh.url, MEMBER.replace('FIELDS', fields), { id: globalId('Member', groupId, user().id) }, bob, true);
      return { data, rounds: probe.rounds(), profileReads: profileReads() };
    } finally {
      await fresh.gateway.stop();
    }
  }

  it("adds no call for a selection that asks for none of the user's profile", async () => {
    const { rounds } = await callsOf(() => alice, '', true);
    expect(rounds.flat().sort(), JSON.stringify(rounds)).toEqual([
      'GET /group/admin_list',
      'POST /group/info/batch',
      'POST /group/members/display_name',
    ]);
  });

  it("reads the profile once, beside the member's record, for a proven caller", async () => {
    const { rounds, profileReads } = await callsOf(() => alice, 'displayName nickName', true);
    expect(rounds, JSON.stringify(rounds)).toHaveLength(1);
    expect(profileReads).toBe(1);
  });

  it('starts no profile read for an unproven caller: the proof alone, and nothing for a user who is no member', async () => {
    const { data, profileReads } = await callsOf(() => dave, 'displayName', false);
    expect(data).toEqual({ node: null });
    expect(profileReads).toBe(1);
  });
});
