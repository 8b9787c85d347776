// Relay-correct connections as a real client uses them: Apollo Client's InMemoryCache with
// relayStylePagination, over HTTP against the gateway, pages a 250-member group and holds every
// member exactly once; any edge's cursor resumes right after that edge. A group's announcements,
// paged forward while new ones arrive on top and backward for those, end up once each, in order.
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Announcement, Group, UserBatchResult } from '../../../src/rest/records';
import { startStack, type Stack } from '../../helpers/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

const MEMBERS = gql`
  query Members($id: ID!, $first: Int, $after: String) {
    group(id: $id) {
      id
      members(first: $first, after: $after) {
        edges {
          cursor
          node {
            userId
          }
        }
        pageInfo {
          hasNextPage
          hasPreviousPage
          startCursor
          endCursor
        }
      }
    }
  }
`;

interface MembersData {
  group: {
    id: string;
    members: {
      edges: { cursor: string; node: { userId: string } }[];
      pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
    };
  };
}

/** A group of `size` members (the owner among them), registered in one batch; answers its ID and member IDs. */
async function bigGroup(size: number) {
  const { emu } = stack;
  const owner = await emu.user();
  const list = Array.from({ length: size - 1 }, (_, i) => ({ username: `m${i}_${Date.now().toString(36)}`, password: 'secret-1' }));
  const made = await emu.ok<UserBatchResult[]>('POST', '/user/register/batch', { token: emu.adminToken, body: { list } });
  const ids = made.map((r) => Number(r.user_id));
  const g = await emu.ok<Group>('POST', '/group/create', { token: owner.token, body: { name: 'crowd', user_list: ids } });
  return { owner, groupId: String(g.group_id), memberIds: [owner.id, ...ids].map(String) };
}

function apolloFor(token: string) {
  return new ApolloClient({
    link: new HttpLink({ uri: `${stack.url}/graphql`, fetch, headers: { app_id: stack.emu.appId, 'access-token': token } }),
    cache: new InMemoryCache({
      typePolicies: { Group: { fields: { members: relayStylePagination(), announcements: relayStylePagination() } } },
    }),
  });
}

describe("Apollo Client's relayStylePagination", () => {
  it('pages a 250-member group and holds every member exactly once', async () => {
    const { owner, groupId, memberIds } = await bigGroup(250);
    const client = apolloFor(owner.token);
    let after: string | null = null;
    let pages = 0;
    for (let more = true; more && pages < 10; pages++) {
      const page: { data?: MembersData } = await client.query<MembersData>({
        query: MEMBERS,
        variables: { id: groupId, first: 60, after },
        fetchPolicy: 'network-only',
      });
      const info = page.data!.group.members.pageInfo;
      more = info.hasNextPage;
      after = info.endCursor;
    }
    expect(pages).toBe(5);
    const merged = client.readQuery<MembersData>({ query: MEMBERS, variables: { id: groupId, first: 60 } });
    const seen = merged!.group.members.edges.map((e) => e.node.userId);
    expect(seen).toHaveLength(250);
    expect(new Set(seen)).toEqual(new Set(memberIds));
    expect(new Set(merged!.group.members.edges.map((e) => e.cursor)).size).toBe(250);
  });
});

const ANNOUNCEMENTS = gql`
  query Announcements($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
    group(id: $id) {
      id
      announcements(first: $first, after: $after, last: $last, before: $before) {
        edges {
          cursor
          node {
            id
            title
          }
        }
        pageInfo {
          hasNextPage
          hasPreviousPage
          startCursor
          endCursor
        }
      }
    }
  }
`;

interface AnnouncementsData {
  group: {
    id: string;
    announcements: {
      edges: { cursor: string; node: { id: string; title: string } }[];
      pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
    };
  };
}

describe("Apollo Client's relayStylePagination, both ways", () => {
  it('holds every announcement once, newest first, when some are published between pages and read back with last/before', async () => {
    const { owner, groupId } = await bigGroup(2);
    const publish = (title: string) =>
      stack.emu.ok<Announcement>('POST', '/group/announcement/edit', {
        token: owner.token,
        body: { group_id: groupId, title, content: title },
      });
    for (let i = 0; i < 5; i++) await publish(`old ${i}`);
    const client = apolloFor(owner.token);
    const read = async (variables: Record<string, unknown>) =>
      (
        await client.query<AnnouncementsData>({
          query: ANNOUNCEMENTS,
          variables: { id: groupId, ...variables },
          fetchPolicy: 'network-only',
        })
      ).data!.group.announcements;
    const first = await read({ first: 3 });
    await publish('new 0');
    await publish('new 1');
    const rest = await read({ first: 3, after: first.pageInfo.endCursor });
    expect(rest.pageInfo.hasNextPage).toBe(false);
    const top = await read({ last: 3, before: first.pageInfo.startCursor });
    expect(top.pageInfo.hasPreviousPage).toBe(false);
    const merged = client.readQuery<AnnouncementsData>({ query: ANNOUNCEMENTS, variables: { id: groupId } });
    expect(merged!.group.announcements.edges.map((e) => e.node.title)).toEqual([
      'new 1',
      'new 0',
      'old 4',
      'old 3',
      'old 2',
      'old 1',
      'old 0',
    ]);
  });
});

describe('edge cursors', () => {
  it('resume right after their own edge, inside a page as at its end', async () => {
    const { owner, groupId } = await bigGroup(12);
    const read = async (first: number, after: string | null) => {
      const reply = await stack.gql<MembersData>(MEMBERS.loc!.source.body, { id: groupId, first, after }, { 'access-token': owner.token });
      expect(reply.errors).toBeUndefined();
      return reply.data!.group.members;
    };
    const all = await read(12, null);
    expect(all.pageInfo).toMatchObject({
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: all.edges[0]!.cursor,
      endCursor: all.edges[11]!.cursor,
    });
    const ids = all.edges.map((e) => e.node.userId);

    const page = await read(5, null);
    for (const [i, edge] of page.edges.entries()) {
      const next = await read(3, edge.cursor);
      expect(next.edges.map((e) => e.node.userId)).toEqual(ids.slice(i + 1, i + 4));
      expect(next.pageInfo.hasPreviousPage).toBe(true);
      // And from there on: the cursor of a resumed page resumes too.
      const after = await read(2, next.edges[2]!.cursor);
      expect(after.edges.map((e) => e.node.userId)).toEqual(ids.slice(i + 4, i + 6));
    }
  });

  it('refuses a cursor that is not one before reading the members: only the group existence read is made', async () => {
    const { owner, groupId } = await bigGroup(2);
    stack.emu.server.resetCalls();
    const reply = await stack.gql(MEMBERS.loc!.source.body, { id: groupId, after: 'bm90IGEgY3Vyc29y' }, { 'access-token': owner.token });
    expect(reply.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
    expect(stack.emu.server.calls.map((c) => c.endpoint)).toEqual(['POST /group/info/batch']);
  });
});
