// Groups as wholes: create (4.16), info and settings (4.24, 4.42), batch (4.26), the info and
// settings setters (4.25, 4.27-4.29, 4.43, 4.44, 4.46-4.48, 4.54), dissolve (4.17), 4.39 and 4.53.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, GroupInvitation, GroupSummary, Member } from '../../../src/rest/records';
import { as, type GroupsWorld, startGroupsWorld } from '../../helpers/groups-world';

let w: GroupsWorld;
beforeAll(async () => {
  w = await startGroupsWorld();
});
afterAll(() => w.emu.stop());

const GROUP_FIELDS = [
  'apply_approval',
  'avatar',
  'ban_expire_time',
  'capacity',
  'count',
  'created_at',
  'description',
  'ext',
  'group_id',
  'hide_member_info',
  'history_visible',
  'member_invite',
  'member_modify',
  'msg_mute_mode',
  'msg_push_mode',
  'name',
  'owner_id',
  'read_ack',
  'status',
  'type',
  'updated_at',
];

describe('POST /group/create (4.16)', () => {
  it('makes the creator the owner and answers the full Group record', async () => {
    const owner = await w.user();
    const group = await w.emu.ok<Group>('POST', '/group/create', as(owner, { body: { name: 'Team', avatar: 'a.png', description: 'd' } }));
    expect(Object.keys(group).sort()).toEqual(GROUP_FIELDS);
    expect(group).toMatchObject({
      name: 'Team',
      avatar: 'a.png',
      description: 'd',
      ext: '',
      type: 0,
      status: 0,
      owner_id: owner.id,
      capacity: 500,
      count: 1,
      created_at: w.now(),
      updated_at: w.now(),
      apply_approval: 1,
      ban_expire_time: 0,
      history_visible: false,
      member_invite: true,
      member_modify: false,
      msg_mute_mode: 0,
      msg_push_mode: 0,
      read_ack: false,
      hide_member_info: false,
    });
    expect(group.group_id).toBeGreaterThan(1e12);
    const members = await w.emu.ok<Member[]>('GET', '/group/member_list', as(owner, { query: { group_id: group.group_id } }));
    expect(members).toEqual([{ user_id: owner.id, display_name: '', expired_time: 0, join_time: w.now() }]);
  });

  it('gives chatrooms a larger capacity', async () => {
    const owner = await w.user();
    const group = await w.emu.ok<Group>('POST', '/group/create', as(owner, { body: { type: 2 } }));
    expect(group).toMatchObject({ type: 2, capacity: 5000, name: '' });
  });

  it('adds invitees at once, or invites those whose group_confirm is true', async () => {
    const owner = await w.user();
    const plain = await w.user();
    const asking = await w.user({ confirm: true });
    const group = await w.emu.ok<Group>(
      'POST',
      '/group/create',
      as(owner, { body: { user_list: [plain.id, asking.id, owner.id, plain.id] } }),
    );
    expect(group.count).toBe(2);
    const members = await w.emu.ok<Member[]>('GET', '/group/member_list', as(owner, { query: { group_id: group.group_id } }));
    expect(members.map((m) => m.user_id)).toEqual([owner.id, plain.id]);
    const invitations = await w.emu.ok<GroupInvitation[]>('GET', '/group/invitation_list', as(asking));
    expect(invitations).toEqual([
      {
        group_id: group.group_id,
        inviter_id: owner.id,
        invitee_id: asking.id,
        reason: '',
        status: 0,
        expired_time: w.now() + w.emu.server.state.options.requestTtlMs,
        updated_at: new Date(w.now()).toISOString(),
      },
    ]);
  });

  it('refuses an unknown invitee with 10000 and creates nothing', async () => {
    const owner = await w.user();
    const reply = await w.emu.rest('POST', '/group/create', as(owner, { body: { user_list: [1234] } }));
    expect(reply.code).toBe(10000);
    expect(await w.emu.ok('GET', '/group/user_joined', as(owner))).toEqual([]);
  });

  it('refuses with 20010 when more invitees would join than the capacity holds, creating nothing', async () => {
    const owner = await w.user();
    // Invitees need no token: registered straight into the directory to keep the test fast.
    const crowd = Array.from({ length: 500 }, (_, i) => w.emu.server.state.users.register(`crowd_${i}_${owner.id}`, 'pw', w.now()).id);
    const before = [...w.emu.server.state.groups.all()].length;
    const reply = await w.emu.rest('POST', '/group/create', as(owner, { body: { user_list: crowd } }));
    expect(reply.code).toBe(20010);
    expect([...w.emu.server.state.groups.all()].length).toBe(before);
    const fits = await w.emu.ok<Group>('POST', '/group/create', as(owner, { body: { user_list: crowd.slice(1) } }));
    expect(fits.count).toBe(500);
  });

  it('acts as the user_id header with the admin token, and refuses the bare admin token with 10002', async () => {
    const owner = await w.user();
    const group = await w.emu.ok<Group>('POST', '/group/create', { token: w.emu.adminToken, userId: owner.id, body: {} });
    expect(group.owner_id).toBe(owner.id);
    expect(await w.code('POST', '/group/create', { token: w.emu.adminToken, body: {} })).toBe(10002);
  });

  it('refuses a bad type with 10002', async () => {
    const owner = await w.user();
    expect(await w.code('POST', '/group/create', as(owner, { body: { type: 1 } }))).toBe(10002);
  });
});

describe('GET /group/info, GET /group/settings (4.24, 4.42)', () => {
  it('answers the same record to members, non-members and the admin token', async () => {
    const owner = await w.user();
    const stranger = await w.user();
    const g = await w.group(owner);
    const byOwner = await w.emu.ok<Group>('GET', '/group/info', as(owner, { query: { group_id: g } }));
    expect(byOwner.owner_id).toBe(owner.id);
    expect(await w.emu.ok('GET', '/group/info', as(stranger, { query: { group_id: g } }))).toEqual(byOwner);
    expect(await w.info(g)).toEqual(byOwner);
    expect(await w.emu.ok('GET', '/group/settings', as(owner, { query: { group_id: g } }))).toEqual(byOwner);
  });

  it('answers 20001 for an unknown group', async () => {
    const u = await w.user();
    expect(await w.code('GET', '/group/info', as(u, { query: { group_id: 4_999_999_999_999 } }))).toBe(20001);
    expect(await w.code('GET', '/group/settings', as(u, { query: { group_id: 1 } }))).toBe(20001);
  });

  it('needs a token (10003)', async () => {
    expect(await w.code('GET', '/group/info', { query: { group_id: 1 } })).toBe(10003);
  });
});

describe('POST /group/info/batch (4.26)', () => {
  it('answers summaries in the order asked, each once, leaving unknown IDs out', async () => {
    const owner = await w.user();
    const a = await w.group(owner, { name: 'A' });
    const b = await w.group(owner, { name: 'B', type: 2 });
    const list = await w.emu.ok<GroupSummary[]>('POST', '/group/info/batch', as(owner, { body: { group_list: [b, 77, a, b] } }));
    expect(list).toEqual([
      {
        group_id: b,
        name: 'B',
        avatar: '',
        owner: owner.id,
        type: 2,
        status: 0,
        capacity: 5000,
        count: 1,
        apply_approval: 1,
        msg_mute_mode: 0,
        msg_push_mode: 0,
      },
      {
        group_id: a,
        name: 'A',
        avatar: '',
        owner: owner.id,
        type: 0,
        status: 0,
        capacity: 500,
        count: 1,
        apply_approval: 1,
        msg_mute_mode: 0,
        msg_push_mode: 0,
      },
    ]);
  });

  it('shows a dissolved group with status 1', async () => {
    const owner = await w.user();
    const g = await w.group(owner);
    await w.emu.ok('DELETE', '/group/destroy', as(owner, { query: { group_id: g } }));
    const [summary] = await w.emu.ok<GroupSummary[]>('POST', '/group/info/batch', as(owner, { body: { group_list: [g] } }));
    expect(summary?.status).toBe(1);
  });
});

describe('info setters (4.25, 4.27, 4.28, 4.29)', () => {
  const SETTERS = [
    ['/group/info/name', 'name'],
    ['/group/info/avatar', 'avatar'],
    ['/group/info/description', 'description'],
    ['/group/info/ext', 'ext'],
  ] as const;

  it.each(SETTERS)('%s: the owner sets it, updated_at moves', async (path, field) => {
    const owner = await w.user();
    const g = await w.group(owner);
    w.tick();
    expect(await w.emu.ok('PUT', path, as(owner, { body: { group_id: g, value: `new ${field}` } }))).toBe(true);
    const info = await w.info(g);
    expect(info[field]).toBe(`new ${field}`);
    expect(info.updated_at).toBe(w.now());
    expect(info.updated_at).toBeGreaterThan(info.created_at as number);
    // POST is accepted as well.
    await w.emu.ok('POST', path, as(owner, { body: { group_id: g, value: 'again' } }));
    expect((await w.info(g))[field]).toBe('again');
  });

  it('lets admins; members only with member_modify (else 20012); non-members never', async () => {
    const owner = await w.user();
    const admin = await w.user();
    const member = await w.user();
    const stranger = await w.user();
    const g = await w.group(owner, { members: [member], admins: [admin] });
    const setName = (u: typeof owner, value: string) => w.emu.rest('PUT', '/group/info/name', as(u, { body: { group_id: g, value } }));
    expect((await setName(admin, 'by admin')).code).toBe(200);
    expect((await setName(member, 'by member')).code).toBe(20012);
    expect((await setName(stranger, 'by stranger')).code).toBe(20012);
    expect((await w.info(g)).name).toBe('by admin');
    await w.emu.ok('PUT', '/group/settings/allow_member_modify', as(owner, { body: { group_id: g, value: true } }));
    expect((await setName(member, 'by member')).code).toBe(200);
    expect((await setName(stranger, 'by stranger')).code).toBe(20011);
    expect((await w.info(g)).name).toBe('by member');
  });

  it('lets the admin token with this group_id header or none, not with another group', async () => {
    const owner = await w.user();
    const g = await w.group(owner);
    const other = await w.group(owner);
    const admin = w.emu.adminToken;
    expect(await w.code('PUT', '/group/info/ext', { token: admin, groupId: g, body: { group_id: g, value: 'x' } })).toBe(200);
    expect(await w.code('PUT', '/group/info/ext', { token: admin, body: { group_id: g, value: 'y' } })).toBe(200);
    expect(await w.code('PUT', '/group/info/ext', { token: admin, groupId: other, body: { group_id: g, value: 'z' } })).toBe(20012);
    expect((await w.info(g)).ext).toBe('y');
  });

  it('answers 20001 for an unknown group and 10002 without a value', async () => {
    const owner = await w.user();
    const g = await w.group(owner);
    expect(await w.code('PUT', '/group/info/name', as(owner, { body: { group_id: 42, value: 'x' } }))).toBe(20001);
    expect(await w.code('PUT', '/group/info/name', as(owner, { body: { group_id: g } }))).toBe(10002);
  });
});

describe('settings setters (4.43, 4.44, 4.46, 4.47, 4.48, 4.54)', () => {
  const FLAGS = [
    ['/group/settings/allow_member_invitation', 'member_invite', false],
    ['/group/settings/allow_member_modify', 'member_modify', true],
    ['/group/settings/enable_read_ack', 'read_ack', true],
    ['/group/settings/history_visible', 'history_visible', true],
    ['/group/settings/hide_member_info', 'hide_member_info', true],
  ] as const;

  it.each(FLAGS)('%s: admins set %s; members get 20012', async (path, field, value) => {
    const owner = await w.user();
    const admin = await w.user();
    const member = await w.user();
    const g = await w.group(owner, { members: [member], admins: [admin] });
    expect(await w.code('PUT', path, as(member, { body: { group_id: g, value } }))).toBe(20012);
    expect((await w.info(g))[field]).toBe(!value);
    w.tick();
    expect(await w.emu.ok('PUT', path, as(admin, { body: { group_id: g, value } }))).toBe(true);
    const info = await w.info(g);
    expect(info[field]).toBe(value);
    expect(info.updated_at).toBe(w.now());
    await w.emu.ok('POST', path, as(owner, { body: { group_id: g, value: !value } }));
    expect((await w.info(g))[field]).toBe(!value);
  });

  it('hide_member_info (4.54): shown to everyone in info and settings, never in the batch summary', async () => {
    const owner = await w.user();
    const stranger = await w.user();
    const g = await w.group(owner);
    await w.emu.ok('POST', '/group/settings/hide_member_info', as(owner, { body: { group_id: g, value: true } }));
    for (const path of ['/group/info', '/group/settings']) {
      expect((await w.emu.ok<Group>('GET', path, as(stranger, { query: { group_id: g } }))).hide_member_info).toBe(true);
    }
    const [summary] = await w.emu.ok<GroupSummary[]>('POST', '/group/info/batch', as(owner, { body: { group_list: [g] } }));
    expect(summary).not.toHaveProperty('hide_member_info');
  });

  it('hide_member_info (4.54): the admin token sets it with this group_id header; a bad value is 10002 naming value', async () => {
    const owner = await w.user();
    const g = await w.group(owner);
    const path = '/group/settings/hide_member_info';
    expect(await w.emu.ok('PUT', path, { token: w.emu.adminToken, groupId: g, body: { group_id: g, value: true } })).toBe(true);
    const bad = await w.emu.rest('PUT', path, as(owner, { body: { group_id: g, value: 'no' } }));
    expect(bad.code).toBe(10002);
    expect(bad.message).toMatch(/^invalid parameter value: /);
    expect(await w.code('PUT', path, as(owner, { body: { group_id: g } }))).toBe(10002);
    expect((await w.info(g)).hide_member_info).toBe(true);
  });

  it('sets apply_approval (4.48) to 0, 1 or 2 only', async () => {
    const owner = await w.user();
    const member = await w.user();
    const g = await w.group(owner, { members: [member] });
    const path = '/group/settings/require_admin_approval';
    expect(await w.emu.ok('PUT', path, as(owner, { body: { group_id: g, apply_approval: 2 } }))).toBe(true);
    expect((await w.info(g)).apply_approval).toBe(2);
    expect(await w.code('PUT', path, as(owner, { body: { group_id: g, apply_approval: 3 } }))).toBe(10002);
    expect(await w.code('PUT', path, as(member, { body: { group_id: g, apply_approval: 0 } }))).toBe(20012);
    expect((await w.info(g)).apply_approval).toBe(2);
  });
});

describe('DELETE /group/destroy (4.17)', () => {
  it('lets only the owner dissolve (20013 for admins and members)', async () => {
    const owner = await w.user();
    const admin = await w.user();
    const member = await w.user();
    const g = await w.group(owner, { members: [member], admins: [admin] });
    expect(await w.code('DELETE', '/group/destroy', as(admin, { query: { group_id: g } }))).toBe(20013);
    expect(await w.code('POST', '/group/destroy', as(member, { query: { group_id: g } }))).toBe(20013);
    expect((await w.info(g)).status).toBe(0);
    w.tick();
    expect(await w.emu.ok('DELETE', '/group/destroy', as(owner, { query: { group_id: g } }))).toBe(true);
    const info = await w.info(g);
    expect(info).toMatchObject({ status: 1, updated_at: w.now() });
  });

  it('leaves a dissolved group readable (info, settings) and refuses everything else with 20001', async () => {
    const owner = await w.user();
    const member = await w.user();
    const g = await w.group(owner, { members: [member] });
    await w.emu.ok('POST', '/group/destroy', as(owner, { query: { group_id: g } }));
    expect((await w.emu.ok<Group>('GET', '/group/settings', as(member, { query: { group_id: g } }))).status).toBe(1);
    const q = { query: { group_id: g } };
    const refused = await Promise.all([
      w.code('DELETE', '/group/destroy', as(owner, q)),
      w.code('GET', '/group/member_list', as(owner, q)),
      w.code('GET', '/group/admin_list', as(owner, q)),
      w.code('DELETE', '/group/leave', as(member, q)),
      w.code('PUT', '/group/info/name', as(owner, { body: { group_id: g, value: 'x' } })),
      w.code('POST', '/group/apply', as(await w.user(), { body: { group_id: g } })),
      w.code('POST', '/group/invite', as(owner, { body: { group_id: g, user_list: [member.id] } })),
      w.code('GET', '/group/qrcode/sign', as(owner, q)),
      w.code('GET', '/group/announcement/list', as(owner, q)),
      w.code('GET', '/group/file/list', as(owner, q)),
      w.code('POST', '/group/settings/ban_all', as(owner, { body: { group_id: g, duration: 5 } })),
    ]);
    expect(refused).toEqual(refused.map(() => 20001));
    expect(await w.emu.ok('GET', '/group/user_joined', as(member))).toEqual([]);
  });

  it('lets the bare admin token dissolve any group', async () => {
    const owner = await w.user();
    const g = await w.group(owner);
    expect(await w.emu.ok('DELETE', '/group/destroy', { token: w.emu.adminToken, query: { group_id: g } })).toBe(true);
    expect((await w.info(g)).status).toBe(1);
  });
});

describe('GET /group/user_joined (4.53) and GET /group/public_list (4.39)', () => {
  it("lists the acting user's live groups", async () => {
    const owner = await w.user();
    const member = await w.user();
    const a = await w.group(owner, { members: [member] });
    const b = await w.group(owner);
    const c = await w.group(member);
    expect(await w.emu.ok('GET', '/group/user_joined', as(owner))).toEqual([a, b]);
    expect(await w.emu.ok('GET', '/group/user_joined', as(member))).toEqual([a, c]);
    expect(await w.emu.ok('GET', '/group/user_joined', { token: w.emu.adminToken, userId: member.id })).toEqual([a, c]);
    expect(await w.code('GET', '/group/user_joined', { token: w.emu.adminToken })).toBe(10002);
  });

  it('lists live chatrooms only', async () => {
    const owner = await w.user();
    const room = await w.group(owner, { type: 2 });
    const privateGroup = await w.group(owner, { type: 0 });
    const gone = await w.group(owner, { type: 2 });
    await w.emu.ok('DELETE', '/group/destroy', as(owner, { query: { group_id: gone } }));
    const list = await w.emu.ok<number[]>('GET', '/group/public_list', as(owner));
    expect(list).toContain(room);
    expect(list).not.toContain(privateGroup);
    expect(list).not.toContain(gone);
  });
});
