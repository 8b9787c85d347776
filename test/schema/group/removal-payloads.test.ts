// Removal payloads name what they removed by the removed objects' own `id` (as the list showed it,
// in either ID format), so Relay's @deleteEdge and a one-line cache eviction work: kicked, blocked
// and leaving members, a deleted announcement, deleted shared files, unblocked blacklist entries.
// A refused removal names nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Announcement, SharedFile } from '../../../src/rest/records';
import { type Caller, type TestUser, useGroupsStack } from '../../helpers/groups-stack';

const g = useGroupsStack();

const FORMATS = [
  ['service IDs', {}],
  ['global IDs', { 'x-id-format': 'global' }],
] as const;

async function data<T>(as: Caller, query: string, headers: Record<string, string>): Promise<T> {
  g.emu.mark();
  const reply = await g.stack.gql<T>(query, {}, { 'access-token': as === 'admin' ? g.emu.adminToken : as.token, ...headers });
  expect(reply.errors).toBeUndefined();
  return reply.data!;
}

type Ids = { group: Record<string, { nodes: { id: string; userId?: string }[] }> };

/** The `id`s a group's list answers, in `headers`' ID format. */
const listed = async (as: TestUser, groupId: number, list: string, headers: Record<string, string>) =>
  (await data<Ids>(as, `{ group(id: "${groupId}") { ${list}(first: 50) { nodes { id } } } }`, headers)).group[list]!.nodes.map((n) => n.id);

/** Member.id of `member` in the group, as `as` reads it in `headers`' ID format. */
const memberId = async (as: TestUser, groupId: number, member: TestUser, headers: Record<string, string>) =>
  (await data<{ group: { member: { id: string } } }>(as, `{ group(id: "${groupId}") { member(userId: "${member.id}") { id } } }`, headers))
    .group.member.id;

let owner: TestUser;
beforeAll(async () => {
  owner = await g.user();
});

for (const [format, headers] of FORMATS) {
  describe(`removal payloads (${format})`, () => {
    it('kickGroupMembers names the kicked members by Member.id, and the kicked users', async () => {
      const [a, b] = await Promise.all([g.user(), g.user()]);
      const groupId = await g.group(owner, { members: [a, b] });
      const before = await data<Ids>(owner, `{ group(id: "${groupId}") { members(first: 10) { nodes { id userId } } } }`, headers);
      const aId = before.group.members!.nodes.find((n) => n.userId === String(a.id))!.id;
      const got = await data<{ kickGroupMembers: unknown }>(
        owner,
        `mutation { kickGroupMembers(input: { groupId: "${groupId}", userIds: ["${a.id}"] }) { ok removedUserIds removedMemberIds } }`,
        headers,
      );
      expect(got.kickGroupMembers).toEqual({ ok: true, removedUserIds: [String(a.id)], removedMemberIds: [aId] });
      expect(await listed(owner, groupId, 'members', headers)).not.toContain(aId);
    });

    it('leaveGroup names the leaving member by Member.id', async () => {
      const a = await g.user();
      const groupId = await g.group(owner, { members: [a] });
      const mine = await memberId(a, groupId, a, headers);
      const got = await data<{ leaveGroup: unknown }>(a, `mutation { leaveGroup(groupId: "${groupId}") { ok removedMemberIds } }`, headers);
      expect(got.leaveGroup).toEqual({ ok: true, removedMemberIds: [mine] });
    });

    it('deleteAnnouncement names the announcement by Announcement.id', async () => {
      const groupId = await g.group(owner);
      const made = await g.emu.ok<Announcement>('POST', '/group/announcement/edit', {
        token: owner.token,
        body: { group_id: groupId, title: 'old', content: 'news' },
      });
      const [id] = await listed(owner, groupId, 'announcements', headers);
      const got = await data<{ deleteAnnouncement: unknown }>(
        owner,
        `mutation { deleteAnnouncement(input: { groupId: "${groupId}", announcementId: "${made.id}" }) { ok deletedAnnouncementId } }`,
        headers,
      );
      expect(got.deleteAnnouncement).toEqual({ ok: true, deletedAnnouncementId: id });
      expect(await listed(owner, groupId, 'announcements', headers)).toEqual([]);
    });

    it('deleteGroupFiles names the deleted files by SharedFile.id, leaving out those it did not delete', async () => {
      const groupId = await g.group(owner);
      const file = await g.emu.ok<SharedFile>('POST', '/group/file/upload', {
        token: owner.token,
        body: { group_id: groupId, name: 'a.txt', size: 1, url: 'http://files.example/a.txt' },
      });
      const [id] = await listed(owner, groupId, 'files', headers);
      const got = await data<{ deleteGroupFiles: { ok: boolean; deletedFileIds: string[] } }>(
        owner,
        `mutation { deleteGroupFiles(input: { groupId: "${groupId}", fileIds: ["${file.file_id}", "999999"] }) { ok deletedFileIds } }`,
        headers,
      );
      expect(got.deleteGroupFiles).toEqual({ ok: false, deletedFileIds: [id] });
    });

    it('unblockGroupUsers names the removed blacklist entries by BlockedMember.id; blockGroupUsers the removed members', async () => {
      const a = await g.user();
      const groupId = await g.group(owner, { members: [a] });
      const aId = await memberId(owner, groupId, a, headers);
      const blocked = await data<{ blockGroupUsers: unknown }>(
        owner,
        `mutation { blockGroupUsers(input: { groupId: "${groupId}", userIds: ["${a.id}"] }) { ok removedMemberIds removedBlockedMemberIds } }`,
        headers,
      );
      expect(blocked.blockGroupUsers).toEqual({ ok: true, removedMemberIds: [aId], removedBlockedMemberIds: [] });
      const [entryId] = await listed(owner, groupId, 'blockedUsers', headers);
      const got = await data<{ unblockGroupUsers: unknown }>(
        owner,
        `mutation { unblockGroupUsers(input: { groupId: "${groupId}", userIds: ["${a.id}"] }) { ok removedBlockedMemberIds removedMemberIds } }`,
        headers,
      );
      expect(got.unblockGroupUsers).toEqual({ ok: true, removedBlockedMemberIds: [entryId], removedMemberIds: [] });
      expect(await listed(owner, groupId, 'blockedUsers', headers)).toEqual([]);
    });
  });
}

describe('a refused removal', () => {
  it('names nothing: a plain member deleting an announcement gets a userError and deletedAnnouncementId null', async () => {
    const a = await g.user();
    const groupId = await g.group(owner, { members: [a] });
    const made = await g.emu.ok<Announcement>('POST', '/group/announcement/edit', {
      token: owner.token,
      body: { group_id: groupId, title: 'kept', content: 'news' },
    });
    const got = await data<{ deleteAnnouncement: unknown }>(
      a,
      `mutation { deleteAnnouncement(input: { groupId: "${groupId}", announcementId: "${made.id}" }) { ok userErrors { code } deletedAnnouncementId } }`,
      {},
    );
    expect(got.deleteAnnouncement).toEqual({ ok: false, userErrors: [{ code: 'NOT_GROUP_ADMIN' }], deletedAnnouncementId: null });
  });
});
