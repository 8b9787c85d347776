// Group settings: the fields read from GET /group/settings (sharing one record with GET
// /group/info), their setters, and the acting member's mute and push modes.
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, useGroupsStack } from '../../helpers/groups-stack';
import { onlyError } from '../../helpers/stack';

const g = useGroupsStack();
let owner: TestUser;
beforeAll(async () => {
  owner = await g.user();
});

describe('settings fields', () => {
  it('read GET /group/settings alone', async () => {
    const groupId = await g.group(owner);
    const data = await g.data<{ group: Record<string, unknown> }>(
      owner,
      `{ group(id: "${groupId}") { historyVisible memberInvite memberModify readAck bannedForAll banExpiresAt } }`,
    );
    expect(data.group).toEqual({
      historyVisible: false,
      memberInvite: true,
      memberModify: false,
      readAck: false,
      bannedForAll: false,
      banExpiresAt: null,
    });
    expect(g.endpoints()).toEqual(['POST /group/info/batch', 'GET /group/settings']);
    expect(g.callsTo('GET /group/settings')[0]?.query).toEqual({ group_id: String(groupId) });
  });

  it('share one record with the info fields: the endpoint of the first field selected serves both', async () => {
    const groupId = await g.group(owner);
    await g.data(owner, `{ group(id: "${groupId}") { description historyVisible createdAt readAck } }`);
    expect(g.endpoints()).toEqual(['POST /group/info/batch', 'GET /group/info']);
    await g.data(owner, `{ group(id: "${groupId}") { readAck ext } }`);
    expect(g.endpoints()).toEqual(['POST /group/info/batch', 'GET /group/settings']);
  });

  it('are not read for an unknown group: the group is null, without an error or a GET /group/settings', async () => {
    const reply = await g.gql<{ group: null }>(owner, '{ group(id: "999999999") { id readAck } }');
    expect(reply).toEqual({ data: { group: null } });
    expect(g.endpoints()).toEqual(['POST /group/info/batch']);
  });
});

describe('updateGroup: the settings', () => {
  const switches = [
    { mutation: 'setGroupMemberInvite', endpoint: 'PUT /group/settings/allow_member_invitation', field: 'memberInvite', value: false },
    { mutation: 'setGroupMemberModify', endpoint: 'PUT /group/settings/allow_member_modify', field: 'memberModify', value: true },
    { mutation: 'setGroupReadAck', endpoint: 'PUT /group/settings/enable_read_ack', field: 'readAck', value: true },
    { mutation: 'setGroupHistoryVisible', endpoint: 'PUT /group/settings/history_visible', field: 'historyVisible', value: true },
  ] as const;

  for (const s of switches) {
    it(`${s.field} (formerly ${s.mutation}) sends ${s.endpoint} with the value, and the group reads it back`, async () => {
      const groupId = await g.group(owner);
      const data = await g.data<Record<string, { ok: boolean; group: Record<string, boolean> }>>(
        owner,
        `mutation($v: Boolean!) { updateGroup(input: { groupId: "${groupId}", ${s.field}: $v }) { ok group { ${s.field} } } }`,
        { v: s.value },
      );
      expect(data.updateGroup).toEqual({ ok: true, group: { [s.field]: s.value } });
      expect(g.endpoints()).toEqual([s.endpoint, 'GET /group/settings']);
      expect(g.callsTo(s.endpoint)[0]?.body).toEqual({ group_id: groupId, value: s.value });
    });
  }

  it('applyApproval sends PUT /group/settings/require_admin_approval with the code', async () => {
    const groupId = await g.group(owner);
    const data = await g.data<{ updateGroup: { ok: boolean; group: { applyApproval: string } } }>(
      owner,
      `mutation { updateGroup(input: { groupId: "${groupId}", applyApproval: REJECT_ALL }) { ok group { applyApproval } } }`,
    );
    expect(data.updateGroup).toEqual({ ok: true, group: { applyApproval: 'REJECT_ALL' } });
    expect(g.callsTo('PUT /group/settings/require_admin_approval')[0]?.body).toEqual({ group_id: groupId, apply_approval: 2 });
    expect((await g.info(groupId)).apply_approval).toBe(2);
  });

  it('answers a plain member with a userError NOT_GROUP_ADMIN on the setting', async () => {
    const member = await g.user();
    const groupId = await g.group(owner, { members: [member] });
    const data = await g.data<{ updateGroup: unknown }>(
      member,
      `mutation { updateGroup(input: { groupId: "${groupId}", readAck: true }) { ok userErrors { code field } } }`,
    );
    expect(data.updateGroup).toEqual({ ok: false, userErrors: [{ code: 'NOT_GROUP_ADMIN', field: ['input', 'readAck'] }] });
    expect((await g.info(groupId)).read_ack).toBe(false);
  });

  it('refuses a value outside the enum before any REST call', async () => {
    const reply = await g.gql(owner, 'mutation { updateGroup(input: { groupId: "1", applyApproval: SOMETIMES }) { ok } }');
    expect(reply.errors?.length).toBeGreaterThan(0);
    expect(g.endpoints()).toEqual([]);
  });
});

describe("the acting member's mute and push modes", () => {
  it('msgMuteMode sends PUT /group/msg/mute_mode; the member reads its own mode', async () => {
    const member = await g.user();
    const groupId = await g.group(owner, { members: [member] });
    const data = await g.data<{ updateGroup: { ok: boolean; group: { msgMuteMode: string } } }>(
      member,
      `mutation { updateGroup(input: { groupId: "${groupId}", msgMuteMode: BLOCK_MESSAGES }) { ok group { msgMuteMode } } }`,
    );
    expect(data.updateGroup).toEqual({ ok: true, group: { msgMuteMode: 'BLOCK_MESSAGES' } });
    expect(g.callsTo('PUT /group/msg/mute_mode')[0]?.body).toEqual({ group_id: groupId, msg_mute_mode: 2 });
    // The owner's own mode is untouched.
    const owners = await g.data<{ group: { msgMuteMode: string } }>(owner, `{ group(id: "${groupId}") { msgMuteMode } }`);
    expect(owners.group.msgMuteMode).toBe('NONE');
  });

  it('msgPushMode sends PUT /group/msg/push_mode', async () => {
    const groupId = await g.group(owner);
    const data = await g.data<{ updateGroup: { ok: boolean; group: { msgPushMode: string } } }>(
      owner,
      `mutation { updateGroup(input: { groupId: "${groupId}", msgPushMode: MENTIONS_ONLY }) { ok group { msgPushMode } } }`,
    );
    expect(data.updateGroup).toEqual({ ok: true, group: { msgPushMode: 'MENTIONS_ONLY' } });
    expect(g.callsTo('PUT /group/msg/push_mode')[0]?.body).toEqual({ group_id: groupId, msg_push_mode: 4 });
  });

  it('reports a non-member as the userError NOT_A_MEMBER naming the setting', async () => {
    const stranger = await g.user();
    const groupId = await g.group(owner);
    const reply = await g.gql(
      stranger,
      `mutation { updateGroup(input: { groupId: "${groupId}", msgPushMode: NONE }) { ok updated userErrors { field code } } }`,
    );
    expect(reply).toEqual({
      data: { updateGroup: { ok: false, updated: [], userErrors: [{ field: ['input', 'msgPushMode'], code: 'NOT_A_MEMBER' }] } },
    });
    expect(g.endpoints()).toEqual(['PUT /group/msg/push_mode']);
  });
});

describe('ok alone', () => {
  for (const [mutation, endpoint, arg] of [
    ['setGroupMemberInvite', 'PUT /group/settings/allow_member_invitation', 'memberInvite: true'],
    ['setGroupMemberModify', 'PUT /group/settings/allow_member_modify', 'memberModify: true'],
    ['setGroupReadAck', 'PUT /group/settings/enable_read_ack', 'readAck: true'],
    ['setGroupHistoryVisible', 'PUT /group/settings/history_visible', 'historyVisible: true'],
    ['setGroupApplyApproval', 'PUT /group/settings/require_admin_approval', 'applyApproval: AGREE_ALL'],
    ['setGroupMuteMode', 'PUT /group/msg/mute_mode', 'msgMuteMode: NONE'],
    ['setGroupPushMode', 'PUT /group/msg/push_mode', 'msgPushMode: ALL'],
  ] as const) {
    it(`updateGroup with ${arg} (formerly ${mutation}) makes exactly one REST call (${endpoint}) when only ok is selected`, async () => {
      const groupId = await g.group(owner);
      await g.data(owner, `mutation { updateGroup(input: { groupId: "${groupId}", ${arg} }) { ok } }`);
      expect(g.endpoints()).toEqual([endpoint]);
    });
  }
});

describe('updateGroup: several settings at once', () => {
  it('makes one REST call per setting given, in the order of the input type, and none for absent ones', async () => {
    const groupId = await g.group(owner);
    const data = await g.data<{ updateGroup: unknown }>(
      owner,
      `mutation { updateGroup(input: { groupId: "${groupId}", msgPushMode: ALL, readAck: true, name: "renamed" }) { ok updated userErrors { code } } }`,
    );
    expect(data.updateGroup).toEqual({ ok: true, updated: ['name', 'readAck', 'msgPushMode'], userErrors: [] });
    expect(g.endpoints()).toEqual(['PUT /group/info/name', 'PUT /group/settings/enable_read_ack', 'PUT /group/msg/push_mode']);
  });

  it('goes on after a refusal, reporting each refused setting as a userError', async () => {
    const stranger = await g.user();
    const groupId = await g.group(owner);
    const reply = await g.gql(
      stranger,
      `mutation { updateGroup(input: { groupId: "${groupId}", msgMuteMode: NONE, msgPushMode: ALL }) { ok updated userErrors { field code } } }`,
    );
    expect(reply).toEqual({
      data: {
        updateGroup: {
          ok: false,
          updated: [],
          userErrors: [
            { field: ['input', 'msgMuteMode'], code: 'NOT_A_MEMBER' },
            { field: ['input', 'msgPushMode'], code: 'NOT_A_MEMBER' },
          ],
        },
      },
    });
    expect(g.endpoints()).toEqual(['PUT /group/msg/mute_mode', 'PUT /group/msg/push_mode']);
  });

  it("goes on past a setting the member's rank refuses (a userError naming it), applying the others", async () => {
    const member = await g.user();
    const groupId = await g.group(owner, { members: [member] });
    await g.data(owner, `mutation { updateGroup(input: { groupId: "${groupId}", memberModify: true }) { ok } }`);
    const data = await g.data<{ updateGroup: unknown }>(
      member,
      `mutation { updateGroup(input: { groupId: "${groupId}", name: "by member", readAck: true, msgMuteMode: NONE }) { ok updated userErrors { code field } } }`,
    );
    expect(data.updateGroup).toEqual({
      ok: false,
      updated: ['name', 'msgMuteMode'],
      userErrors: [{ code: 'NOT_GROUP_ADMIN', field: ['input', 'readAck'] }],
    });
    expect(g.endpoints()).toEqual(['PUT /group/info/name', 'PUT /group/settings/enable_read_ack', 'PUT /group/msg/mute_mode']);
    expect((await g.info(groupId)).name).toBe('by member');
  });

  it('refuses an input without any setting before any REST call', async () => {
    const reply = await g.gql(owner, 'mutation { updateGroup(input: { groupId: "1" }) { ok } }');
    expect(onlyError(reply)?.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'input' });
    expect(g.endpoints()).toEqual([]);
  });
});
