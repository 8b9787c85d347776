// Cursors that name items, over real HTTP: when a list changes between two page reads (an item
// added or removed before the anchor, through the emulator's REST endpoints), the next page neither
// repeats nor skips an item. Whole lists page both ways (first/after, last/before); lists the
// service pages go forward. Positional cursors of before are refused naming the argument.
import { describe, expect, it } from 'vitest';
import type { Announcement } from '../../../src/rest/records';
import { EXISTENCE_READ, type TestUser, useGroupsStack } from '../../helpers/groups-stack';
import { onlyError } from '../../helpers/stack';

const g = useGroupsStack();

const users = (n: number) => Promise.all(Array.from({ length: n }, () => g.user()));

interface Page {
  edges: { cursor: string; node: { id: string } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}
const ids = (page: Page) => page.edges.map((e) => e.node.id);
const PAGE = 'edges { cursor node { id: userId } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

/** Variable declarations and arguments for paging arguments (`first`, `after`, `last`, `before`). */
function pagingOf(args: Record<string, unknown>) {
  const names = Object.keys(args);
  return {
    declared: names.map((k) => `$${k}: ${k === 'first' || k === 'last' ? 'Int' : 'String'}`).join(', '),
    passed: names.map((k) => `${k}: $${k}`).join(', '),
  };
}

/** One page of a group's connection field (`members`, `admins`, ...), its node ID aliased `id`. */
async function pageOf(as: TestUser, groupId: number, field: string, args: Record<string, unknown>, node = PAGE): Promise<Page> {
  const { declared, passed } = pagingOf(args);
  const reply = await g.gql<{ group: Record<string, Page> }>(
    as,
    `query($id: ID!, ${declared}) { group(id: $id) { list: ${field}(${passed}) { ${node} } } }`,
    { id: String(groupId), ...args },
  );
  expect(reply.errors).toBeUndefined();
  return reply.data!.group.list!;
}

const kick = (owner: TestUser, groupId: number, ...gone: TestUser[]) =>
  g.emu.ok('DELETE', '/group/kick', { token: owner.token, body: { group_id: groupId, user_list: gone.map((u) => u.id) } });

/** A group of 10: its owner, the 9 who joined, and the member IDs in list order. */
async function crowd() {
  const owner = await g.user();
  const joined = await users(9);
  const groupId = await g.group(owner, { members: joined });
  return { owner, joined, groupId, all: [owner, ...joined].map((u) => String(u.id)) };
}

describe('a list the service pages (members): forward, anchored on the member', () => {
  it('reads on after the page end when members before the anchor left, neither repeating nor skipping', async () => {
    const { owner, joined, groupId, all } = await crowd();
    const one = await pageOf(owner, groupId, 'members', { first: 4 });
    expect(ids(one)).toEqual(all.slice(0, 4));
    await kick(owner, groupId, joined[0]!, joined[1]!); // two members of the first page leave
    const two = await pageOf(owner, groupId, 'members', { first: 4, after: one.pageInfo.endCursor });
    expect(ids(two)).toEqual(all.slice(4, 8));
    const three = await pageOf(owner, groupId, 'members', { first: 4, after: two.pageInfo.endCursor });
    expect(ids(three)).toEqual(all.slice(8));
    expect(three.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it('resumes after an edge inside a page whose anchor moved back, and after a page read once the list changed', async () => {
    const { owner, joined, groupId, all } = await crowd();
    const one = await pageOf(owner, groupId, 'members', { first: 4 });
    const two = await pageOf(owner, groupId, 'members', { first: 4, after: one.pageInfo.endCursor });
    await kick(owner, groupId, joined[2]!); // all[3], on the first page
    // From the second edge of the second page (all[5]), and on from there.
    const fromInside = await pageOf(owner, groupId, 'members', { first: 3, after: two.edges[1]!.cursor });
    expect(ids(fromInside)).toEqual(all.slice(6, 9));
    await kick(owner, groupId, joined[3]!); // all[4], before the anchor again
    const last = await pageOf(owner, groupId, 'members', { first: 3, after: fromInside.pageInfo.endCursor });
    expect(ids(last)).toEqual(all.slice(9));
  });
});

describe('a list the service pages (applications): an item added before the anchor', () => {
  it('is not read again, nor does any page after skip one', async () => {
    const owner = await g.user();
    const [one, two] = [await g.group(owner), await g.group(owner)];
    const applicants = await users(6);
    for (const [i, u] of applicants.entries()) {
      await g.emu.ok('POST', '/group/apply', { token: u.token, body: { group_id: i < 2 ? one : two } });
    }
    const read = async (after: string | null) => {
      const reply = await g.gql<{ groupApplications: Page }>(
        owner,
        `query($ids: [ID!]!, $after: String) { groupApplications(groupIds: $ids, first: 3, after: $after) {
          edges { cursor node { id: applicantId } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
        { ids: [String(one), String(two)], after },
      );
      expect(reply.errors).toBeUndefined();
      return reply.data!.groupApplications;
    };
    const all = applicants.map((u) => String(u.id));
    const first = await read(null);
    expect(ids(first)).toEqual(all.slice(0, 3));
    // A new application to the first group lists before the anchor (the service lists group by group).
    const late = await g.user();
    await g.emu.ok('POST', '/group/apply', { token: late.token, body: { group_id: one } });
    // The read holds one item more before the anchor, so this page holds one less: a short page, said to have more.
    const second = await read(first.pageInfo.endCursor);
    expect(ids(second)).toEqual(all.slice(3, 5));
    expect(second.pageInfo.hasNextPage).toBe(true);
    const third = await read(second.pageInfo.endCursor);
    expect(ids(third)).toEqual(all.slice(5));
    expect(third.pageInfo.hasNextPage).toBe(false);
  });
});

describe('a whole list (announcements): both ways, anchored on the time and the announcement', () => {
  const publish = (owner: TestUser, groupId: number, title: string) =>
    g.emu.ok<Announcement>('POST', '/group/announcement/edit', { token: owner.token, body: { group_id: groupId, title, content: title } });
  const remove = (owner: TestUser, groupId: number, a: Announcement) =>
    g.emu.ok('DELETE', '/group/announcement/delete', { token: owner.token, query: { group_id: groupId, announcement_id: a.id } });
  const NODE = 'edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

  it('reads on after a page when one is published on top and one before the anchor is deleted, then back with last/before', async () => {
    const owner = await g.user();
    const groupId = await g.group(owner);
    const made: Announcement[] = [];
    for (let i = 0; i < 6; i++) made.push(await publish(owner, groupId, `a${i}`));
    const newest = made.map((a) => String(a.id)).reverse();
    const one = await pageOf(owner, groupId, 'announcements', { first: 3 }, NODE);
    expect(ids(one)).toEqual(newest.slice(0, 3));
    const fresh = await publish(owner, groupId, 'fresh');
    await remove(owner, groupId, made[5]!); // the newest of the first page
    const two = await pageOf(owner, groupId, 'announcements', { first: 3, after: one.pageInfo.endCursor }, NODE);
    expect(ids(two)).toEqual(newest.slice(3, 6));
    expect(two.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    // Backwards from the first page's start: what was published on top since.
    const above = await pageOf(owner, groupId, 'announcements', { last: 5, before: one.pageInfo.startCursor }, NODE);
    expect(ids(above)).toEqual([String(fresh.id)]);
    expect(above.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    // And the whole list backwards from its end, two at a time.
    const seen: string[] = [];
    let before: string | null = null;
    for (let more = true, pages = 0; more && pages < 5; pages++) {
      const page: Page = await pageOf(owner, groupId, 'announcements', { last: 2, ...(before ? { before } : {}) }, NODE);
      seen.unshift(...ids(page));
      more = page.pageInfo.hasPreviousPage;
      before = page.pageInfo.startCursor;
    }
    expect(seen).toEqual([String(fresh.id), ...newest.slice(1)]);
  });
});

describe('a whole list in ascending order (admins, by join time): anchored on the time and the admin', () => {
  it('reads on when a member who joined before the anchor becomes an admin, and when admins before it step down', async () => {
    const owner = await g.user();
    const [early] = await users(1);
    const admins = await users(5);
    const groupId = await g.group(owner, { members: [early!], admins });
    const all = admins.map((u) => String(u.id));
    const one = await pageOf(owner, groupId, 'admins', { first: 2 });
    expect(ids(one)).toEqual(all.slice(0, 2));
    const body = (u: TestUser) => ({ group_id: groupId, user_list: [u.id] });
    await g.emu.ok('POST', '/group/admin/add', { token: owner.token, body: body(early!) }); // listed first
    const two = await pageOf(owner, groupId, 'admins', { first: 2, after: one.pageInfo.endCursor });
    expect(ids(two)).toEqual(all.slice(2, 4));
    for (const gone of admins.slice(0, 2)) await g.emu.ok('DELETE', '/group/admin/remove', { token: owner.token, body: body(gone) });
    const three = await pageOf(owner, groupId, 'admins', { first: 2, after: two.pageInfo.endCursor });
    expect(ids(three)).toEqual(all.slice(4));
    expect(three.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });
});

describe('a whole list with no time (joined groups): anchored on the group', () => {
  it('reads on when a group before the anchor, or the anchor itself, is left', async () => {
    const owner = await g.user();
    const member = await g.user();
    const groups: number[] = [];
    for (let i = 0; i < 6; i++) groups.push(await g.group(owner, { members: [member] }));
    const read = async (args: Record<string, unknown>) => {
      const reply = await g.gql<{ me: { joinedGroups: Page } }>(
        member,
        `query($first: Int, $after: String) { me { joinedGroups(first: $first, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`,
        args,
      );
      expect(reply.errors).toBeUndefined();
      return reply.data!.me.joinedGroups;
    };
    const leave = (groupId: number) => g.emu.ok('DELETE', '/group/leave', { token: member.token, query: { group_id: groupId } });
    const mine = (await read({ first: 100 })).edges.map((e) => e.node.id);
    expect(mine).toEqual(groups.map(String));
    const one = await read({ first: 2 });
    await leave(groups[0]!);
    const two = await read({ first: 2, after: one.pageInfo.endCursor });
    expect(ids(two)).toEqual(mine.slice(2, 4));
    await leave(groups[3]!); // the anchor of the second page
    const three = await read({ first: 2, after: two.pageInfo.endCursor });
    expect(ids(three)).toEqual(mine.slice(4, 6));
  });
});

describe('cursors that are not item cursors of the list', () => {
  const positional = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

  it.each([
    ['members', 'after', { after: positional('3:') }],
    ['members', 'after', { after: positional('0:b86xMDA') }],
    ['admins', 'after', { after: positional('3:') }],
    ['admins', 'before', { last: 2, before: positional('3:') }],
    ['announcements', 'after', { after: positional('12:') }],
  ])('%s refuses a positional cursor of before as %s, before reading the list', async (field, arg, args) => {
    const owner = await g.user();
    const groupId = await g.group(owner);
    const { declared, passed } = pagingOf(args);
    const refused = await g.gql(owner, `query($id: ID!, ${declared}) { group(id: $id) { ${field}(${passed}) { edges { cursor } } } }`, {
      id: String(groupId),
      ...args,
    });
    expect(onlyError(refused)).toMatchObject({
      message: expect.stringMatching(new RegExp(`^${arg}: is a positional cursor of an earlier version, no longer accepted`)),
      extensions: { code: 'BAD_USER_INPUT', field: arg },
    });
    expect(g.endpoints()).toEqual(EXISTENCE_READ);
  });

  it("refuses one list's cursor given to another", async () => {
    const owner = await g.user();
    const groupId = await g.group(owner, { members: await users(2), admins: await users(2) });
    const members = await pageOf(owner, groupId, 'members', { first: 1 });
    const admins = await pageOf(owner, groupId, 'admins', { first: 1 });
    const refused = await g.gql(owner, `query($id: ID!, $a: String) { group(id: $id) { admins(after: $a) { totalCount } } }`, {
      id: String(groupId),
      a: members.pageInfo.endCursor,
    });
    expect(onlyError(refused)).toMatchObject({ message: 'after: is not a cursor of this list', extensions: { field: 'after' } });
    const back = await g.gql(owner, `query($id: ID!, $a: String) { group(id: $id) { members(after: $a) { totalCount } } }`, {
      id: String(groupId),
      a: admins.pageInfo.endCursor,
    });
    expect(onlyError(back)).toMatchObject({ message: 'after: is not a cursor of this list', extensions: { field: 'after' } });
  });
});
