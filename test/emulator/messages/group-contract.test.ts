// Messages to groups, through the GroupState contract. The groups domain is another's; here a
// small stand-in group table answers the contract, so these tests pin down what the messages
// domain does with its answers (fan-out, membership, history visibility, refusals).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/emulator/auth/actor';
import { Code, ImError } from '../../../src/emulator/errors';
import type { ConversationPage, UnreadEntry } from '../../../src/rest/records';
import { startEmulator, type TestEmulator, type TestUser } from '../../helpers/emulator';
import { sessions } from './sessions';

interface FakeGroup {
  members: Map<number, number>; // user → join time
  history: boolean;
}

let emu: TestEmulator;
let now = Date.now();
const groups = new Map<number, FakeGroup>();
const sendChecks: [number, Actor][] = [];
let nextGroup = 4_100_000_000_001;

beforeAll(async () => {
  emu = await startEmulator({ clock: () => now });
  const need = (id: number) => {
    const g = groups.get(id);
    if (!g) throw new ImError(Code.GROUP_NOT_FOUND, `group ${id} does not exist`);
    return g;
  };
  Object.assign(emu.server.state.groups, {
    requireGroup: (id: number) => void need(id),
    memberIds: (id: number) => [...need(id).members.keys()],
    joinTime: (id: number, user: number) => need(id).members.get(user),
    historyVisible: (id: number) => need(id).history,
    assertCanSend: (id: number, actor: Actor) => {
      sendChecks.push([id, actor]);
      if (!need(id).members.has(actor.userId ?? -1) && !actor.admin) {
        throw new ImError(Code.NOT_A_MEMBER, `user ${actor.userId} is not a member of group ${id}`);
      }
    },
  });
});
afterAll(() => emu.stop());

function group(members: TestUser[], history = false): number {
  const id = nextGroup++;
  groups.set(id, { members: new Map(members.map((m) => [m.id, now])), history });
  return id;
}

const sendTo = (from: TestUser, groupIds: number[], content = 'hi') =>
  emu.rest('POST', '/message/send', { token: from.token, body: { content_type: 0, content, attachment: '', targets: groupIds, type: 2 } });
const page = (reader: TestUser, groupId: number) =>
  emu.rest<ConversationPage>('GET', '/message/conversation', {
    token: reader.token,
    query: { limit: 50, msg_id_start: 0, opposite_id: groupId },
  });
const unread = (u: TestUser) => emu.ok<UnreadEntry[]>('GET', '/message/unread', { token: u.token }).then(sessions);

describe('messages to groups', () => {
  it('fans a message out to every member; the sender is checked and counts nothing unread', async () => {
    const [a, b, c] = [await emu.user(), await emu.user(), await emu.user()];
    const g = group([a, b, c]);
    sendChecks.length = 0;
    const reply = await sendTo(a, [g]);
    expect(reply.code).toBe(200);
    expect(reply.msg_ids).toHaveLength(1);
    expect(sendChecks).toEqual([[g, { admin: false, userId: a.id }]]);
    for (const member of [b, c]) expect(await unread(member)).toEqual([{ conversation_id: { uid: g }, num: 1 }]);
    expect(await unread(a)).toEqual([{ conversation_id: { uid: g }, num: 0 }]);
    const [m] = (await page(b, g)).data.messages;
    expect(m).toMatchObject({ from_xid: { uid: a.id }, to_xid: { uid: g }, status: 'UNREAD' });
    expect((await page(a, g)).data.messages[0]!.status).toBe('DELIVERED');
  });

  it('stores nothing when the contract refuses a sender or one of the groups', async () => {
    const [a, b, outsider] = [await emu.user(), await emu.user(), await emu.user()];
    const g = group([a, b]);
    expect((await sendTo(outsider, [g])).code).toBe(20002);
    expect((await sendTo(a, [g, 4_199_999_999_999])).code).toBe(20001);
    expect(await unread(b)).toEqual([]);
    expect((await page(b, g)).data.messages).toEqual([]);
  });

  it('lets only members read: 20002 for others; an ID that is no user or group is 10002', async () => {
    const [a, outsider] = [await emu.user(), await emu.user()];
    const g = group([a]);
    await sendTo(a, [g]);
    expect((await page(outsider, g)).code).toBe(20002);
    expect((await page(a, 4_199_999_999_998)).code).toBe(10002);
  });

  it('shows a late member only messages from the join on unless history is visible', async () => {
    const [a, late] = [await emu.user(), await emu.user()];
    const hidden = group([a]);
    const shown = group([a], true);
    await sendTo(a, [hidden, shown], 'before');
    now += 1000;
    groups.get(hidden)!.members.set(late.id, now);
    groups.get(shown)!.members.set(late.id, now);
    await sendTo(a, [hidden, shown], 'after');
    const contents = async (g: number) => (await page(late, g)).data.messages.map((m) => `${m.content}:${m.status}`);
    expect(await contents(hidden)).toEqual(['after:UNREAD']);
    // Older messages are readable history, never unread news.
    expect(await contents(shown)).toEqual(['after:UNREAD', 'before:READ']);
    expect((await unread(late)).map((e) => e.num)).toEqual([1, 1]);
  });

  it('acks, deletes and recalls in a group conversation', async () => {
    const [a, b, c] = [await emu.user(), await emu.user(), await emu.user()];
    const g = group([a, b, c]);
    await sendTo(a, [g], 'one');
    const two = await sendTo(a, [g], 'two');
    await emu.ok('GET', '/message/ack', { token: b.token, query: { conversation_id: g } });
    expect(await unread(b)).toEqual([{ conversation_id: { uid: g }, num: 0 }]);
    await emu.ok('DELETE', '/message/conversation', { token: c.token, query: { conversation_id: g } });
    expect((await page(c, g)).data.messages).toEqual([]);
    expect((await page(b, g)).data.messages).toHaveLength(2);
    expect(
      (await emu.rest('POST', '/message/recall', { token: b.token, body: { conversation_id: g, msg_id: two.msg_ids![0]! } })).code,
    ).toBe(10010);
    await emu.ok('POST', '/message/recall', { token: a.token, body: { conversation_id: g, msg_id: two.msg_ids![0]! } });
    expect((await page(b, g)).data.messages.map((m) => m.content)).toEqual(['one']);
  });

  it('sends system notifications to a group from uid 0 with the admin actor', async () => {
    const [a, b] = [await emu.user(), await emu.user()];
    const g = group([a, b]);
    sendChecks.length = 0;
    await emu.ok('POST', '/message/notify', {
      token: emu.adminToken,
      body: { content_type: 0, content: 'sys', attachment: '', targets: [g], type: 2 },
    });
    expect(sendChecks).toEqual([[g, { admin: true }]]);
    expect((await page(b, g)).data.messages[0]!.from_xid.uid).toBe(0);
    expect(await unread(a)).toEqual([{ conversation_id: { uid: g }, num: 1 }]);
  });
});
