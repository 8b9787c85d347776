// One group's life over real HTTP: creation with invitations (group_confirm on and off),
// applications under each apply_approval, admins, bans, a ban-all, announcements, shared files,
// an ownership transfer and the dissolution.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Announcement, Group, GroupApplication, Member, OperationResult, SharedFile } from '../../../src/rest/records';
import { as, type GroupsWorld, startGroupsWorld, type TestUser } from '../../helpers/groups-world';

let w: GroupsWorld;
beforeAll(async () => {
  w = await startGroupsWorld();
});
afterAll(() => w.emu.stop());

it('runs a group from creation to dissolution', async () => {
  const { emu } = w;
  const [owner, alice, carol, dave, erin] = await Promise.all([w.user(), w.user(), w.user(), w.user(), w.user()]);
  // bob asks to confirm invitations (PUT /user/settings, group_confirm true).
  const bob = await w.user({ confirm: true });
  expect((await emu.ok<{ group_confirm: boolean }>('GET', '/user/settings', as(bob))).group_confirm).toBe(true);

  const members = async (g: number) =>
    (await emu.ok<Member[]>('GET', '/group/member_list', { token: emu.adminToken, query: { group_id: g } })).map((m) => m.user_id);
  const send = (u: TestUser, g: number, content: string) =>
    w.code('PUT', '/message/send', as(u, { body: { content_type: 0, content, attachment: '', targets: [g], type: 2 } }));

  // 1. Create: alice joins at once, bob is invited and accepts.
  const created = await emu.ok<Group>('POST', '/group/create', as(owner, { body: { name: 'Hikers', user_list: [alice.id, bob.id] } }));
  const g = Number(created.group_id);
  expect(created).toMatchObject({ owner_id: owner.id, count: 2, status: 0 });
  expect(await members(g)).toEqual([owner.id, alice.id]);
  expect(await emu.ok('PUT', '/group/invite/handle', as(bob, { body: { group_id: g, user_id: owner.id, approval: true } }))).toBe(true);
  expect(await members(g)).toEqual([owner.id, alice.id, bob.id]);

  // 2. Admins.
  const promoted = await emu.ok<OperationResult[]>('POST', '/group/admin/add', as(owner, { body: { group_id: g, user_list: [alice.id] } }));
  expect(promoted).toEqual([{ user_id: alice.id, result: 'success', reason: '' }]);

  // 3. Applications under each policy.
  const approval = (value: number) =>
    emu.ok('PUT', '/group/settings/require_admin_approval', as(alice, { body: { group_id: g, apply_approval: value } }));
  await approval(0);
  expect((await emu.ok<OperationResult>('POST', '/group/apply', as(carol, { body: { group_id: g } }))).result).toBe('success');
  await approval(1);
  await emu.ok('POST', '/group/apply', as(dave, { body: { group_id: g, reason: 'I like hiking' } }));
  const pending = await emu.ok<GroupApplication[]>('POST', '/group/application_list', as(alice, { body: { group_list: [g] } }));
  expect(pending).toEqual([expect.objectContaining({ applicant_id: dave.id, status: 0, reason: 'I like hiking' })]);
  await emu.ok('PUT', '/group/apply/handle', as(alice, { body: { group_id: g, user_id: dave.id, approval: true } }));
  await approval(2);
  expect((await emu.ok<OperationResult>('POST', '/group/apply', as(erin, { body: { group_id: g } }))).result).toBe('fail');
  expect(await members(g)).toEqual([owner.id, alice.id, bob.id, carol.id, dave.id]);

  // 4. A member ban: carol cannot send, bob can.
  await emu.ok('POST', '/group/ban', as(alice, { body: { group_id: g, duration: 5, user_list: [carol.id] } }));
  expect(await send(carol, g, 'let me talk')).toBe(10010);
  expect(await send(bob, g, 'hello')).toBe(200);
  const banned = await emu.ok<Member[]>('GET', '/group/banned_list', as(bob, { query: { group_id: g } }));
  expect(banned.map((m) => m.user_id)).toEqual([carol.id]);

  // 5. The group is banned for all: only the owner and admins speak.
  await emu.ok('POST', '/group/settings/ban_all', as(owner, { body: { group_id: g, duration: 10 } }));
  expect(await send(bob, g, 'still here?')).toBe(10010);
  expect(await send(alice, g, 'quiet please')).toBe(200);
  await emu.ok('POST', '/group/settings/unban_all', as(alice, { body: { group_id: g } }));
  expect(await send(bob, g, 'thanks')).toBe(200);

  // 6. Announcements.
  const note = await emu.ok<Announcement>(
    'POST',
    '/group/announcement/edit',
    as(alice, { body: { group_id: g, title: 'Trip', content: 'Saturday 8am' } }),
  );
  expect(await emu.ok('GET', '/group/announcement/last', as(dave, { query: { group_id: g } }))).toEqual(note);
  await emu.ok('DELETE', '/group/announcement/delete', as(owner, { query: { group_id: g, announcement_id: note.id } }));
  expect(await w.code('GET', '/group/announcement/last', as(dave, { query: { group_id: g } }))).toBe(20020);

  // 7. Shared files.
  const map = await emu.ok<SharedFile>(
    'POST',
    '/group/file/upload',
    as(bob, { body: { group_id: g, name: 'map.pdf', size: 2048, url: 'http://x/map.pdf' } }),
  );
  expect(await w.code('PUT', '/group/file/update_name', as(dave, { body: { group_id: g, file_id: map.file_id, name: 'mine.pdf' } }))).toBe(
    20023,
  );
  await emu.ok('PUT', '/group/file/update_name', as(alice, { body: { group_id: g, file_id: map.file_id, name: 'route.pdf' } }));
  const files = await emu.ok<SharedFile[]>('GET', '/group/file/list', as(carol, { query: { group_id: g } }));
  expect(files.map((f) => f.name)).toEqual(['route.pdf']);
  const deleted = await emu.ok<{ result: string }[]>(
    'DELETE',
    '/group/file/delete',
    as(bob, { body: { group_id: g, file_list: [map.file_id] } }),
  );
  expect(deleted.map((r) => r.result)).toEqual(['success']);

  // 8. Ownership goes to alice; the old owner is a plain member and may now leave.
  await emu.ok('PUT', '/group/transfer', as(owner, { body: { group_id: g, new_owner: alice.id } }));
  expect((await w.info(g)).owner_id).toBe(alice.id);
  expect(await w.code('DELETE', '/group/destroy', as(owner, { query: { group_id: g } }))).toBe(20013);
  expect(await emu.ok('DELETE', '/group/leave', as(owner, { query: { group_id: g } }))).toBe(true);
  expect(await members(g)).toEqual([alice.id, bob.id, carol.id, dave.id]);

  // 9. Dissolution: readable, but closed for everything else.
  expect(await emu.ok('DELETE', '/group/destroy', as(alice, { query: { group_id: g } }))).toBe(true);
  expect(await w.info(g)).toMatchObject({ status: 1, owner_id: alice.id, count: 4 });
  expect(await emu.ok('GET', '/group/user_joined', as(bob))).toEqual([]);
  expect(await send(bob, g, 'anyone?')).toBe(20001);
  expect(await w.code('GET', '/group/member_list', as(alice, { query: { group_id: g } }))).toBe(20001);
});
