// The 2026 send-body and answer of 5.6 send and 5.4 notify (document 5): attachment only for the
// file types, content_type 0-12 with 8 refused, msg_ids beside data when there is one target.
import { describe, expect, it } from 'vitest';
import { createGroup } from '../../helpers/groups';
import { useEmulator } from '../../helpers/emulator';
import { messaging, text } from './rest';

const emu = useEmulator();
const { history, unread, send } = messaging(emu);

const FILE = JSON.stringify({ url: 'http://files.example/a.png', dName: 'a.png', fLen: 10 });

describe('5.6 send: the 2026 body', () => {
  it('sends a text without attachment; the message carries an empty one', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const reply = await send(a, text([b.id], { content: 'no file' }));
    expect(reply.code).toBe(200);
    expect(reply.data).toBe(true);
    const [m] = await history(b, a.id);
    expect(m).toMatchObject({ msg_id: reply.msg_ids![0], ctype: 'TEXT', content: 'no file', attachment: '' });
    expect(m).not.toHaveProperty('related_mid');
  });

  it.each([
    [5, 'LOCATION'],
    [6, 'COMMAND'],
    [7, 'FORWARD'],
  ])('sends content_type %i (%s) without attachment', async (contentType, ctype) => {
    const a = await emu.user();
    const b = await emu.user();
    expect((await send(a, text([b.id], { content_type: contentType }))).code).toBe(200);
    expect((await history(b, a.id)).map((m) => [m.ctype, m.attachment])).toEqual([[ctype, '']]);
  });

  it.each([1, 2, 3, 4])('still refuses file type %i without attachment (10002 naming attachment), storing nothing', async (contentType) => {
    const a = await emu.user();
    const b = await emu.user();
    const reply = await send(a, text([b.id], { content_type: contentType }));
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('attachment');
    expect(await history(b, a.id)).toEqual([]);
    expect(await unread(b)).toEqual([]);
    // With its file the same message goes.
    expect((await send(a, text([b.id], { content_type: contentType, attachment: FILE }))).code).toBe(200);
    expect(await history(b, a.id)).toHaveLength(1);
  });

  it('refuses content_type 8, which has no name, with 10002 naming content_type, storing nothing', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const reply = await send(a, text([b.id], { content_type: 8 }));
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('content_type');
    expect(await history(b, a.id)).toEqual([]);
    expect(await unread(a)).toEqual([]);
  });

  it.each([-1, 13])('refuses content_type %i, outside 0-12, with 10002 naming content_type', async (contentType) => {
    const a = await emu.user();
    const b = await emu.user();
    const reply = await send(a, text([b.id], { content_type: contentType }));
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('content_type');
    expect(await history(b, a.id)).toEqual([]);
  });

  it('ignores related_mid on an ordinary message', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const first = await send(a, text([b.id], { content: 'first' }));
    expect((await send(a, text([b.id], { content: 'second', related_mid: first.msg_ids![0] }))).code).toBe(200);
    const messages = await history(b, a.id);
    expect(messages.map((m) => [m.ctype, m.content])).toEqual([
      ['TEXT', 'second'],
      ['TEXT', 'first'],
    ]);
    expect(messages[0]).not.toHaveProperty('related_mid');
  });

  it('answers msg_ids for one group target, none for two', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const g1 = await createGroup(emu, a, { members: [b] });
    const g2 = await createGroup(emu, a, { members: [b] });
    const one = await send(a, text([g1], { type: 2 }));
    expect(one.msg_ids).toEqual([(await history(b, g1))[0]!.msg_id]);
    const two = await send(a, text([g1, g2], { type: 2 }));
    expect(two.code).toBe(200);
    expect(two.msg_ids).toBeUndefined();
  });
});

describe('5.4 notify: the 2026 body and answer', () => {
  it('sends a notification without attachment and answers msg_ids for its one target', async () => {
    const b = await emu.user();
    const reply = await emu.rest('POST', '/message/notify', { token: emu.adminToken, body: text([b.id], { content: 'maintenance' }) });
    expect(reply.code).toBe(200);
    expect(reply.data).toBe(true);
    const [m] = await history(b, 0);
    expect(reply.msg_ids).toEqual([m!.msg_id]);
    expect(m).toMatchObject({ ctype: 'TEXT', content: 'maintenance', attachment: '', from_xid: { uid: 0 } });
  });

  it('answers no msg_ids for two targets, and a message for each', async () => {
    const b = await emu.user();
    const c = await emu.user();
    const reply = await emu.rest('PUT', '/message/notify', { token: emu.adminToken, body: text([b.id, c.id]) });
    expect(reply.code).toBe(200);
    expect(reply.msg_ids).toBeUndefined();
    expect(await history(b, 0)).toHaveLength(1);
    expect(await history(c, 0)).toHaveLength(1);
  });

  it('refuses content_type 8 and a file type without attachment, storing nothing', async () => {
    const b = await emu.user();
    for (const contentType of [8, 1]) {
      const reply = await emu.rest('POST', '/message/notify', { token: emu.adminToken, body: text([b.id], { content_type: contentType }) });
      expect(reply.code).toBe(10002);
      expect(reply.message).toContain(contentType === 8 ? 'content_type' : 'attachment');
    }
    expect(await unread(b)).toEqual([]);
  });
});
