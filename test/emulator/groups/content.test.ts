// Group content: announcements (4.4-4.8) and shared files (4.19-4.23).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Announcement, FileOperationResult, SharedFile } from '../../../src/rest/records';
import { as, type GroupsWorld, startGroupsWorld, type TestUser } from '../../helpers/groups-world';

let w: GroupsWorld;
let owner: TestUser, admin: TestUser, member: TestUser, member2: TestUser, stranger: TestUser, g: number;
beforeAll(async () => {
  w = await startGroupsWorld();
  [owner, admin, member, member2, stranger] = await Promise.all([w.user(), w.user(), w.user(), w.user(), w.user()]);
  g = await w.group(owner, { members: [member, member2], admins: [admin] });
});
afterAll(() => w.emu.stop());

describe('announcements (4.4-4.8)', () => {
  const publish = (by: TestUser, title: string, content = `${title} text`, group = g) =>
    w.emu.rest<Announcement>('POST', '/group/announcement/edit', as(by, { body: { group_id: group, title, content } }));
  const q = (extra = {}) => ({ query: { group_id: g, ...extra } });

  it('answers 20020 while there is none', async () => {
    expect(await w.code('GET', '/group/announcement/last', as(member, q()))).toBe(20020);
    expect(await w.emu.ok('GET', '/group/announcement/list', as(member, q()))).toEqual([]);
  });

  it('lets admins publish; members (20012) and strangers (20012) may not', async () => {
    const first = await publish(admin, 'Rules');
    expect(first.data).toEqual({
      id: expect.any(Number),
      group_id: g,
      author: admin.id,
      title: 'Rules',
      content: 'Rules text',
      created_at: w.now(),
    });
    w.tick();
    expect((await publish(owner, 'Party')).data.author).toBe(owner.id);
    expect((await publish(member, 'Mine')).code).toBe(20012);
    expect((await publish(stranger, 'Spam')).code).toBe(20012);
    expect((await publish(admin, '  ')).code).toBe(10002);
    expect((await publish(admin, 'Empty', '')).code).toBe(10002);
    expect(await w.code('POST', '/group/announcement/edit', as(admin, { body: { group_id: g, title: 'x' } }))).toBe(10002);
  });

  it('lets members read one, the latest and the list (newest first); strangers get 20011', async () => {
    const list = await w.emu.ok<Announcement[]>('GET', '/group/announcement/list', as(member, q()));
    expect(list.map((a) => a.title)).toEqual(['Party', 'Rules']);
    expect(await w.emu.ok('GET', '/group/announcement/last', as(member, q()))).toEqual(list[0]);
    expect(await w.emu.ok('GET', '/group/announcement', as(member2, q({ announcement_id: list[1]!.id })))).toEqual(list[1]);
    expect(await w.code('GET', '/group/announcement', as(stranger, q({ announcement_id: list[1]!.id })))).toBe(20011);
    expect(await w.code('GET', '/group/announcement/list', as(stranger, q()))).toBe(20011);
    expect(await w.code('GET', '/group/announcement/last', as(stranger, q()))).toBe(20011);
    expect(await w.code('GET', '/group/announcement', as(member, q({ announcement_id: 1 })))).toBe(20020);
    expect(await w.code('GET', '/group/announcement', as(member, q()))).toBe(10002);
  });

  it('does not show another group’s announcement (20020)', async () => {
    const other = await w.group(stranger);
    const foreign = (await publish(stranger, 'Elsewhere', 'x', other)).data;
    expect(await w.code('GET', '/group/announcement', as(member, q({ announcement_id: foreign.id })))).toBe(20020);
    expect(await w.code('DELETE', '/group/announcement/delete', as(owner, q({ announcement_id: foreign.id })))).toBe(20020);
  });

  it('lets admins delete (data names the announcement); members get 20012; gone is 20020', async () => {
    const [latest, older] = await w.emu.ok<Announcement[]>('GET', '/group/announcement/list', as(member, q()));
    expect(await w.code('DELETE', '/group/announcement/delete', as(member, q({ announcement_id: latest!.id })))).toBe(20012);
    const reply = await w.emu.ok('DELETE', '/group/announcement/delete', as(admin, q({ announcement_id: latest!.id })));
    expect(reply).toEqual({ announcement_id: latest!.id, group_id: g });
    expect(await w.code('GET', '/group/announcement', as(member, q({ announcement_id: latest!.id })))).toBe(20020);
    expect(await w.code('POST', '/group/announcement/delete', as(admin, q({ announcement_id: latest!.id })))).toBe(20020);
    expect(await w.emu.ok('GET', '/group/announcement/last', as(member, q()))).toEqual(older);
  });

  it('lets the bare admin token publish (author 0) and delete', async () => {
    const reply = await w.emu.ok<Announcement>('POST', '/group/announcement/edit', {
      token: w.emu.adminToken,
      body: { group_id: g, title: 'App', content: 'news' },
    });
    expect(reply.author).toBe(0);
    const viaHeader = await w.emu.ok<Announcement>('POST', '/group/announcement/edit', {
      token: w.emu.adminToken,
      groupId: g,
      body: { group_id: g, title: 'Hdr', content: 'x' },
    });
    expect(viaHeader.author).toBe(0);
    expect(
      await w.code('DELETE', '/group/announcement/delete', { token: w.emu.adminToken, query: { group_id: g, announcement_id: reply.id } }),
    ).toBe(200);
  });
});

describe('shared files (4.19-4.23)', () => {
  const upload = (by: TestUser, name: string, extra = {}) =>
    w.emu.rest<SharedFile>(
      'POST',
      '/group/file/upload',
      as(by, { body: { group_id: g, name, size: 1234, url: `http://files/${name}`, ...extra } }),
    );
  const list = async () =>
    (await w.emu.ok<SharedFile[]>('GET', '/group/file/list', as(member, { query: { group_id: g } }))).map((f) => f.name);
  let mine: SharedFile, theirs: SharedFile;

  it('lets any member record a file; strangers get 20011; bad input 10002', async () => {
    const reply = await upload(member, 'notes.txt', { type: 'text/plain' });
    mine = reply.data;
    expect(mine).toEqual({
      file_id: expect.any(Number),
      group_id: g,
      name: 'notes.txt',
      size: 1234,
      type: 'text/plain',
      url: 'http://files/notes.txt',
      uploader: member.id,
      created_at: w.now(),
      updated_at: w.now(),
    });
    theirs = (await upload(member2, 'photo.png')).data;
    expect(theirs.type).toBe('');
    expect((await upload(stranger, 'x')).code).toBe(20011);
    expect((await upload(member, '')).code).toBe(10002);
    expect((await upload(member, 'neg', { size: -1 })).code).toBe(10002);
    expect(await w.code('POST', '/group/file/upload', as(member, { body: { group_id: g, name: 'n', size: 1 } }))).toBe(10002);
    expect(await list()).toEqual(['notes.txt', 'photo.png']);
  });

  it('lets members read one and the list; strangers get 20011; missing is 20022', async () => {
    expect(await w.emu.ok('GET', '/group/file', as(member2, { query: { group_id: g, file_id: mine.file_id } }))).toEqual(mine);
    expect(await w.code('GET', '/group/file', as(stranger, { query: { group_id: g, file_id: mine.file_id } }))).toBe(20011);
    expect(await w.code('GET', '/group/file/list', as(stranger, { query: { group_id: g } }))).toBe(20011);
    expect(await w.code('GET', '/group/file', as(member, { query: { group_id: g, file_id: 1 } }))).toBe(20022);
  });

  it('lets the uploader or an admin rename (20023 for others, 20022 when missing)', async () => {
    const rename = (by: TestUser, file_id: number, name: string) =>
      w.emu.rest('PUT', '/group/file/update_name', as(by, { body: { group_id: g, file_id, name } }));
    w.tick();
    expect((await rename(member, mine.file_id as number, 'notes-v2.txt')).data).toBe(true);
    const renamed = await w.emu.ok<SharedFile>('GET', '/group/file', as(member, { query: { group_id: g, file_id: mine.file_id } }));
    expect(renamed).toMatchObject({ name: 'notes-v2.txt', updated_at: w.now(), created_at: mine.created_at });
    expect((await rename(member2, mine.file_id as number, 'hijack')).code).toBe(20023);
    expect((await rename(admin, theirs.file_id as number, 'photo-by-admin.png')).code).toBe(200);
    expect((await rename(member, 424242, 'x')).code).toBe(20022);
    expect((await rename(member, mine.file_id as number, '')).code).toBe(10002);
    expect(await list()).toEqual(['notes-v2.txt', 'photo-by-admin.png']);
  });

  it('deletes file by file: own ones, not others’ (20023), missing ones (20022) fail alone', async () => {
    const extra = (await upload(member2, 'extra.bin')).data;
    const results = await w.emu.ok<FileOperationResult[]>(
      'DELETE',
      '/group/file/delete',
      as(member, {
        body: { group_id: g, file_list: [mine.file_id, extra.file_id, 999] },
      }),
    );
    expect(results).toEqual([
      { file_id: mine.file_id, result: 'success', reason: '' },
      { file_id: extra.file_id, result: 'fail', reason: expect.stringContaining('only the uploader or an admin') },
      { file_id: 999, result: 'fail', reason: expect.stringContaining('does not exist') },
    ]);
    expect(await list()).toEqual(['photo-by-admin.png', 'extra.bin']);
    const byAdmin = await w.emu.ok<FileOperationResult[]>(
      'POST',
      '/group/file/delete',
      as(admin, { body: { group_id: g, file_list: [theirs.file_id, extra.file_id] } }),
    );
    expect(byAdmin.map((r) => r.result)).toEqual(['success', 'success']);
    expect(await list()).toEqual([]);
    expect(await w.code('DELETE', '/group/file/delete', as(stranger, { body: { group_id: g, file_list: [1] } }))).toBe(20011);
  });
});
