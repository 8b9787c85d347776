// The calls the service's own clients make (its server-side connector, its web SDK), replayed the
// way they send them (spec/upstream-notes.md, "What the service's own clients show"): POST where
// POST is listed, text without attachment, operation messages, the SDK's login reads, a download
// asked with redirects off, forwarding by the URL's signature, the admin token acting for a group,
// settings as a JSON body. Each of these failed or answered otherwise on the 2022 emulator.
import { describe, expect, it } from 'vitest';
import type { ConversationPage, UploadTarget, UserSettings } from '../../src/rest/records';
import { type TestUser, useEmulator } from '../helpers/emulator';
import { createGroup } from '../helpers/groups';

const emu = useEmulator();

/** The connector's send: POST, the admin token, no attachment. */
const connectorSend = (from: TestUser, to: TestUser, more: Record<string, unknown> = {}) =>
  emu.rest('POST', '/message/send', {
    token: emu.adminToken,
    body: { content_type: 0, content: 'hello', targets: [to.id], type: 1, from_user_id: from.id, ...more },
  });

const history = (reader: TestUser, other: TestUser) =>
  emu.ok<ConversationPage>('GET', '/message/conversation', {
    token: reader.token,
    query: { limit: 10, msg_id_start: 0, opposite_id: other.id },
  });

describe("the service's clients, replayed", () => {
  it('connector: a text without attachment is sent, and its msg_ids come at the top level', async () => {
    const [a, b] = [await emu.user(), await emu.user()];
    const reply = await connectorSend(a, b);
    expect(reply.code).toBe(200);
    expect(reply.msg_ids).toHaveLength(1);
    const [message] = (await history(b, a)).messages;
    expect(message).toMatchObject({ content: 'hello', ctype: 'TEXT' });
    expect(String(message!.msg_id)).toBe(String(reply.msg_ids![0]));
  });

  it('connector: a read receipt sent as content_type 9 with related_mid marks the message read', async () => {
    const [a, b] = [await emu.user(), await emu.user()];
    const sent = await connectorSend(a, b);
    const ack = await connectorSend(b, a, { content_type: 9, content: '', related_mid: sent.msg_ids![0] });
    expect(ack.code).toBe(200);
    const [message] = (await history(a, b)).messages;
    expect(message).toMatchObject({ content: 'hello', status: 'READ' });
  });

  it('web SDK: login reads the friend list and the joined groups before it connects', async () => {
    const u = await emu.user();
    for (const path of ['/roster/list', '/group/user_joined']) {
      const reply = await emu.rest('GET', path, { token: u.token });
      expect({ path, code: reply.code, isList: Array.isArray(reply.data) }).toEqual({ path, code: 200, isList: true });
    }
  });

  it('connector: the download URL asked with redirects off answers 302 to the storage, which serves the bytes', async () => {
    const [a, b] = [await emu.user(), await emu.user()];
    const target = await emu.ok<UploadTarget>('GET', '/file/upload/chat', { token: a.token, query: { file_type: 100, to_id: b.id } });
    const form = new FormData();
    for (const [k, v] of Object.entries(target.oss_body_param)) form.append(k, v);
    form.append('file', new Blob([new TextEncoder().encode('picture bytes')], { type: 'image/png' }), 'p.png');
    expect((await fetch(target.upload_url, { method: target.upload_method, body: form })).ok).toBe(true);

    const res = await fetch(target.download_url, { redirect: 'manual', headers: { app_id: emu.appId, 'access-token': b.token } });
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    expect(await (await fetch(location)).text()).toBe('picture bytes');

    // The web SDK forwards with the signature the URL carries (`split("sign=")`), not the key.
    const sign = target.download_url.split('sign=')[1]!;
    expect(sign).not.toBe(target.oss_body_param.key);
    const forwarded = await emu.rest('GET', '/file/upload/forward', { token: b.token, query: { file_sign: sign, to_id: a.id } });
    expect(forwarded.code).toBe(200);
  });

  it('connector: the admin token with a group_id header adds a group admin, as the owner may', async () => {
    const [owner, member] = [await emu.user(), await emu.user()];
    const group = await createGroup(emu, owner, { members: [member] });
    const reply = await emu.rest('POST', '/group/admin/add', {
      token: emu.adminToken,
      groupId: group,
      body: { group_id: group, user_list: [member.id] },
    });
    expect(reply.code).toBe(200);
    const admins = await emu.ok<{ user_id: number }[]>('GET', '/group/admin_list', { token: owner.token, query: { group_id: group } });
    expect(admins.map((m) => Number(m.user_id))).toContain(member.id);
  });

  it('web SDK: settings sent as a JSON body are set', async () => {
    const u = await emu.user();
    expect((await emu.rest('POST', '/user/sounds', { token: u.token, body: { value: true } })).code).toBe(200);
    expect((await emu.rest('POST', '/user/push/nickname', { token: u.token, body: { value: 'Pushy' } })).code).toBe(200);
    const settings = await emu.ok<UserSettings>('GET', '/user/settings', { token: u.token });
    expect(settings).toMatchObject({ no_sounds: true, push_nick_name: 'Pushy' });
  });

  it('every client: POST where POST is listed beside PUT or DELETE, query parameters and no DELETE body', async () => {
    const [a, b] = [await emu.user(), await emu.user()];
    expect((await emu.rest('POST', '/roster/apply', { token: a.token, body: { user_id: b.id } })).code).toBe(200);
    expect(await emu.ok('GET', '/roster/list', { token: b.token })).toEqual([a.id]);
    expect((await emu.rest('POST', '/user/conversation/pin', { token: a.token, body: { conversation_id: b.id } })).code).toBe(200);
    expect((await emu.rest('POST', '/roster/delete', { token: a.token, query: { user_id: b.id } })).code).toBe(200);
    expect(await emu.ok('GET', '/roster/list', { token: b.token })).toEqual([]);
  });
});
