// Moderation through the gateway: member bans, the group-wide ban and the blacklist, their lists,
// and what the group reads afterwards.
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, useGroupsStack } from '../../helpers/groups-stack';
import { onlyError } from '../../helpers/stack';

const g = useGroupsStack();
let owner: TestUser;
beforeAll(async () => {
  owner = await g.user();
});

const withMembers = async (n: number) => {
  const members = await Promise.all(Array.from({ length: n }, () => g.user()));
  return { members, groupId: await g.group(owner, { members }) };
};

describe('member bans', () => {
  it('bans with POST /group/ban for minutes; bannedMembers lists them until bannedUntil', async () => {
    const { members, groupId } = await withMembers(2);
    const [a] = members;
    const before = Date.now();
    const data = await g.data<{ banGroupMembers: { ok: boolean; results: { userId: string; success: boolean }[] } }>(
      owner,
      `mutation { banGroupMembers(input: { groupId: "${groupId}", userIds: ["${a!.id}"], durationMinutes: 30 }) { ok results { userId success } } }`,
    );
    expect(data.banGroupMembers).toEqual({ ok: true, results: [{ userId: String(a!.id), success: true }] });
    expect(g.endpoints()).toEqual(['POST /group/ban']);
    expect(g.callsTo('POST /group/ban')[0]?.body).toEqual({ group_id: groupId, user_list: [a!.id], duration: 30 });

    const listed = await g.data<{ group: { bannedMembers: { totalCount: number; nodes: { userId: string; bannedUntil: string }[] } } }>(
      owner,
      `{ group(id: "${groupId}") { bannedMembers(first: 10) { totalCount nodes { userId bannedUntil } } } }`,
    );
    expect(listed.group.bannedMembers.totalCount).toBe(1);
    const [banned] = listed.group.bannedMembers.nodes;
    expect(banned?.userId).toBe(String(a!.id));
    const until = Date.parse(banned!.bannedUntil);
    expect(until).toBeGreaterThanOrEqual(before + 30 * 60_000);
    expect(until).toBeLessThan(Date.now() + 31 * 60_000);
    expect(g.callsTo('GET /group/banned_list')[0]?.query).toEqual({ group_id: String(groupId), limit: '10' });
  });

  it('unbans with POST /group/unban; the banned list is then empty', async () => {
    const { members, groupId } = await withMembers(1);
    const [a] = members;
    await g.emu.ok('POST', '/group/ban', { token: owner.token, body: { group_id: groupId, user_list: [a!.id], duration: 5 } });
    const data = await g.data<{ unbanGroupMembers: { ok: boolean; group: { bannedMembers: { totalCount: number } } } }>(
      owner,
      `mutation { unbanGroupMembers(input: { groupId: "${groupId}", userIds: ["${a!.id}"] }) { ok group { bannedMembers { totalCount } } } }`,
    );
    expect(data.unbanGroupMembers).toEqual({ ok: true, group: { bannedMembers: { totalCount: 0 } } });
    expect(g.endpoints()).toEqual(['POST /group/unban', 'GET /group/banned_list']);
    expect(g.callsTo('POST /group/unban')[0]?.body).toEqual({ group_id: groupId, user_list: [a!.id] });
  });

  it('refuses a duration below one minute, or no members, before any REST call', async () => {
    for (const [args, field] of [
      ['userIds: ["1"], durationMinutes: 0', 'input.durationMinutes'],
      ['userIds: [], durationMinutes: 5', 'input.userIds'],
    ] as const) {
      const reply = await g.gql(owner, `mutation { banGroupMembers(input: { groupId: "1", ${args} }) { ok } }`);
      expect(onlyError(reply)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
    expect(g.endpoints()).toEqual([]);
  });

  it('answers a plain member banning with a userError NOT_GROUP_ADMIN', async () => {
    const { members, groupId } = await withMembers(2);
    const data = await g.data<{ banGroupMembers: unknown }>(
      members[0]!,
      `mutation { banGroupMembers(input: { groupId: "${groupId}", userIds: ["${members[1]!.id}"], durationMinutes: 5 }) { ok userErrors { code field } } }`,
    );
    expect(data.banGroupMembers).toEqual({ ok: false, userErrors: [{ code: 'NOT_GROUP_ADMIN', field: ['input', 'groupId'] }] });
  });
});

describe('the group-wide ban', () => {
  it('bans all with POST /group/settings/ban_all and answers when it ends; the group reads it', async () => {
    const groupId = await g.group(owner);
    const data = await g.data<{
      banAllGroupMembers: {
        ok: boolean;
        bannedForAll: boolean;
        banExpiresAt: string;
        group: { bannedForAll: boolean; banExpiresAt: string };
      };
    }>(
      owner,
      `mutation { banAllGroupMembers(input: { groupId: "${groupId}", durationMinutes: 60 }) { ok bannedForAll banExpiresAt group { bannedForAll banExpiresAt } } }`,
    );
    const record = await g.info(groupId);
    const expected = new Date(Number(record.ban_expire_time) * 1000).toISOString();
    expect(data.banAllGroupMembers).toEqual({
      ok: true,
      bannedForAll: true,
      banExpiresAt: expected,
      group: { bannedForAll: true, banExpiresAt: expected },
    });
    expect(Date.parse(expected)).toBeGreaterThan(Date.now() + 59 * 60_000);
    expect(g.callsTo('POST /group/settings/ban_all')[0]?.body).toEqual({ group_id: groupId, duration: 60 });
  });

  it('shows a permanent ban as bannedForAll with no end', async () => {
    const groupId = await g.group(owner);
    // The service's own form of a permanent ban (ban_expire_time -1).
    await g.emu.ok('POST', '/group/settings/ban_all', { token: owner.token, body: { group_id: groupId, duration: -1 } });
    const data = await g.data<{ group: { bannedForAll: boolean; banExpiresAt: string | null } }>(
      owner,
      `{ group(id: "${groupId}") { bannedForAll banExpiresAt } }`,
    );
    expect(data.group).toEqual({ bannedForAll: true, banExpiresAt: null });
  });

  it('ends it with POST /group/settings/unban_all', async () => {
    const groupId = await g.group(owner);
    await g.emu.ok('POST', '/group/settings/ban_all', { token: owner.token, body: { group_id: groupId, duration: 10 } });
    const data = await g.data<{ unbanAllGroupMembers: { ok: boolean; group: { bannedForAll: boolean; banExpiresAt: null } } }>(
      owner,
      `mutation { unbanAllGroupMembers(groupId: "${groupId}") { ok group { bannedForAll banExpiresAt } } }`,
    );
    expect(data.unbanAllGroupMembers).toEqual({ ok: true, group: { bannedForAll: false, banExpiresAt: null } });
    expect(g.endpoints()).toEqual(['POST /group/settings/unban_all', 'GET /group/settings']);
    expect(g.callsTo('POST /group/settings/unban_all')[0]?.body).toEqual({ group_id: groupId });
    expect((await g.info(groupId)).ban_expire_time).toBe(0);
  });

  it('refuses a duration below one minute before any REST call', async () => {
    const reply = await g.gql(owner, 'mutation { banAllGroupMembers(input: { groupId: "1", durationMinutes: -1 }) { ok } }');
    expect(onlyError(reply)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.durationMinutes' });
    expect(g.endpoints()).toEqual([]);
  });

  it('reports an unknown group as NOT_FOUND', async () => {
    const reply = await g.gql(owner, 'mutation { unbanAllGroupMembers(groupId: "999999999") { ok } }');
    expect(onlyError(reply)?.extensions).toMatchObject({
      code: 'NOT_FOUND',
      upstreamCode: 20001,
      endpoint: 'POST /group/settings/unban_all',
    });
  });
});

describe('the blacklist', () => {
  it('blocks with POST /group/block (removing members), lists with GET /group/blocked_list, and unblocks', async () => {
    const { members, groupId } = await withMembers(1);
    const [a] = members;
    const outsider = await g.user();
    const blocked = await g.data<{ blockGroupUsers: { ok: boolean; group: { memberCount: number } } }>(
      owner,
      `mutation { blockGroupUsers(input: { groupId: "${groupId}", userIds: ["${a!.id}", "${outsider.id}"] }) { ok group { memberCount } } }`,
    );
    expect(blocked.blockGroupUsers).toEqual({ ok: true, group: { memberCount: 1 } });
    expect(g.callsTo('POST /group/block')[0]?.body).toEqual({ group_id: groupId, user_list: [a!.id, outsider.id] });

    const listed = await g.data<{
      group: { blockedUsers: { totalCount: number; nodes: { userId: string; user: { id: string }; blockedAt: string }[] } };
    }>(owner, `{ group(id: "${groupId}") { blockedUsers(first: 5) { totalCount nodes { userId user { id } blockedAt } } } }`);
    expect(listed.group.blockedUsers.totalCount).toBe(2);
    expect(listed.group.blockedUsers.nodes.map((n) => n.userId)).toEqual([String(a!.id), String(outsider.id)]);
    expect(Date.parse(listed.group.blockedUsers.nodes[0]!.blockedAt)).toBeGreaterThan(0);
    expect(g.callsTo('GET /group/blocked_list')[0]?.query).toEqual({ group_id: String(groupId), limit: '5' });

    const unblocked = await g.data<{ unblockGroupUsers: { ok: boolean; group: { blockedUsers: { totalCount: number } } } }>(
      owner,
      `mutation { unblockGroupUsers(input: { groupId: "${groupId}", userIds: ["${a!.id}"] }) { ok group { blockedUsers { totalCount } } } }`,
    );
    expect(unblocked.unblockGroupUsers).toEqual({ ok: true, group: { blockedUsers: { totalCount: 1 } } });
    expect(g.callsTo('DELETE /group/unblock')[0]?.body).toEqual({ group_id: groupId, user_list: [a!.id] });
  });

  it('reports a blocked user applying as the userError BLOCKED', async () => {
    const outsider = await g.user();
    const groupId = await g.group(owner);
    await g.emu.ok('POST', '/group/block', { token: owner.token, body: { group_id: groupId, user_list: [outsider.id] } });
    const reply = await g.gql(
      outsider,
      `mutation { applyToGroup(input: { groupId: "${groupId}" }) { ok result { success } userErrors { field code } } }`,
    );
    expect(reply).toEqual({
      data: { applyToGroup: { ok: false, result: null, userErrors: [{ field: ['input', 'groupId'], code: 'BLOCKED' }] } },
    });
    expect(g.endpoints()).toEqual(['POST /group/apply']);
  });

  it('fails the blocked list for a plain member: the connection is non-null, so its group is null', async () => {
    const { members, groupId } = await withMembers(1);
    const reply = await g.gql<{ group: null; ok: { memberCount: number } }>(
      members[0]!,
      `{ group(id: "${groupId}") { memberCount blockedUsers { totalCount } } ok: group(id: "${groupId}") { memberCount } }`,
    );
    expect(reply.data).toEqual({ group: null, ok: { memberCount: 2 } });
    expect(onlyError(reply)).toMatchObject({ path: ['group', 'blockedUsers'], extensions: { code: 'FORBIDDEN', upstreamCode: 20012 } });
  });
});

describe('ok alone', () => {
  for (const [mutation, endpoint, args] of [
    ['unbanGroupMembers', 'POST /group/unban', 'userIds: ["1"]'],
    ['blockGroupUsers', 'POST /group/block', 'userIds: ["1"]'],
    ['unblockGroupUsers', 'DELETE /group/unblock', 'userIds: ["1"]'],
    ['banAllGroupMembers', 'POST /group/settings/ban_all', 'durationMinutes: 1'],
    ['unbanAllGroupMembers', 'POST /group/settings/unban_all', ''],
  ] as const) {
    it(`${mutation} makes exactly one REST call (${endpoint}) when only ok is selected`, async () => {
      const groupId = await g.group(owner);
      const call = args ? `${mutation}(input: { groupId: "${groupId}", ${args} })` : `${mutation}(groupId: "${groupId}")`;
      await g.gql(owner, `mutation { ${call} { ok } }`);
      expect(g.endpoints()).toEqual([endpoint]);
    });
  }
});
