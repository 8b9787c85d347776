// A removal's payload names the removed objects by their `id`, so an Apollo Client 4 app drops
// them from every cached list with one line in `update`: evict the object by that ID. Checked for
// an announcement, shared files, blacklist entries, a member who left and a device, with global
// IDs (X-ID-Format: global) and without them; Apollo warns about nothing on the way.
import { ApolloClient, type ApolloCache, gql, HttpLink, InMemoryCache, type TypedDocumentNode } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectNoConsoleWarnings } from '../helpers/apollo-warnings';
import type { Announcement, SharedFile } from '../../src/rest/records';
import { type TestUser, useGroupsStack } from '../helpers/groups-stack';
import { loginOnDevice } from '../helpers/users';

const g = useGroupsStack();

/** An Apollo client acting as `user`; `ids: 'global'` asks for global IDs (X-ID-Format). */
function apolloFor(user: TestUser, ids?: 'global') {
  const headers: Record<string, string> = { app_id: g.emu.appId, 'access-token': user.token };
  if (ids) headers['x-id-format'] = ids;
  return new ApolloClient({
    link: new HttpLink({ uri: `${g.stack.url}/graphql`, fetch, headers }),
    cache: new InMemoryCache({
      typePolicies: {
        Group: {
          fields: {
            members: relayStylePagination(),
            announcements: relayStylePagination(),
            files: relayStylePagination(),
            blockedUsers: relayStylePagination(),
          },
        },
        User: { fields: { devices: relayStylePagination() } },
      },
    }),
  });
}

/** The one line an app writes: evict each removed object by its type and the ID the payload names. */
const evict = (cache: ApolloCache, typename: string, ids: readonly (string | null)[]) =>
  ids.forEach((id) => id && cache.evict({ id: cache.identify({ __typename: typename, id }) }));

/** A removal mutation's document: `mutation.field` names what it removed. */
type Removal<M extends string, F extends string, T = string[]> = TypedDocumentNode<Record<M, Record<F, T>>, Record<string, unknown>>;

expectNoConsoleWarnings();

type Listed = { group: Record<string, { edges: { node: { id: string } }[] }> };

/** A group screen's list, as its query reads it. */
const LIST = (list: 'announcements' | 'files' | 'blockedUsers' | 'members') =>
  gql`
    query List($id: ID!) {
      group(id: $id) {
        id
        ${list}(first: 20) {
          edges {
            cursor
            node {
              id
            }
          }
          pageInfo {
            hasNextPage
            endCursor
          }
        }
      }
    }
  ` as TypedDocumentNode<Listed, { id: string }>;

/** Reads the list into the cache, and answers what the cache then holds after `remove()`. */
async function listAfter(
  client: ReturnType<typeof apolloFor>,
  list: Parameters<typeof LIST>[0],
  groupId: number,
  remove: () => Promise<unknown>,
) {
  const query = LIST(list);
  const variables = { id: String(groupId) };
  const before = await client.query({ query, variables, fetchPolicy: 'network-only' });
  await remove();
  const after = client.readQuery({ query, variables });
  const ids = (data: Listed | null | undefined) => data?.group[list]!.edges.map((e) => e.node.id) ?? [];
  return { before: ids(before.data), after: ids(after) };
}

let owner: TestUser;
beforeAll(async () => {
  owner = await g.user();
});

for (const ids of [undefined, 'global'] as const) {
  describe(`one eviction by the payload's ID drops the object from the cached list (${ids ?? 'service'} IDs)`, () => {
    it('deleteAnnouncement: deletedAnnouncementId', async () => {
      const groupId = await g.group(owner);
      const body = (title: string) => ({ group_id: groupId, title, content: 'news' });
      const gone = await g.emu.ok<Announcement>('POST', '/group/announcement/edit', { token: owner.token, body: body('gone') });
      await g.emu.ok('POST', '/group/announcement/edit', { token: owner.token, body: body('kept') });
      const client = apolloFor(owner, ids);
      const { before, after } = await listAfter(client, 'announcements', groupId, () =>
        client.mutate({
          mutation: gql`
            mutation Delete($g: ID!, $a: ID!) {
              deleteAnnouncement(input: { groupId: $g, announcementId: $a }) {
                ok
                deletedAnnouncementId
              }
            }
          ` as Removal<'deleteAnnouncement', 'deletedAnnouncementId', string | null>,
          variables: { g: String(groupId), a: String(gone.id) },
          update: (cache, { data }) => evict(cache, 'Announcement', [data?.deleteAnnouncement.deletedAnnouncementId ?? null]),
        }),
      );
      expect(before).toHaveLength(2);
      expect(after).toHaveLength(1);
    });

    it('deleteGroupFiles: deletedFileIds', async () => {
      const groupId = await g.group(owner);
      const file = (name: string) =>
        g.emu.ok<SharedFile>('POST', '/group/file/upload', {
          token: owner.token,
          body: { group_id: groupId, name, size: 1, url: `http://files.example/${name}` },
        });
      const gone = await file('gone.txt');
      await file('kept.txt');
      const client = apolloFor(owner, ids);
      const { before, after } = await listAfter(client, 'files', groupId, () =>
        client.mutate({
          mutation: gql`
            mutation DeleteFiles($g: ID!, $f: [ID!]!) {
              deleteGroupFiles(input: { groupId: $g, fileIds: $f }) {
                ok
                deletedFileIds
              }
            }
          ` as Removal<'deleteGroupFiles', 'deletedFileIds'>,
          variables: { g: String(groupId), f: [String(gone.file_id)] },
          update: (cache, { data }) => evict(cache, 'SharedFile', data?.deleteGroupFiles.deletedFileIds ?? []),
        }),
      );
      expect(before).toHaveLength(2);
      expect(after).toHaveLength(1);
    });

    it('unblockGroupUsers: removedBlockedMemberIds', async () => {
      const [a, b] = await Promise.all([g.user(), g.user()]);
      const groupId = await g.group(owner);
      await g.emu.ok('POST', '/group/block', { token: owner.token, body: { group_id: groupId, user_list: [a.id, b.id] } });
      const client = apolloFor(owner, ids);
      const { before, after } = await listAfter(client, 'blockedUsers', groupId, () =>
        client.mutate({
          mutation: gql`
            mutation Unblock($g: ID!, $u: [ID!]!) {
              unblockGroupUsers(input: { groupId: $g, userIds: $u }) {
                ok
                removedBlockedMemberIds
              }
            }
          ` as Removal<'unblockGroupUsers', 'removedBlockedMemberIds'>,
          variables: { g: String(groupId), u: [String(a.id)] },
          update: (cache, { data }) => evict(cache, 'BlockedMember', data?.unblockGroupUsers.removedBlockedMemberIds ?? []),
        }),
      );
      expect(before).toHaveLength(2);
      expect(after).toHaveLength(1);
    });

    it("leaveGroup: removedMemberNodeIds, in the leaver's cached member list", async () => {
      const [a, b] = await Promise.all([g.user(), g.user()]);
      const groupId = await g.group(owner, { members: [a, b] });
      const client = apolloFor(a, ids);
      const { before, after } = await listAfter(client, 'members', groupId, () =>
        client.mutate({
          mutation: gql`
            mutation Leave($g: ID!) {
              leaveGroup(groupId: $g) {
                ok
                removedMemberNodeIds
              }
            }
          ` as Removal<'leaveGroup', 'removedMemberNodeIds'>,
          variables: { g: String(groupId) },
          update: (cache, { data }) => evict(cache, 'Member', data?.leaveGroup.removedMemberNodeIds ?? []),
        }),
      );
      expect(before).toHaveLength(3);
      expect(after).toHaveLength(2);
    });

    it("kickGroupMembers: removedMemberNodeIds, in the admin's cached member list", async () => {
      const [a, b] = await Promise.all([g.user(), g.user()]);
      const groupId = await g.group(owner, { members: [a, b] });
      const client = apolloFor(owner, ids);
      const { before, after } = await listAfter(client, 'members', groupId, () =>
        client.mutate({
          mutation: gql`
            mutation Kick($g: ID!, $u: [ID!]!) {
              kickGroupMembers(input: { groupId: $g, userIds: $u }) {
                ok
                removedMemberNodeIds
              }
            }
          ` as Removal<'kickGroupMembers', 'removedMemberNodeIds'>,
          variables: { g: String(groupId), u: [String(a.id), String(b.id)] },
          update: (cache, { data }) => evict(cache, 'Member', data?.kickGroupMembers.removedMemberNodeIds ?? []),
        }),
      );
      expect(before).toHaveLength(3);
      expect(after).toHaveLength(1);
    });

    it('removeDevice: removedDeviceIds', async () => {
      const u = await g.user();
      await loginOnDevice(g.stack, u, 'phone');
      await loginOnDevice(g.stack, u, 'tablet');
      const client = apolloFor(u, ids);
      const DEVICES = gql`
        query Devices {
          me {
            id
            devices(first: 10) {
              edges {
                cursor
                node {
                  id
                  deviceSn
                }
              }
              pageInfo {
                hasNextPage
                endCursor
              }
            }
          }
        }
      ` as TypedDocumentNode<{ me: { devices: { edges: { node: { deviceSn: number } }[] } } }>;
      const before = await client.query({ query: DEVICES, fetchPolicy: 'network-only' });
      const sns = (data: typeof before.data | null | undefined) => data?.me.devices.edges.map((e) => e.node.deviceSn) ?? [];
      expect(sns(before.data)).toEqual([1, 2]);
      await client.mutate({
        mutation: gql`
          mutation RemoveDevice($sn: Int!) {
            removeDevice(input: { deviceSn: $sn }) {
              ok
              removedDeviceIds
            }
          }
        ` as Removal<'removeDevice', 'removedDeviceIds'>,
        variables: { sn: 2 },
        update: (cache, { data }) => evict(cache, 'Device', data?.removeDevice.removedDeviceIds ?? []),
      });
      expect(sns(client.readQuery({ query: DEVICES }))).toEqual([1]);
    });
  });
}
