// What a group holds: announcements and shared files, read and changed through the gateway.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Announcement, SharedFile } from '../../../src/rest/records';
import { type TestUser, useGroupsStack } from '../../helpers/groups-stack';
import { onlyError } from '../../helpers/stack';

const g = useGroupsStack();
let owner: TestUser;
let member: TestUser;
beforeAll(async () => {
  owner = await g.user();
  member = await g.user();
});

const publish = (groupId: number, title: string) =>
  g.emu.ok<Announcement>('POST', '/group/announcement/edit', {
    token: owner.token,
    body: { group_id: groupId, title, content: `${title} text` },
  });

const record = (groupId: number, name: string, by = member) =>
  g.emu.ok<SharedFile>('POST', '/group/file/upload', {
    token: by.token,
    body: { group_id: groupId, name, size: 10, url: `http://files/${name}` },
  });

describe('announcements', () => {
  it('reads the list, the latest and one announcement, each with its endpoint', async () => {
    const groupId = await g.group(owner, { members: [member] });
    const first = await publish(groupId, 'first');
    await publish(groupId, 'second');
    const data = await g.data<{
      group: {
        announcements: { nodes: { title: string }[] };
        latestAnnouncement: { title: string; authorId: string; author: { id: string } };
        announcement: Record<string, unknown>;
      };
    }>(
      member,
      `{ group(id: "${groupId}") {
          announcements { nodes { title } }
          latestAnnouncement { title authorId author { id } }
          announcement(id: "${first.id}") { id groupId group { id } title content createdAt } } }`,
    );
    expect(data.group.announcements.nodes.map((a) => a.title)).toEqual(['second', 'first']);
    expect(data.group.latestAnnouncement).toEqual({ title: 'second', authorId: String(owner.id), author: { id: String(owner.id) } });
    expect(data.group.announcement).toEqual({
      id: String(first.id),
      groupId: String(groupId),
      group: { id: String(groupId) },
      title: 'first',
      content: 'first text',
      createdAt: new Date(Number(first.created_at)).toISOString(),
    });
    expect(g.endpoints().sort()).toEqual([
      'GET /group/announcement',
      'GET /group/announcement/last',
      'GET /group/announcement/list',
      'POST /group/info/batch',
    ]);
    expect(g.callsTo('GET /group/announcement')[0]?.query).toEqual({ group_id: String(groupId), announcement_id: String(first.id) });
  });

  it('answers a null latest announcement, without an error, for a group with none', async () => {
    const groupId = await g.group(owner);
    const reply = await g.gql(owner, `{ group(id: "${groupId}") { latestAnnouncement { id } } }`);
    expect(reply).toEqual({ data: { group: { latestAnnouncement: null } } });
    // Both at once: group(id:) starts the announcement's read beside the existence check.
    expect(g.endpoints().sort()).toEqual(['GET /group/announcement/last', 'POST /group/info/batch']);
  });

  it('fails an unknown announcement alone with NOT_FOUND', async () => {
    const groupId = await g.group(owner);
    const reply = await g.gql<{ group: { name: string; announcement: null } }>(
      owner,
      `{ group(id: "${groupId}") { name announcement(id: "424242") { id } } }`,
    );
    expect(reply.data?.group).toEqual({ name: 'a group', announcement: null });
    expect(onlyError(reply)).toMatchObject({
      path: ['group', 'announcement'],
      extensions: { code: 'NOT_FOUND', upstreamCode: 20020, endpoint: 'GET /group/announcement' },
    });
  });

  it('publishes with POST /group/announcement/edit and answers the announcement from the reply', async () => {
    const groupId = await g.group(owner);
    const data = await g.data<{
      publishAnnouncement: { ok: boolean; announcement: { id: string; title: string; content: string }; group: { id: string } };
    }>(
      owner,
      `mutation { publishAnnouncement(input: { groupId: "${groupId}", title: "Hello", content: "World" }) { ok announcement { id title content } group { id } } }`,
    );
    expect(data.publishAnnouncement).toMatchObject({
      ok: true,
      announcement: { title: 'Hello', content: 'World' },
      group: { id: String(groupId) },
    });
    expect(g.endpoints()).toEqual(['POST /group/announcement/edit']);
    expect(g.callsTo('POST /group/announcement/edit')[0]?.body).toEqual({ group_id: groupId, title: 'Hello', content: 'World' });
    const latest = await g.data<{ group: { latestAnnouncement: { id: string } } }>(
      owner,
      `{ group(id: "${groupId}") { latestAnnouncement { id } } }`,
    );
    expect(latest.group.latestAnnouncement.id).toBe(data.publishAnnouncement.announcement.id);
  });

  it('refuses an empty title or content before any REST call', async () => {
    for (const [title, content, field] of [
      ['', 'x', 'input.title'],
      ['x', '  ', 'input.content'],
    ]) {
      const reply = await g.gql(
        owner,
        `mutation { publishAnnouncement(input: { groupId: "1", title: "${title}", content: "${content}" }) { ok } }`,
      );
      expect(onlyError(reply)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
    expect(g.endpoints()).toEqual([]);
  });

  it('answers a plain member publishing with a userError NOT_GROUP_ADMIN on the group ID', async () => {
    const groupId = await g.group(owner, { members: [member] });
    const data = await g.data<{ publishAnnouncement: { ok: boolean; userErrors: { code: string; field: string[] }[] } }>(
      member,
      `mutation { publishAnnouncement(input: { groupId: "${groupId}", title: "t", content: "c" }) { ok userErrors { code field } } }`,
    );
    expect(data.publishAnnouncement).toEqual({ ok: false, userErrors: [{ code: 'NOT_GROUP_ADMIN', field: ['input', 'groupId'] }] });
  });

  it('deletes with DELETE /group/announcement/delete; the list then leaves it out', async () => {
    const groupId = await g.group(owner);
    const gone = await publish(groupId, 'gone');
    await publish(groupId, 'kept');
    const data = await g.data<{ deleteAnnouncement: { ok: boolean; group: { announcements: { nodes: { title: string }[] } } } }>(
      owner,
      `mutation { deleteAnnouncement(input: { groupId: "${groupId}", announcementId: "${gone.id}" }) { ok group { announcements { nodes { title } } } } }`,
    );
    expect(data.deleteAnnouncement).toEqual({ ok: true, group: { announcements: { nodes: [{ title: 'kept' }] } } });
    expect(g.endpoints()).toEqual(['DELETE /group/announcement/delete', 'GET /group/announcement/list']);
    expect(g.callsTo('DELETE /group/announcement/delete')[0]?.query).toEqual({
      group_id: String(groupId),
      announcement_id: String(gone.id),
    });
  });

  it('makes exactly one REST call for deleteAnnouncement when only ok is selected, and reports an unknown one as NOT_FOUND', async () => {
    const groupId = await g.group(owner);
    const a = await publish(groupId, 'a');
    await g.data(owner, `mutation { deleteAnnouncement(input: { groupId: "${groupId}", announcementId: "${a.id}" }) { ok } }`);
    expect(g.endpoints()).toEqual(['DELETE /group/announcement/delete']);
    const again = await g.gql(owner, `mutation { deleteAnnouncement(input: { groupId: "${groupId}", announcementId: "${a.id}" }) { ok } }`);
    expect(onlyError(again)?.extensions).toMatchObject({ code: 'NOT_FOUND', upstreamCode: 20020 });
  });
});

describe('shared files', () => {
  it('reads the file list and one file with their endpoints', async () => {
    const groupId = await g.group(owner, { members: [member] });
    const one = await record(groupId, 'one.txt');
    await record(groupId, 'two.txt');
    const data = await g.data<{ group: { files: { nodes: { name: string }[] }; file: Record<string, unknown> } }>(
      owner,
      `{ group(id: "${groupId}") { files { nodes { name } } file(id: "${one.file_id}") {
          id groupId group { id } name size type url uploaderId uploader { id } createdAt updatedAt } } }`,
    );
    expect(data.group.files.nodes.map((f) => f.name)).toEqual(['one.txt', 'two.txt']);
    expect(data.group.file).toEqual({
      id: String(one.file_id),
      groupId: String(groupId),
      group: { id: String(groupId) },
      name: 'one.txt',
      size: 10,
      type: '',
      url: 'http://files/one.txt',
      uploaderId: String(member.id),
      uploader: { id: String(member.id) },
      createdAt: new Date(Number(one.created_at)).toISOString(),
      updatedAt: new Date(Number(one.updated_at)).toISOString(),
    });
    expect(g.endpoints().sort()).toEqual(['GET /group/file', 'GET /group/file/list', 'POST /group/info/batch']);
    expect(g.callsTo('GET /group/file')[0]?.query).toEqual({ group_id: String(groupId), file_id: String(one.file_id) });
  });

  it('records a file with POST /group/file/upload and answers it from the reply', async () => {
    const groupId = await g.group(owner);
    const data = await g.data<{
      recordGroupFile: { ok: boolean; file: { id: string; name: string; size: number; type: string }; group: { id: string } };
    }>(owner, `mutation($in: RecordGroupFileInput!) { recordGroupFile(input: $in) { ok file { id name size type } group { id } } }`, {
      in: { groupId: String(groupId), name: 'big.bin', size: 2 ** 40, url: 'http://files/big.bin', type: 'bin' },
    });
    expect(data.recordGroupFile).toMatchObject({
      ok: true,
      file: { name: 'big.bin', size: 2 ** 40, type: 'bin' },
      group: { id: String(groupId) },
    });
    expect(g.endpoints()).toEqual(['POST /group/file/upload']);
    expect(g.callsTo('POST /group/file/upload')[0]?.body).toEqual({
      group_id: groupId,
      name: 'big.bin',
      size: 2 ** 40,
      url: 'http://files/big.bin',
      type: 'bin',
    });
    const files = await g.data<{ group: { files: { nodes: { id: string }[] } } }>(
      owner,
      `{ group(id: "${groupId}") { files { nodes { id } } } }`,
    );
    expect(files.group.files.nodes).toEqual([{ id: data.recordGroupFile.file.id }]);
  });

  it('refuses an empty name or url, or a negative size, before any REST call', async () => {
    const VALID_FILE = { groupId: '1', name: 'n', size: 1, url: 'u' };
    for (const [patch, field] of [
      [{ name: ' ' }, 'input.name'],
      [{ url: '' }, 'input.url'],
      [{ size: -1 }, 'input.size'],
    ] as const) {
      const reply = await g.gql(owner, 'mutation($in: RecordGroupFileInput!) { recordGroupFile(input: $in) { ok } }', {
        in: { ...VALID_FILE, ...patch },
      });
      expect(onlyError(reply)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
    expect(g.endpoints()).toEqual([]);
  });

  it('renames with PUT /group/file/update_name and reads the file back', async () => {
    const groupId = await g.group(owner, { members: [member] });
    const f = await record(groupId, 'old.txt');
    const data = await g.data<{ renameGroupFile: { ok: boolean; file: { name: string } } }>(
      member,
      `mutation { renameGroupFile(input: { groupId: "${groupId}", fileId: "${f.file_id}", name: "new.txt" }) { ok file { name } } }`,
    );
    expect(data.renameGroupFile).toEqual({ ok: true, file: { name: 'new.txt' } });
    expect(g.endpoints()).toEqual(['PUT /group/file/update_name', 'GET /group/file']);
    expect(g.callsTo('PUT /group/file/update_name')[0]?.body).toEqual({ group_id: groupId, file_id: f.file_id, name: 'new.txt' });
  });

  it('reports renaming a file of someone else as FORBIDDEN, and refuses an empty name before any REST call', async () => {
    const other = await g.user();
    const groupId = await g.group(owner, { members: [member, other] });
    const f = await record(groupId, 'mine.txt');
    const reply = await g.gql(
      other,
      `mutation { renameGroupFile(input: { groupId: "${groupId}", fileId: "${f.file_id}", name: "x" }) { ok } }`,
    );
    expect(onlyError(reply)?.extensions).toMatchObject({
      code: 'FORBIDDEN',
      upstreamCode: 20023,
      endpoint: 'PUT /group/file/update_name',
    });
    const empty = await g.gql(
      other,
      `mutation { renameGroupFile(input: { groupId: "${groupId}", fileId: "${f.file_id}", name: "" }) { ok } }`,
    );
    expect(onlyError(empty)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.name' });
    expect(g.endpoints()).toEqual([]);
  });

  it('deletes files with DELETE /group/file/delete and answers one result per file', async () => {
    const groupId = await g.group(owner, { members: [member] });
    const f = await record(groupId, 'a.txt');
    const data = await g.data<{
      deleteGroupFiles: {
        ok: boolean;
        results: { fileId: string; success: boolean; reason: string | null }[];
        group: { files: { nodes: unknown[] } };
      };
    }>(
      owner,
      `mutation { deleteGroupFiles(input: { groupId: "${groupId}", fileIds: ["${f.file_id}", "777"] }) { ok results { fileId success reason } group { files { nodes { name } } } } }`,
    );
    expect(data.deleteGroupFiles.ok).toBe(false);
    expect(data.deleteGroupFiles.results[0]).toEqual({ fileId: String(f.file_id), success: true, reason: null });
    expect(data.deleteGroupFiles.results[1]).toMatchObject({ fileId: '777', success: false });
    expect(data.deleteGroupFiles.group.files.nodes).toEqual([]);
    expect(g.callsTo('DELETE /group/file/delete')[0]?.body).toEqual({ group_id: groupId, file_list: [f.file_id, 777] });
  });

  it('refuses an empty file list before any REST call', async () => {
    const reply = await g.gql(owner, 'mutation { deleteGroupFiles(input: { groupId: "1", fileIds: [] }) { ok } }');
    expect(onlyError(reply)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.fileIds' });
    expect(g.endpoints()).toEqual([]);
  });

  for (const [mutation, endpoint] of [
    ['renameGroupFile', 'PUT /group/file/update_name'],
    ['deleteGroupFiles', 'DELETE /group/file/delete'],
  ] as const) {
    it(`${mutation} makes exactly one REST call (${endpoint}) when only ok is selected`, async () => {
      const groupId = await g.group(owner, { members: [member] });
      const f = await record(groupId, 'f.txt');
      const call =
        mutation === 'renameGroupFile'
          ? `renameGroupFile(input: { groupId: "${groupId}", fileId: "${f.file_id}", name: "g.txt" })`
          : `deleteGroupFiles(input: { groupId: "${groupId}", fileIds: ["${f.file_id}"] })`;
      await g.data(owner, `mutation { ${call} { ok } }`);
      expect(g.endpoints()).toEqual([endpoint]);
    });
  }
});
