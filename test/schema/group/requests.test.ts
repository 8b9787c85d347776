// Ways into a group: applications, invitations and QR codes, read and answered through the gateway.
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, useGroupsStack } from '../../helpers/groups-stack';
import { onlyError } from '../../helpers/stack';

const g = useGroupsStack();
let owner: TestUser;
beforeAll(async () => {
  owner = await g.user();
});

describe('applications', () => {
  it('applies with POST /group/apply: pending while admins confirm', async () => {
    const applicant = await g.user();
    const groupId = await g.group(owner);
    const data = await g.data<{ applyToGroup: { ok: boolean; result: { userId: string; success: boolean; reason: string } } }>(
      applicant,
      `mutation { applyToGroup(input: { groupId: "${groupId}", reason: "let me in" }) { ok result { userId success reason } } }`,
    );
    expect(data.applyToGroup).toMatchObject({ ok: true, result: { userId: String(applicant.id), success: true } });
    expect(data.applyToGroup.result.reason).toContain('pending');
    expect(g.endpoints()).toEqual(['POST /group/apply']);
    expect(g.callsTo('POST /group/apply')[0]?.body).toEqual({ group_id: groupId, reason: 'let me in' });
    const pending = await g.data<{ group: { applications: { nodes: { applicantId: string; status: string }[] } } }>(
      owner,
      `{ group(id: "${groupId}") { applications { nodes { applicantId status } } } }`,
    );
    expect(pending.group.applications.nodes).toEqual([{ applicantId: String(applicant.id), status: 'PENDING' }]);
  });

  it('lists applications of a group and of several groups with POST /group/application_list', async () => {
    const [a, b] = [await g.user(), await g.user()];
    const one = await g.group(owner);
    const two = await g.group(owner);
    await g.emu.ok('POST', '/group/apply', { token: a.token, body: { group_id: one, reason: 'r1' } });
    await g.emu.ok('POST', '/group/apply', { token: b.token, body: { group_id: two } });

    const ofGroup = await g.data<{ group: { applications: { totalCount: number; nodes: Record<string, unknown>[] } } }>(
      owner,
      `{ group(id: "${one}") { applications(first: 10) { totalCount nodes { applicantId applicant { id } groupId group { id } reason status expiresAt } } } }`,
    );
    expect(ofGroup.group.applications.totalCount).toBe(1);
    expect(ofGroup.group.applications.nodes[0]).toMatchObject({
      applicantId: String(a.id),
      applicant: { id: String(a.id) },
      groupId: String(one),
      group: { id: String(one) },
      reason: 'r1',
      status: 'PENDING',
    });
    expect(Date.parse(ofGroup.group.applications.nodes[0]!.expiresAt as string)).toBeGreaterThan(Date.now());
    expect(g.endpoints()).toEqual(['POST /group/info/batch', 'POST /group/application_list']);
    expect(g.callsTo('POST /group/application_list')[0]).toMatchObject({ body: { group_list: [one] }, query: { limit: '10' } });

    const ofBoth = await g.data<{ groupApplications: { nodes: { applicantId: string }[] } }>(
      owner,
      `{ groupApplications(groupIds: ["${one}", "${two}"]) { nodes { applicantId } } }`,
    );
    expect(ofBoth.groupApplications.nodes.map((n) => n.applicantId)).toEqual([String(a.id), String(b.id)]);
    expect(g.callsTo('POST /group/application_list')[0]).toMatchObject({ body: { group_list: [one, two] }, query: { limit: '100' } });
  });

  it('refuses an empty groupIds list before any REST call', async () => {
    const reply = await g.gql(owner, '{ groupApplications(groupIds: []) { totalCount } }');
    expect(onlyError(reply)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'groupIds' });
    expect(g.endpoints()).toEqual([]);
  });

  it('approves with PUT /group/apply/handle; the applicant is then a member', async () => {
    const applicant = await g.user();
    const groupId = await g.group(owner);
    await g.emu.ok('POST', '/group/apply', { token: applicant.token, body: { group_id: groupId } });
    const data = await g.data<{ handleGroupApplication: { ok: boolean; result: { userId: string }; group: { memberCount: number } } }>(
      owner,
      `mutation { handleGroupApplication(input: { groupId: "${groupId}", applicantId: "${applicant.id}", approval: true }) {
          ok result { userId } group { memberCount } } }`,
    );
    expect(data.handleGroupApplication).toEqual({ ok: true, result: { userId: String(applicant.id) }, group: { memberCount: 2 } });
    expect(g.callsTo('PUT /group/apply/handle')[0]?.body).toEqual({ group_id: groupId, user_id: applicant.id, approval: true });
    const status = await g.data<{ group: { applications: { nodes: { status: string }[] } } }>(
      owner,
      `{ group(id: "${groupId}") { applications { nodes { status } } } }`,
    );
    expect(status.group.applications.nodes).toEqual([{ status: 'ACCEPTED' }]);
  });

  it('reports an application already handled as the userError NO_LONGER_PENDING', async () => {
    const applicant = await g.user();
    const groupId = await g.group(owner);
    const reply = await g.gql(
      owner,
      `mutation { handleGroupApplication(input: { groupId: "${groupId}", applicantId: "${applicant.id}", approval: false }) { ok userErrors { code } } }`,
    );
    expect(reply).toEqual({ data: { handleGroupApplication: { ok: false, userErrors: [{ code: 'NO_LONGER_PENDING' }] } } });
    expect(g.endpoints()).toEqual(['PUT /group/apply/handle']);
  });

  it('makes exactly one REST call for applyToGroup when only ok is selected', async () => {
    const applicant = await g.user();
    const groupId = await g.group(owner);
    await g.data(applicant, `mutation { applyToGroup(input: { groupId: "${groupId}" }) { ok } }`);
    expect(g.endpoints()).toEqual(['POST /group/apply']);
    expect(g.callsTo('POST /group/apply')[0]?.body).toEqual({ group_id: groupId });
  });
});

describe('invitations', () => {
  it('invites with POST /group/invite: those who confirm get an invitation, others join', async () => {
    const [confirming, plain] = [await g.user({ confirm: true }), await g.user()];
    const groupId = await g.group(owner);
    const data = await g.data<{
      inviteToGroup: { ok: boolean; results: { userId: string; success: boolean }[]; group: { memberCount: number } };
    }>(owner, `mutation($in: InviteToGroupInput!) { inviteToGroup(input: $in) { ok results { userId success } group { memberCount } } }`, {
      in: { groupId: String(groupId), userIds: [String(confirming.id), String(plain.id)], reason: 'join us' },
    });
    expect(data.inviteToGroup).toEqual({
      ok: true,
      results: [
        { userId: String(confirming.id), success: true },
        { userId: String(plain.id), success: true },
      ],
      group: { memberCount: 2 },
    });
    expect(g.callsTo('POST /group/invite')[0]?.body).toEqual({
      group_id: groupId,
      user_list: [confirming.id, plain.id],
      reason: 'join us',
    });
  });

  it("lists the acting user's invitations with GET /group/invitation_list and accepts one", async () => {
    const invitee = await g.user({ confirm: true });
    const groupId = await g.group(owner);
    await g.emu.ok('POST', '/group/invite', { token: owner.token, body: { group_id: groupId, user_list: [invitee.id], reason: 'r' } });

    const listed = await g.data<{ groupInvitations: { totalCount: number; nodes: Record<string, unknown>[] } }>(
      invitee,
      '{ groupInvitations(first: 5) { totalCount nodes { groupId inviterId inviter { id } inviteeId invitee { id } reason status expiresAt updatedAt } } }',
    );
    expect(listed.groupInvitations.totalCount).toBe(1);
    expect(listed.groupInvitations.nodes[0]).toMatchObject({
      groupId: String(groupId),
      inviterId: String(owner.id),
      inviter: { id: String(owner.id) },
      inviteeId: String(invitee.id),
      invitee: { id: String(invitee.id) },
      reason: 'r',
      status: 'PENDING',
    });
    expect(Date.parse(listed.groupInvitations.nodes[0]!.updatedAt as string)).toBeGreaterThan(0);
    expect(g.endpoints()).toEqual(['GET /group/invitation_list']);
    expect(g.callsTo('GET /group/invitation_list')[0]?.query).toEqual({ limit: '5' });

    const handled = await g.data<{ handleGroupInvitation: { ok: boolean; group: { memberCount: number } } }>(
      invitee,
      `mutation { handleGroupInvitation(input: { groupId: "${groupId}", inviterId: "${owner.id}", approval: true }) { ok group { memberCount } } }`,
    );
    expect(handled.handleGroupInvitation).toEqual({ ok: true, group: { memberCount: 2 } });
    // The service names the invitation by its inviter: body user_id is the inviter's ID.
    expect(g.callsTo('PUT /group/invite/handle')[0]?.body).toEqual({ group_id: groupId, user_id: owner.id, approval: true });
    const after = await g.data<{ groupInvitations: { nodes: { status: string }[] } }>(invitee, '{ groupInvitations { nodes { status } } }');
    expect(after.groupInvitations.nodes).toEqual([{ status: 'ACCEPTED' }]);
  });

  it('reports an invitation that does not exist as the userError NO_LONGER_PENDING', async () => {
    const someone = await g.user();
    const groupId = await g.group(owner);
    const reply = await g.gql(
      someone,
      `mutation { handleGroupInvitation(input: { groupId: "${groupId}", inviterId: "${owner.id}", approval: false }) { ok userErrors { code } } }`,
    );
    expect(reply).toEqual({ data: { handleGroupInvitation: { ok: false, userErrors: [{ code: 'NO_LONGER_PENDING' }] } } });
    expect(g.endpoints()).toEqual(['PUT /group/invite/handle']);
  });

  it('refuses an empty invitee list before any REST call', async () => {
    const reply = await g.gql(owner, 'mutation { inviteToGroup(input: { groupId: "1", userIds: [] }) { ok } }');
    expect(onlyError(reply)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.userIds' });
    expect(g.endpoints()).toEqual([]);
  });

  it('makes exactly one REST call for inviteToGroup when only ok is selected', async () => {
    const plain = await g.user();
    const groupId = await g.group(owner);
    await g.data(owner, `mutation { inviteToGroup(input: { groupId: "${groupId}", userIds: ["${plain.id}"] }) { ok } }`);
    expect(g.endpoints()).toEqual(['POST /group/invite']);
  });
});

describe('QR codes', () => {
  it('signs a fresh code per read with GET /group/qrcode/sign', async () => {
    const groupId = await g.group(owner);
    const data = await g.data<{ group: { a: { qrInfo: string; createdAt: string; expiresAt: string }; b: { qrInfo: string } } }>(
      owner,
      `{ group(id: "${groupId}") { a: qrCode { qrInfo createdAt expiresAt } b: qrCode { qrInfo } } }`,
    );
    expect(g.endpoints()).toEqual(['POST /group/info/batch', 'GET /group/qrcode/sign', 'GET /group/qrcode/sign']);
    expect(g.callsTo('GET /group/qrcode/sign')[0]?.query).toEqual({ group_id: String(groupId) });
    expect(data.group.a.qrInfo).not.toBe('');
    expect(Date.parse(data.group.a.expiresAt)).toBeGreaterThan(Date.parse(data.group.a.createdAt));
  });

  it('joins with POST /group/qrcode/invite and answers the group joined', async () => {
    const joiner = await g.user();
    const groupId = await g.group(owner);
    const { group } = await g.data<{ group: { qrCode: { qrInfo: string } } }>(owner, `{ group(id: "${groupId}") { qrCode { qrInfo } } }`);
    const data = await g.data<{ joinGroupByQrCode: { ok: boolean; group: { id: string; memberCount: number } } }>(
      joiner,
      'mutation($qr: String!) { joinGroupByQrCode(input: { qrInfo: $qr }) { ok group { id memberCount } } }',
      { qr: group.qrCode.qrInfo },
    );
    expect(data.joinGroupByQrCode).toEqual({ ok: true, group: { id: String(groupId), memberCount: 2 } });
    expect(g.callsTo('POST /group/qrcode/invite')[0]?.body).toEqual({ qr_info: group.qrCode.qrInfo });
  });

  it('refuses an empty code before any REST call, and reports a forged one as the userError INVALID_QR_CODE', async () => {
    const empty = await g.gql(owner, 'mutation { joinGroupByQrCode(input: { qrInfo: " " }) { ok } }');
    expect(onlyError(empty)?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.qrInfo' });
    expect(g.endpoints()).toEqual([]);
    const forged = await g.gql(
      owner,
      'mutation { joinGroupByQrCode(input: { qrInfo: "forged" }) { ok group { id } userErrors { field code } } }',
    );
    expect(forged).toEqual({
      data: { joinGroupByQrCode: { ok: false, group: null, userErrors: [{ field: ['input', 'qrInfo'], code: 'INVALID_QR_CODE' }] } },
    });
  });
});
