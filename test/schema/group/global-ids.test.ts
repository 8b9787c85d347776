// Global object identification of the group's objects: Member, BlockedMember, GroupApplication,
// GroupInvitation, Announcement and SharedFile. With X-ID-Format: global their `id` is a global
// ID that node(id:) fetches again; without it `id` answers what it answered before. Arguments that
// take an announcement or file ID accept its global ID, and refuse one of another kind.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Announcement, SharedFile } from '../../../src/rest/records';
import { MAX_PAGE } from '../../../src/schema/core/connection';
import { encodeGlobalId, type GlobalKind } from '../../../src/schema/core/global-id';
import { findListed, SCAN_PAGES } from '../../../src/schema/group/loaders';
import { type Caller, type TestUser, useGroupsStack } from '../../helpers/groups-stack';
import { onlyError } from '../../helpers/stack';

const g = useGroupsStack();

const GLOBAL = { 'x-id-format': 'global' };

/** A GraphQL request as the user, with `headers` (the ID format); the recorded calls are reset first. */
function gql<T = Record<string, unknown>>(as: Caller, query: string, headers: Record<string, string> = {}, variables = {}) {
  g.emu.mark();
  const token = as === 'admin' ? g.emu.adminToken : as.token;
  return g.stack.gql<T>(query, variables, { 'access-token': token, ...headers });
}

async function data<T = Record<string, unknown>>(as: Caller, query: string, headers: Record<string, string> = {}): Promise<T> {
  const reply = await gql<T>(as, query, headers);
  expect(reply.errors).toBeUndefined();
  return reply.data!;
}

/** What a global ID says in plain text ("Member:<group>:<user>"). */
const plain = (id: string) => Buffer.from(id, 'base64url').toString('utf8');

const globalId = (kind: GlobalKind, ...parts: (number | bigint | string)[]) =>
  encodeGlobalId(
    kind,
    parts.map((p) => BigInt(p)),
  );

let owner: TestUser;
let member: TestUser;
let applicant: TestUser;
let invitee: TestUser;
let blocked: TestUser;
let groupId: number;
let announcement: Announcement;
let file: SharedFile;

beforeAll(async () => {
  [owner, member, applicant, invitee, blocked] = [
    await g.user(),
    await g.user(),
    await g.user(),
    await g.user({ confirm: true }),
    await g.user(),
  ];
  groupId = await g.group(owner, { members: [member] });
  announcement = await g.emu.ok<Announcement>('POST', '/group/announcement/edit', {
    token: owner.token,
    body: { group_id: groupId, title: 'hello', content: 'hello text' },
  });
  file = await g.emu.ok<SharedFile>('POST', '/group/file/upload', {
    token: member.token,
    body: { group_id: groupId, name: 'a.txt', size: 10, url: 'http://files/a.txt' },
  });
  await g.emu.ok('POST', '/group/apply', { token: applicant.token, body: { group_id: groupId, reason: 'let me in' } });
  await g.emu.ok('POST', '/group/invite', { token: owner.token, body: { group_id: groupId, user_list: [invitee.id], reason: 'come' } });
  await g.emu.ok('POST', '/group/block', { token: owner.token, body: { group_id: groupId, user_list: [blocked.id] } });
});

/** One kind: who reads it, a query reaching one object of it (aliased `it`), its fields, and its IDs. */
interface Case {
  kind: GlobalKind;
  as: () => TestUser;
  /** A query whose result holds the object under `found` (a list's first node, or a field). */
  read: (fields: string) => string;
  found: (data: Record<string, unknown>) => Record<string, unknown>;
  fields: string;
  /** The service IDs that locate it. */
  parts: () => (number | string)[];
  /** Its `id` without X-ID-Format. */
  legacy: () => string;
  /** The global ID of an object of this kind that does not exist. */
  missing: () => string;
}

const first = (list: unknown) => (list as { nodes: Record<string, unknown>[] }).nodes[0]!;
const groupOf = (d: Record<string, unknown>) => d.group as Record<string, unknown>;

const cases: Case[] = [
  {
    kind: 'Member',
    as: () => owner,
    read: (f) => `{ group(id: "${groupId}") { found: member(userId: "${member.id}") { ${f} } } }`,
    found: (d) => groupOf(d).found as Record<string, unknown>,
    fields: 'id userId displayName role joinedAt',
    parts: () => [groupId, member.id],
    legacy: () => `${groupId}:${member.id}`,
    missing: () => globalId('Member', groupId, applicant.id),
  },
  {
    kind: 'BlockedMember',
    as: () => owner,
    read: (f) => `{ group(id: "${groupId}") { found: blockedUsers { nodes { ${f} } } } }`,
    found: (d) => first(groupOf(d).found),
    fields: 'id userId blockedAt',
    parts: () => [groupId, blocked.id],
    legacy: () => `${groupId}:${blocked.id}`,
    missing: () => globalId('BlockedMember', groupId, member.id),
  },
  {
    kind: 'GroupApplication',
    as: () => owner,
    read: (f) => `{ group(id: "${groupId}") { found: applications { nodes { ${f} } } } }`,
    found: (d) => first(groupOf(d).found),
    fields: 'id applicantId groupId reason status expiresAt',
    parts: () => [groupId, applicant.id],
    legacy: () => `${groupId}:${applicant.id}`,
    missing: () => globalId('GroupApplication', groupId, member.id),
  },
  {
    kind: 'GroupInvitation',
    as: () => invitee,
    read: (f) => `{ found: groupInvitations { nodes { ${f} } } }`,
    found: (d) => first(d.found),
    fields: 'id groupId inviterId inviteeId reason status expiresAt',
    parts: () => [groupId, owner.id, invitee.id],
    legacy: () => `${groupId}:${owner.id}:${invitee.id}`,
    missing: () => globalId('GroupInvitation', groupId, member.id, invitee.id),
  },
  {
    kind: 'Announcement',
    as: () => member,
    read: (f) => `{ group(id: "${groupId}") { found: announcement(id: "${announcement.id}") { ${f} } } }`,
    found: (d) => groupOf(d).found as Record<string, unknown>,
    fields: 'id announcementId groupId title content createdAt',
    parts: () => [groupId, String(announcement.id)],
    legacy: () => String(announcement.id),
    missing: () => globalId('Announcement', groupId, 424242),
  },
  {
    kind: 'SharedFile',
    as: () => member,
    read: (f) => `{ group(id: "${groupId}") { found: file(id: "${file.file_id}") { ${f} } } }`,
    found: (d) => groupOf(d).found as Record<string, unknown>,
    fields: 'id fileId groupId name size url',
    parts: () => [groupId, String(file.file_id)],
    legacy: () => String(file.file_id),
    missing: () => globalId('SharedFile', groupId, 424242),
  },
];

const nodeQuery = (c: Case, id: string) => `{ node(id: "${id}") { __typename ... on ${c.kind} { ${c.fields} } } }`;

describe.each(cases)('$kind', (c) => {
  it('answers a global ID as id with X-ID-Format: global, which node(id:) fetches back as the same object', async () => {
    const seen = c.found(await data(c.as(), c.read(c.fields), GLOBAL));
    expect(plain(seen.id as string)).toBe(`${c.kind}:${c.parts().join(':')}`);
    const fetched = await data<{ node: Record<string, unknown> }>(c.as(), nodeQuery(c, seen.id as string), GLOBAL);
    expect(fetched.node).toEqual({ __typename: c.kind, ...seen });
  });

  it('answers its former id without X-ID-Format', async () => {
    const seen = c.found(await data(c.as(), c.read('id')));
    expect(seen.id).toBe(c.legacy());
    // The global ID still fetches it, its id then in the request's (service) format.
    const fetched = await data<{ node: Record<string, unknown> }>(c.as(), nodeQuery(c, globalId(c.kind, ...c.parts())));
    expect(fetched.node).toMatchObject({ __typename: c.kind, id: c.legacy() });
  });

  it('answers null, without an error, for the global ID of one that does not exist', async () => {
    expect(await gql(c.as(), nodeQuery(c, c.missing()), GLOBAL)).toEqual({ data: { node: null } });
  });
});

describe('missing and refused', () => {
  it('answers null for a Member, Announcement or SharedFile of a group that does not exist', async () => {
    const reply = await gql(
      owner,
      `{ m: node(id: "${globalId('Member', 999999999, owner.id)}") { id }
         a: node(id: "${globalId('Announcement', 999999999, announcement.id)}") { id }
         f: node(id: "${globalId('SharedFile', 999999999, file.file_id)}") { id } }`,
      GLOBAL,
    );
    expect(reply).toEqual({ data: { m: null, a: null, f: null } });
  });

  it('answers null for a deleted announcement and a deleted file', async () => {
    const gone = await g.emu.ok<Announcement>('POST', '/group/announcement/edit', {
      token: owner.token,
      body: { group_id: groupId, title: 'gone', content: 'gone' },
    });
    const goneFile = await g.emu.ok<SharedFile>('POST', '/group/file/upload', {
      token: member.token,
      body: { group_id: groupId, name: 'gone.txt', size: 1, url: 'http://files/gone.txt' },
    });
    const ids = { a: globalId('Announcement', groupId, gone.id), f: globalId('SharedFile', groupId, goneFile.file_id) };
    const query = `{ a: node(id: "${ids.a}") { id } f: node(id: "${ids.f}") { id } }`;
    expect(await data(member, query, GLOBAL)).toEqual({ a: { id: ids.a }, f: { id: ids.f } });
    await g.emu.ok('DELETE', '/group/announcement/delete', { token: owner.token, query: { group_id: groupId, announcement_id: gone.id } });
    await g.emu.ok('DELETE', '/group/file/delete', { token: owner.token, body: { group_id: groupId, file_list: [goneFile.file_id] } });
    expect(await gql(member, query, GLOBAL)).toEqual({ data: { a: null, f: null } });
  });

  it("answers an invitation only to its invitee: another caller's node(id:) is null", async () => {
    const id = globalId('GroupInvitation', groupId, owner.id, invitee.id);
    expect(await gql(owner, `{ node(id: "${id}") { id } }`, GLOBAL)).toEqual({ data: { node: null } });
    expect(g.endpoints()).toEqual(['GET /group/invitation_list']);
  });

  it('answers null without an error for an object the caller may not read: a plain member reading a BlockedMember', async () => {
    const reply = await gql(member, `{ node(id: "${globalId('BlockedMember', groupId, blocked.id)}") { id } }`, GLOBAL);
    expect(reply).toEqual({ data: { node: null } });
  });

  it('reads the blacklist for node(id:) in pages of 1000 entries: one call for a short list', async () => {
    await data(owner, `{ node(id: "${globalId('BlockedMember', groupId, blocked.id)}") { id } }`, GLOBAL);
    expect(g.callsTo('GET /group/blocked_list').map((c) => c.query)).toEqual([{ group_id: String(groupId), limit: '1000' }]);
  });

  it('answers a handled application with its status, as Group.applications still lists it', async () => {
    const late = await g.user();
    await g.emu.ok('POST', '/group/apply', { token: late.token, body: { group_id: groupId } });
    await g.emu.ok('PUT', '/group/apply/handle', { token: owner.token, body: { group_id: groupId, user_id: late.id, approval: false } });
    const id = globalId('GroupApplication', groupId, late.id);
    const got = await data(owner, `{ node(id: "${id}") { ... on GroupApplication { id applicantId status } } }`, GLOBAL);
    expect(got).toEqual({ node: { id, applicantId: String(late.id), status: 'REJECTED' } });
  });

  it('answers the later of a declined invitation and a new one from the same inviter (one global ID names both)', async () => {
    const asked = await g.user({ confirm: true });
    const invite = () => g.emu.ok('POST', '/group/invite', { token: owner.token, body: { group_id: groupId, user_list: [asked.id] } });
    await invite();
    await g.emu.ok('PUT', '/group/invite/handle', { token: asked.token, body: { group_id: groupId, user_id: owner.id, approval: false } });
    await invite();
    const id = globalId('GroupInvitation', groupId, owner.id, asked.id);
    const listed = await data<{ groupInvitations: { nodes: { id: string; status: string }[] } }>(
      asked,
      '{ groupInvitations { nodes { id status } } }',
      GLOBAL,
    );
    expect(listed.groupInvitations.nodes).toEqual([
      { id, status: 'REJECTED' },
      { id, status: 'PENDING' },
    ]);
    expect(await data(asked, `{ node(id: "${id}") { ... on GroupInvitation { status } } }`, GLOBAL)).toEqual({
      node: { status: 'PENDING' },
    });
  });
});

describe('payloads naming removed members', () => {
  it("answer removedMemberIds as Member.id answers in the request's format", async () => {
    const [a, b] = [await g.user(), await g.user()];
    const group = await g.group(owner, { members: [a, b] });
    const kick = (who: TestUser) =>
      `mutation { kickGroupMembers(input: { groupId: "${group}", userIds: ["${who.id}"] }) { removedMemberIds } }`;
    expect(await data(owner, kick(a), GLOBAL)).toEqual({ kickGroupMembers: { removedMemberIds: [globalId('Member', group, a.id)] } });
    expect(await data(owner, kick(b))).toEqual({ kickGroupMembers: { removedMemberIds: [`${group}:${b.id}`] } });
  });
});

describe('findListed: how far node(id:) reads a list the service pages', () => {
  /** A list of `size` numbers the service pages by offset cursors, and the reads made. */
  function pagedList(size: number) {
    const reads: { limit: number; cursor?: string }[] = [];
    const read = async (paging: { limit: number; cursor?: string }) => {
      reads.push(paging);
      const start = Number(paging.cursor ?? 0);
      const end = Math.min(start + paging.limit, size);
      return { data: Array.from({ length: end - start }, (_v, i) => start + i), cursor: end < size ? String(end) : '' };
    };
    return { read, reads };
  }

  it('follows the service cursor, MAX_PAGE entries a read, until the entry turns up', async () => {
    const list = pagedList(2500);
    expect(await findListed(list.read, (n) => n === 2100)).toBe(2100);
    expect(list.reads).toEqual([{ limit: MAX_PAGE }, { limit: MAX_PAGE, cursor: '1000' }, { limit: MAX_PAGE, cursor: '2000' }]);
  });

  it(`stops after ${SCAN_PAGES} pages: an entry beyond them is answered as missing`, async () => {
    const list = pagedList((SCAN_PAGES + 1) * MAX_PAGE);
    expect(await findListed(list.read, (n) => n === SCAN_PAGES * MAX_PAGE)).toBeNull();
    expect(list.reads).toHaveLength(SCAN_PAGES);
  });

  it("picks the last match with 'last', reading to the end of the list", async () => {
    const list = pagedList(1500);
    expect(await findListed(list.read, (n) => n % 7 === 0, 'last')).toBe(1498);
    expect(list.reads).toHaveLength(2);
  });
});

describe('arguments taking an announcement or file ID', () => {
  it('read Group.announcement(id:) and Group.file(id:) by global ID, asking the service by its IDs', async () => {
    const a = globalId('Announcement', groupId, announcement.id);
    const f = globalId('SharedFile', groupId, file.file_id);
    const got = await data<{ group: Record<string, unknown> }>(
      member,
      `{ group(id: "${groupId}") { announcement(id: "${a}") { announcementId title } file(id: "${f}") { fileId name } } }`,
    );
    expect(got.group).toEqual({
      announcement: { announcementId: String(announcement.id), title: 'hello' },
      file: { fileId: String(file.file_id), name: 'a.txt' },
    });
    expect(g.callsTo('GET /group/announcement')[0]?.query).toEqual({ group_id: String(groupId), announcement_id: String(announcement.id) });
    expect(g.callsTo('GET /group/file')[0]?.query).toEqual({ group_id: String(groupId), file_id: String(file.file_id) });
  });

  it('deleteAnnouncement takes the global announcement ID', async () => {
    const made = await g.emu.ok<Announcement>('POST', '/group/announcement/edit', {
      token: owner.token,
      body: { group_id: groupId, title: 'short-lived', content: 'x' },
    });
    const reply = await data<{ deleteAnnouncement: { ok: boolean } }>(
      owner,
      `mutation { deleteAnnouncement(input: { groupId: "${groupId}", announcementId: "${globalId('Announcement', groupId, made.id)}" }) { ok } }`,
      GLOBAL,
    );
    expect(reply.deleteAnnouncement).toEqual({ ok: true });
    expect(g.callsTo('DELETE /group/announcement/delete')[0]?.query).toEqual({
      group_id: String(groupId),
      announcement_id: String(made.id),
    });
  });

  it('renameGroupFile and deleteGroupFiles take global file IDs', async () => {
    const upload = (name: string) =>
      g.emu.ok<SharedFile>('POST', '/group/file/upload', {
        token: member.token,
        body: { group_id: groupId, name, size: 1, url: `http://files/${name}` },
      });
    const [one, two] = [await upload('one.txt'), await upload('two.txt')];
    const [oneId, twoId] = [one, two].map((x) => globalId('SharedFile', groupId, x.file_id));
    const renamed = await data<{ renameGroupFile: { ok: boolean; file: { id: string; fileId: string; name: string } } }>(
      member,
      `mutation { renameGroupFile(input: { groupId: "${groupId}", fileId: "${oneId}", name: "uno.txt" }) { ok file { id fileId name } } }`,
      GLOBAL,
    );
    expect(renamed.renameGroupFile).toEqual({ ok: true, file: { id: oneId, fileId: String(one.file_id), name: 'uno.txt' } });
    expect(g.callsTo('PUT /group/file/update_name')[0]?.body).toEqual({ group_id: groupId, file_id: one.file_id, name: 'uno.txt' });

    const deleted = await data<{ deleteGroupFiles: { ok: boolean; results: { fileId: string }[] } }>(
      member,
      `mutation { deleteGroupFiles(input: { groupId: "${groupId}", fileIds: ["${oneId}", "${two.file_id}"] }) { ok results { fileId } } }`,
    );
    expect(deleted.deleteGroupFiles).toEqual({ ok: true, results: [{ fileId: String(one.file_id) }, { fileId: String(two.file_id) }] });
    expect(g.callsTo('DELETE /group/file/delete')[0]?.body).toEqual({ group_id: groupId, file_list: [one.file_id, two.file_id] });
    expect(twoId).not.toBe(oneId);
  });

  it.each([
    [
      'deleteAnnouncement',
      () =>
        `mutation { deleteAnnouncement(input: { groupId: "${groupId}", announcementId: "${globalId('Member', groupId, member.id)}" }) { ok } }`,
      'input.announcementId',
      'Member',
    ],
    [
      'renameGroupFile',
      () =>
        `mutation { renameGroupFile(input: { groupId: "${groupId}", fileId: "${globalId('Announcement', groupId, announcement.id)}", name: "x" }) { ok } }`,
      'input.fileId',
      'Announcement',
    ],
    [
      'deleteGroupFiles',
      () =>
        `mutation { deleteGroupFiles(input: { groupId: "${groupId}", fileIds: ["${file.file_id}", "${globalId('GroupApplication', groupId, applicant.id)}"] }) { ok } }`,
      'input.fileIds[1]',
      'GroupApplication',
    ],
  ])('%s refuses a global ID of another kind as BAD_USER_INPUT naming %s, writing nothing', async (field, query, path, kind) => {
    const reply = await gql(owner, query(), GLOBAL);
    expect(reply.data).toEqual({ [field]: null });
    const error = onlyError(reply);
    expect(error).toMatchObject({ path: [field], extensions: { code: 'BAD_USER_INPUT', field: path } });
    expect(error.message).toContain(`names a ${kind}`);
    expect(g.endpoints()).toEqual([]);
  });

  it('take global IDs in variables as in the document: node(id:), Group.file(id:), an input field; a wrong kind refused', async () => {
    const f = globalId('SharedFile', groupId, file.file_id);
    const query = `query($id: ID!, $file: ID!) { node(id: $id) { ... on SharedFile { name } } group(id: "${groupId}") { file(id: $file) { name } } }`;
    const ok = await gql(member, query, GLOBAL, { id: f, file: f });
    expect(ok).toEqual({ data: { node: { name: 'a.txt' }, group: { file: { name: 'a.txt' } } } });
    const refused = await gql(member, query, GLOBAL, { id: f, file: globalId('Member', groupId, member.id) });
    expect(onlyError(refused)).toMatchObject({ path: ['group', 'file'], extensions: { code: 'BAD_USER_INPUT', field: 'id' } });

    const rename = 'mutation($input: RenameGroupFileInput!) { renameGroupFile(input: $input) { ok } }';
    const renamed = await gql(member, rename, GLOBAL, { input: { groupId: String(groupId), fileId: f, name: 'a.txt' } });
    expect(renamed).toEqual({ data: { renameGroupFile: { ok: true } } });
    expect(g.callsTo('PUT /group/file/update_name')[0]?.body).toEqual({ group_id: groupId, file_id: file.file_id, name: 'a.txt' });
  });

  it('Group.file(id:) refuses the global ID of an announcement, the rest of the group still answered', async () => {
    const reply = await gql<{ group: { name: string; file: null } }>(
      member,
      `{ group(id: "${groupId}") { name file(id: "${globalId('Announcement', groupId, announcement.id)}") { id } } }`,
    );
    expect(reply.data?.group).toEqual({ name: 'a group', file: null });
    expect(onlyError(reply)).toMatchObject({ path: ['group', 'file'], extensions: { code: 'BAD_USER_INPUT', field: 'id' } });
    expect(g.endpoints()).not.toContain('GET /group/file');
  });
});
