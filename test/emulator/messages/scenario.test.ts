// A whole conversation between two users over real HTTP: register, log in, exchange messages of
// several types, page the history from both sides, unread counts, ack, recall, delete.
import { expect, it } from 'vitest';
import type { ConversationPage, MessageRecord, UnreadEntry } from '../../../src/rest/records';
import { useEmulator } from '../../helpers/emulator';
import { sessions } from './sessions';

const emu = useEmulator();

interface Account {
  id: number;
  token: string;
}

async function registerAndLogin(name: string): Promise<Account> {
  await emu.ok('POST', '/user/register/v2', { body: { username: name, password: 'pw-1' } });
  const grant = await emu.ok<{ token: string; user_id: number }>('POST', '/token/user', { body: { name, password: 'pw-1' } });
  return { id: grant.user_id, token: grant.token };
}

/** Sends one message; checks that the raw JSON carries the 19-digit ID exactly; answers it. */
async function send(from: Account, to: Account, contentType: number, content: string, attachment = ''): Promise<bigint> {
  const reply = await emu.rest('POST', '/message/send', {
    token: from.token,
    body: { content_type: contentType, content, attachment, targets: [to.id], type: 1 },
  });
  expect(reply.code).toBe(200);
  const digits = /"msg_ids":\[(\d+)\]/.exec(reply.text)![1]!;
  expect(digits).toHaveLength(19);
  expect(BigInt(digits)).toBe(reply.msg_ids![0]);
  expect(BigInt(digits)).toBeGreaterThan(2n ** 53n);
  return BigInt(digits);
}

/** Walks the whole history backwards with next_msg_id until is_last. */
async function fullHistory(reader: Account, other: Account, limit: number): Promise<{ messages: MessageRecord[]; pages: number }> {
  const messages: MessageRecord[] = [];
  let start: bigint | number = 0;
  for (let pages = 1; ; pages++) {
    const page: ConversationPage = await emu.ok('GET', '/message/conversation', {
      token: reader.token,
      query: { limit, msg_id_start: start, opposite_id: other.id },
    });
    messages.push(...page.messages);
    if (page.is_last) return { messages, pages };
    start = page.next_msg_id;
  }
}

const unread = (u: Account) => emu.ok<UnreadEntry[]>('GET', '/message/unread', { token: u.token }).then(sessions);

it('runs a conversation between two users end to end', async () => {
  const suffix = Date.now().toString(36);
  const alice = await registerAndLogin(`alice_${suffix}`);
  const bob = await registerAndLogin(`bob_${suffix}`);

  const image = JSON.stringify({ url: 'http://files.example/cat.png', dName: 'cat.png', fLen: 2048, width: 640, height: 480 });
  const sent = [
    await send(alice, bob, 0, 'hi bob'),
    await send(alice, bob, 1, 'a cat', image),
    await send(bob, alice, 0, 'nice cat'),
    await send(bob, alice, 5, '52.52,13.40'),
    await send(alice, bob, 6, 'typing'),
    await send(alice, bob, 0, 'see you'),
  ];
  for (let i = 1; i < sent.length; i++) expect(sent[i]!).toBeGreaterThan(sent[i - 1]!);

  // The raw conversation text carries each ID with every digit.
  const raw = await emu.rest('GET', '/message/conversation', {
    token: bob.token,
    query: { limit: 10, msg_id_start: 0, opposite_id: alice.id },
  });
  for (const id of sent) expect(raw.text).toContain(`"msg_id":${id}`);

  // Both sides page the same history, newest first, two at a time.
  for (const [reader, other] of [
    [alice, bob],
    [bob, alice],
  ] as const) {
    const { messages, pages } = await fullHistory(reader, other, 2);
    expect(pages).toBe(3);
    expect(messages.map((m) => BigInt(m.msg_id))).toEqual([...sent].reverse());
    expect(messages.map((m) => m.ctype)).toEqual(['TEXT', 'COMMAND', 'LOCATION', 'TEXT', 'IMAGE', 'TEXT']);
    expect(JSON.parse(messages.find((m) => m.ctype === 'IMAGE')!.attachment)).toMatchObject({
      url: 'http://files.example/cat.png',
      width: 640,
    });
  }

  // Unread: bob has 4 from alice, alice 2 from bob; paging did not clear them.
  expect(await unread(bob)).toEqual([{ conversation_id: { uid: alice.id }, num: 4 }]);
  expect(await unread(alice)).toEqual([{ conversation_id: { uid: bob.id }, num: 2 }]);

  // Bob acks up to the image: two left; alice sees her first two as READ.
  await emu.ok('GET', '/message/ack', { token: bob.token, query: { conversation_id: alice.id, msg_id: sent[1]! } });
  expect(await unread(bob)).toEqual([{ conversation_id: { uid: alice.id }, num: 2 }]);
  const aliceView = (await fullHistory(alice, bob, 10)).messages;
  expect(aliceView.filter((m) => m.status === 'READ').map((m) => BigInt(m.msg_id))).toEqual([sent[1], sent[0]]);

  // Alice recalls her last message: gone for both, and bob's unread drops.
  await emu.ok('POST', '/message/recall', { token: alice.token, body: { conversation_id: bob.id, msg_id: sent[5]! } });
  expect((await fullHistory(bob, alice, 10)).messages).toHaveLength(5);
  expect((await fullHistory(alice, bob, 10)).messages).toHaveLength(5);
  expect(await unread(bob)).toEqual([{ conversation_id: { uid: alice.id }, num: 1 }]);

  // Bob deletes the conversation: his side is empty, alice keeps hers.
  await emu.ok('DELETE', '/message/conversation', { token: bob.token, query: { conversation_id: alice.id } });
  expect((await fullHistory(bob, alice, 10)).messages).toEqual([]);
  expect(await unread(bob)).toEqual([]);
  expect((await fullHistory(alice, bob, 10)).messages).toHaveLength(5);

  // A new message brings the conversation back for bob, with only the new message.
  const again = await send(alice, bob, 0, 'still there?');
  const back = (await fullHistory(bob, alice, 10)).messages;
  expect(back.map((m) => BigInt(m.msg_id))).toEqual([again]);
  expect(await unread(bob)).toEqual([{ conversation_id: { uid: alice.id }, num: 1 }]);

  // Alice acks everything bob sent her.
  await emu.ok('GET', '/message/ack', { token: alice.token, query: { conversation_id: bob.id } });
  expect(await unread(alice)).toEqual([{ conversation_id: { uid: bob.id }, num: 0 }]);
});
