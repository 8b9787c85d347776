// Ways in: applications (4.9-4.11), invitations (4.30-4.32) and QR codes (4.40, 4.41), with
// capacity (20010) and the blacklist (20018) on every path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupApplication, GroupInvitation, GroupQrCode, Member, OperationResult } from '../../../src/rest/records';
import { as, type GroupsWorld, startGroupsWorld, type TestUser } from '../../helpers/groups-world';

const TTL = 60_000;
const QR_TTL = 120_000;

let w: GroupsWorld;
beforeAll(async () => {
  w = await startGroupsWorld({ requestTtlMs: TTL, qrTtlMs: QR_TTL });
});
afterAll(() => w.emu.stop());

const memberIds = async (g: number) =>
  (await w.emu.ok<Member[]>('GET', '/group/member_list', { token: w.emu.adminToken, query: { group_id: g } })).map((m) => m.user_id);
const setApproval = (owner: TestUser, g: number, apply_approval: number) =>
  w.emu.ok('PUT', '/group/settings/require_admin_approval', as(owner, { body: { group_id: g, apply_approval } }));
const applications = (admin: TestUser, groups: number[], query = {}) =>
  w.emu.rest<GroupApplication[]>('POST', '/group/application_list', as(admin, { body: { group_list: groups }, query }));
const block = (owner: TestUser, g: number, u: TestUser) =>
  w.emu.ok('POST', '/group/block', as(owner, { body: { group_id: g, user_list: [u.id] } }));
const setCapacity = (g: number, capacity: number) => {
  w.emu.server.state.groups.get(g)!.capacity = capacity; // no endpoint sets it
};

describe('POST /group/apply (4.10)', () => {
  it('apply_approval 0: joins at once', async () => {
    const owner = await w.user();
    const applicant = await w.user();
    const g = await w.group(owner);
    await setApproval(owner, g, 0);
    const result = await w.emu.ok<OperationResult>('POST', '/group/apply', as(applicant, { body: { group_id: g } }));
    expect(result).toEqual({ user_id: applicant.id, result: 'success', reason: '' });
    expect(await memberIds(g)).toEqual([owner.id, applicant.id]);
    expect(await w.code('POST', '/group/apply', as(applicant, { body: { group_id: g } }))).toBe(20017);
  });

  it('apply_approval 1 (the default): records a pending application', async () => {
    const owner = await w.user();
    const applicant = await w.user();
    const g = await w.group(owner);
    const result = await w.emu.ok<OperationResult>('POST', '/group/apply', as(applicant, { body: { group_id: g, reason: 'hi' } }));
    expect(result).toMatchObject({ user_id: applicant.id, result: 'success', reason: expect.stringContaining('pending') });
    expect(await memberIds(g)).toEqual([owner.id]);
    expect((await applications(owner, [g])).data).toEqual([
      { group_id: g, applicant_id: applicant.id, reason: 'hi', status: 0, expired_time: w.now() + TTL },
    ]);
  });

  it('apply_approval 2: a fail result, nothing recorded', async () => {
    const owner = await w.user();
    const applicant = await w.user();
    const g = await w.group(owner);
    await setApproval(owner, g, 2);
    const result = await w.emu.ok<OperationResult>('POST', '/group/apply', as(applicant, { body: { group_id: g } }));
    expect(result).toMatchObject({ user_id: applicant.id, result: 'fail', reason: expect.stringContaining('does not accept') });
    expect(await memberIds(g)).toEqual([owner.id]);
    expect((await applications(owner, [g])).data).toEqual([]);
  });

  it('refuses the blacklisted (20018), a full group when joining at once (20010), an unknown group (20001)', async () => {
    const owner = await w.user();
    const [blocked, late] = [await w.user(), await w.user()];
    const g = await w.group(owner);
    await block(owner, g, blocked);
    expect(await w.code('POST', '/group/apply', as(blocked, { body: { group_id: g } }))).toBe(20018);
    await setApproval(owner, g, 0);
    setCapacity(g, 1);
    expect(await w.code('POST', '/group/apply', as(late, { body: { group_id: g } }))).toBe(20010);
    expect(await memberIds(g)).toEqual([owner.id]);
    expect(await w.code('POST', '/group/apply', as(late, { body: { group_id: 3 } }))).toBe(20001);
  });
});

describe('PUT /group/apply/handle (4.11)', () => {
  let owner: TestUser, admin: TestUser, member: TestUser, g: number;
  beforeAll(async () => {
    [owner, admin, member] = [await w.user(), await w.user(), await w.user()];
    g = await w.group(owner, { members: [member], admins: [admin] });
  });
  const apply = (u: TestUser) => w.emu.ok('POST', '/group/apply', as(u, { body: { group_id: g } }));
  const handle = (by: TestUser, u: TestUser, approval: boolean) =>
    w.emu.rest<OperationResult>('PUT', '/group/apply/handle', as(by, { body: { group_id: g, user_id: u.id, approval } }));

  it('approval true: the applicant joins; handling again is 20014', async () => {
    const applicant = await w.user();
    await apply(applicant);
    w.tick();
    const reply = await handle(admin, applicant, true);
    expect(reply.data).toEqual({ user_id: applicant.id, result: 'success', reason: '' });
    expect(await memberIds(g)).toContain(applicant.id);
    const members = await w.emu.ok<Member[]>(
      'POST',
      '/group/members/display_name',
      as(owner, { body: { group_id: g, user_list: [applicant.id] } }),
    );
    expect(members[0]?.join_time).toBe(w.now());
    expect((await handle(owner, applicant, true)).code).toBe(20014);
    const listed = (await applications(admin, [g])).data.find((a) => a.applicant_id === applicant.id);
    expect(listed?.status).toBe(1);
  });

  it('approval false: rejected, not a member', async () => {
    const applicant = await w.user();
    await apply(applicant);
    expect(
      (await w.emu.rest('POST', '/group/apply/handle', as(owner, { body: { group_id: g, user_id: applicant.id, approval: false } }))).code,
    ).toBe(200);
    expect(await memberIds(g)).not.toContain(applicant.id);
    const listed = (await applications(admin, [g])).data.find((a) => a.applicant_id === applicant.id);
    expect(listed?.status).toBe(2);
    expect((await handle(owner, applicant, false)).code).toBe(20014);
  });

  it('refuses members (20012), unknown (20014) and expired applications (20014)', async () => {
    const applicant = await w.user();
    await apply(applicant);
    expect((await handle(member, applicant, true)).code).toBe(20012);
    expect((await handle(admin, await w.user(), true)).code).toBe(20014);
    w.tick(TTL);
    expect((await handle(admin, applicant, true)).code).toBe(20014);
    expect(await memberIds(g)).not.toContain(applicant.id);
    // A fresh application replaces the expired one.
    await apply(applicant);
    expect((await handle(admin, applicant, true)).code).toBe(200);
  });

  it('refuses with 20010 when the group filled up meanwhile, keeping the application pending', async () => {
    const owner2 = await w.user();
    const applicant = await w.user();
    const g2 = await w.group(owner2);
    await w.emu.ok('POST', '/group/apply', as(applicant, { body: { group_id: g2 } }));
    setCapacity(g2, 1);
    const reply = await w.emu.rest(
      'PUT',
      '/group/apply/handle',
      as(owner2, { body: { group_id: g2, user_id: applicant.id, approval: true } }),
    );
    expect(reply.code).toBe(20010);
    expect((await applications(owner2, [g2])).data[0]?.status).toBe(0);
    setCapacity(g2, 500);
    expect(await w.code('PUT', '/group/apply/handle', as(owner2, { body: { group_id: g2, user_id: applicant.id, approval: true } }))).toBe(
      200,
    );
  });

  it('lets the admin token with the group_id header handle', async () => {
    const applicant = await w.user();
    await apply(applicant);
    const reply = await w.emu.rest('PUT', '/group/apply/handle', {
      token: w.emu.adminToken,
      groupId: g,
      body: { group_id: g, user_id: applicant.id, approval: true },
    });
    expect(reply.code).toBe(200);
  });
});

describe('POST /group/application_list (4.9)', () => {
  it('pages the applications of groups the actor administers', async () => {
    const owner = await w.user();
    const member = await w.user();
    const g1 = await w.group(owner, { members: [member] });
    const g2 = await w.group(owner);
    const applicants = [await w.user(), await w.user(), await w.user()];
    await w.emu.ok('POST', '/group/apply', as(applicants[0]!, { body: { group_id: g1 } }));
    await w.emu.ok('POST', '/group/apply', as(applicants[1]!, { body: { group_id: g2 } }));
    await w.emu.ok('POST', '/group/apply', as(applicants[2]!, { body: { group_id: g1 } }));
    const first = await applications(owner, [g1, g2], { limit: 2 });
    expect(first.data.map((a) => [a.group_id, a.applicant_id])).toEqual([
      [g1, applicants[0]!.id],
      [g1, applicants[2]!.id],
    ]);
    expect(first).toMatchObject({ total: 3, version: 0 });
    const second = await applications(owner, [g1, g2], { limit: 2, cursor: first.cursor! });
    expect(second.data.map((a) => a.applicant_id)).toEqual([applicants[1]!.id]);
    expect(second.cursor).toBe('');
    expect((await applications(member, [g1])).code).toBe(20012);
    expect((await applications(owner, [g1, 8])).code).toBe(20001);
  });
});

describe('POST /group/invite (4.31)', () => {
  it('adds plain invitees, invites those who confirm, and fails the rest item by item', async () => {
    const owner = await w.user();
    const [plain, asking, member, blocked] = [await w.user(), await w.user({ confirm: true }), await w.user(), await w.user()];
    const g = await w.group(owner, { members: [member] });
    await block(owner, g, blocked);
    const results = await w.emu.ok<OperationResult[]>(
      'POST',
      '/group/invite',
      as(member, {
        body: { group_id: g, user_list: [plain.id, asking.id, member.id, blocked.id, 12345], reason: 'join us' },
      }),
    );
    expect(results).toEqual([
      { user_id: plain.id, result: 'success', reason: '' },
      { user_id: asking.id, result: 'success', reason: '' },
      { user_id: member.id, result: 'fail', reason: expect.stringContaining('already a member') },
      { user_id: blocked.id, result: 'fail', reason: expect.stringContaining('blacklist') },
      { user_id: 12345, result: 'fail', reason: expect.stringContaining('does not exist') },
    ]);
    expect(await memberIds(g)).toEqual([owner.id, member.id, plain.id]);
    const invitations = await w.emu.ok<GroupInvitation[]>('GET', '/group/invitation_list', as(asking));
    expect(invitations).toEqual([
      {
        group_id: g,
        inviter_id: member.id,
        invitee_id: asking.id,
        reason: 'join us',
        status: 0,
        expired_time: w.now() + TTL,
        updated_at: new Date(w.now()).toISOString(),
      },
    ]);
  });

  it('lets members invite only with member_invite (else 20012); non-members get 20011', async () => {
    const owner = await w.user();
    const [admin, member, stranger, guest] = [await w.user(), await w.user(), await w.user(), await w.user()];
    const g = await w.group(owner, { members: [member], admins: [admin] });
    await w.emu.ok('PUT', '/group/settings/allow_member_invitation', as(owner, { body: { group_id: g, value: false } }));
    const body = { group_id: g, user_list: [guest.id] };
    expect(await w.code('POST', '/group/invite', as(member, { body }))).toBe(20012);
    expect(await memberIds(g)).not.toContain(guest.id);
    expect(await w.code('POST', '/group/invite', as(admin, { body }))).toBe(200);
    expect(await memberIds(g)).toContain(guest.id);
    await w.emu.ok('PUT', '/group/settings/allow_member_invitation', as(owner, { body: { group_id: g, value: true } }));
    expect(await w.code('POST', '/group/invite', as(stranger, { body }))).toBe(20011);
  });

  it('fails an invitee who would not fit (20010), the others still joining', async () => {
    const owner = await w.user();
    const [a, b] = [await w.user(), await w.user()];
    const g = await w.group(owner);
    setCapacity(g, 2);
    const results = await w.emu.ok<OperationResult[]>(
      'POST',
      '/group/invite',
      as(owner, { body: { group_id: g, user_list: [a.id, b.id] } }),
    );
    expect(results.map((r) => r.result)).toEqual(['success', 'fail']);
    expect(results[1]?.reason).toContain('full');
    expect(await memberIds(g)).toEqual([owner.id, a.id]);
  });
});

describe('PUT /group/invite/handle (4.32) and GET /group/invitation_list (4.30)', () => {
  let owner: TestUser, g: number;
  beforeAll(async () => {
    owner = await w.user();
    g = await w.group(owner);
  });
  const invite = (u: TestUser) => w.emu.ok('POST', '/group/invite', as(owner, { body: { group_id: g, user_list: [u.id] } }));
  const handle = (u: TestUser, inviter: number, approval: boolean) =>
    w.emu.rest('PUT', '/group/invite/handle', as(u, { body: { group_id: g, user_id: inviter, approval } }));

  it('the invitee accepts naming the inviter; then 20015', async () => {
    const invitee = await w.user({ confirm: true });
    await invite(invitee);
    expect(await memberIds(g)).not.toContain(invitee.id);
    w.tick();
    expect((await handle(invitee, 999, true)).code).toBe(20015);
    const reply = await handle(invitee, owner.id, true);
    expect(reply.data).toBe(true);
    expect(await memberIds(g)).toContain(invitee.id);
    expect((await handle(invitee, owner.id, true)).code).toBe(20015);
    const [listed] = await w.emu.ok<GroupInvitation[]>('GET', '/group/invitation_list', as(invitee));
    expect(listed).toMatchObject({ status: 1, updated_at: new Date(w.now()).toISOString() });
  });

  it('the invitee declines', async () => {
    const invitee = await w.user({ confirm: true });
    await invite(invitee);
    expect(
      (await w.emu.rest('POST', '/group/invite/handle', as(invitee, { body: { group_id: g, user_id: owner.id, approval: false } }))).code,
    ).toBe(200);
    expect(await memberIds(g)).not.toContain(invitee.id);
    const [listed] = await w.emu.ok<GroupInvitation[]>('GET', '/group/invitation_list', as(invitee));
    expect(listed?.status).toBe(2);
  });

  it('refuses expired invitations (20015); inviting again refreshes', async () => {
    const invitee = await w.user({ confirm: true });
    await invite(invitee);
    w.tick(TTL);
    expect((await handle(invitee, owner.id, true)).code).toBe(20015);
    await invite(invitee);
    const list = await w.emu.ok<GroupInvitation[]>('GET', '/group/invitation_list', as(invitee));
    expect(list).toHaveLength(1);
    expect(list[0]?.expired_time).toBe(w.now() + TTL);
    expect((await handle(invitee, owner.id, true)).code).toBe(200);
  });

  it('refuses accepting into a full group (20010) or after being blocked (20018), the invitation kept', async () => {
    const owner2 = await w.user();
    const [a, b] = [await w.user({ confirm: true }), await w.user({ confirm: true })];
    const g2 = await w.group(owner2, { members: [a, b] });
    setCapacity(g2, 1);
    const accept = (u: TestUser) =>
      w.emu.rest('PUT', '/group/invite/handle', as(u, { body: { group_id: g2, user_id: owner2.id, approval: true } }));
    expect((await accept(a)).code).toBe(20010);
    setCapacity(g2, 500);
    await block(owner2, g2, b);
    expect((await accept(b)).code).toBe(20018);
    expect(await memberIds(g2)).toEqual([owner2.id]);
    expect((await accept(a)).code).toBe(200);
  });

  it('pages the acting user’s invitations across groups', async () => {
    const invitee = await w.user({ confirm: true });
    const groups = [await w.group(owner), await w.group(owner), await w.group(owner)];
    for (const id of groups) await w.emu.ok('POST', '/group/invite', as(owner, { body: { group_id: id, user_list: [invitee.id] } }));
    const first = await w.emu.rest<GroupInvitation[]>('GET', '/group/invitation_list', as(invitee, { query: { limit: 2 } }));
    expect(first.data.map((i) => i.group_id)).toEqual(groups.slice(0, 2));
    expect(first).toMatchObject({ total: 3, version: 0 });
    const rest = await w.emu.rest<GroupInvitation[]>('GET', '/group/invitation_list', as(invitee, { query: { cursor: first.cursor! } }));
    expect(rest.data.map((i) => i.group_id)).toEqual(groups.slice(2));
    expect(rest.cursor).toBe('');
    expect((await w.emu.rest('GET', '/group/invitation_list', as(owner))).data).toEqual([]);
  });
});

describe('QR codes (4.41, 4.40)', () => {
  it('a member signs a code; another user joins with it, even where applications are refused', async () => {
    const owner = await w.user();
    const member = await w.user();
    const joiner = await w.user();
    const g = await w.group(owner, { members: [member] });
    await setApproval(owner, g, 2);
    const qr = await w.emu.ok<GroupQrCode>('GET', '/group/qrcode/sign', as(member, { query: { group_id: g } }));
    expect(qr).toEqual({ qr_info: expect.any(String), create_at: w.now(), expire_at: w.now() + QR_TTL });
    const joined = await w.emu.ok('POST', '/group/qrcode/invite', as(joiner, { body: { qr_info: qr.qr_info } }));
    expect(joined).toEqual({ group_id: g, user_id: joiner.id });
    expect(await memberIds(g)).toEqual([owner.id, member.id, joiner.id]);
    expect(await w.code('POST', '/group/qrcode/invite', as(joiner, { body: { qr_info: qr.qr_info } }))).toBe(20017);
  });

  it('refuses signing to non-members (20011) and to members without member_invite (20012)', async () => {
    const owner = await w.user();
    const [member, stranger] = [await w.user(), await w.user()];
    const g = await w.group(owner, { members: [member] });
    expect(await w.code('GET', '/group/qrcode/sign', as(stranger, { query: { group_id: g } }))).toBe(20011);
    await w.emu.ok('PUT', '/group/settings/allow_member_invitation', as(owner, { body: { group_id: g, value: false } }));
    expect(await w.code('GET', '/group/qrcode/sign', as(member, { query: { group_id: g } }))).toBe(20012);
    expect(await w.code('GET', '/group/qrcode/sign', as(owner, { query: { group_id: g } }))).toBe(200);
  });

  it('refuses forged (20024) and expired (20025) codes', async () => {
    const owner = await w.user();
    const joiner = await w.user();
    const g = await w.group(owner);
    const other = await w.group(owner);
    const qr = await w.emu.ok<GroupQrCode>('GET', '/group/qrcode/sign', as(owner, { query: { group_id: g } }));
    const [body, sig] = qr.qr_info.split('.') as [string, string];
    const otherQr = await w.emu.ok<GroupQrCode>('GET', '/group/qrcode/sign', as(owner, { query: { group_id: other } }));
    const forged = [
      'garbage',
      '',
      `${otherQr.qr_info.split('.')[0]}.${sig}`,
      `${Buffer.from(JSON.stringify([g, owner.id, w.now(), w.now() + 10 ** 9])).toString('base64url')}.${sig}`,
      `${body}.${sig}x`,
    ];
    for (const qrInfo of forged) {
      expect(await w.code('POST', '/group/qrcode/invite', as(joiner, { body: { qr_info: qrInfo } }))).toBe(20024);
    }
    w.tick(QR_TTL);
    expect(await w.code('POST', '/group/qrcode/invite', as(joiner, { body: { qr_info: qr.qr_info } }))).toBe(20025);
    expect(await memberIds(g)).toEqual([owner.id]);
  });

  it('refuses the blacklisted (20018), a full group (20010) and a dissolved one (20001)', async () => {
    const owner = await w.user();
    const [blocked, joiner] = [await w.user(), await w.user()];
    const g = await w.group(owner);
    const qr = await w.emu.ok<GroupQrCode>('GET', '/group/qrcode/sign', as(owner, { query: { group_id: g } }));
    const join = (u: TestUser) => w.code('POST', '/group/qrcode/invite', as(u, { body: { qr_info: qr.qr_info } }));
    await block(owner, g, blocked);
    expect(await join(blocked)).toBe(20018);
    setCapacity(g, 1);
    expect(await join(joiner)).toBe(20010);
    await w.emu.ok('DELETE', '/group/destroy', as(owner, { query: { group_id: g } }));
    expect(await join(joiner)).toBe(20001);
  });
});
