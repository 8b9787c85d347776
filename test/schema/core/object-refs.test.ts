// Cache-safe identity: `node(id:)` fetches a User or a Group by its exact int64 ID (null when
// there is none), and a message names its sender and receiver as User/Group references, so a
// normalized cache keys them by type and ID, with the device number on the message itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group } from '../../../src/rest/records';
import { startStack, type Stack } from '../../helpers/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({}, { serviceCredential: true });
});
afterAll(() => stack.stop());

const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on User { nickName } ... on Group { name } } }`;

describe('node(id:)', () => {
  it('answers a group as a Group and a user as a User, by their exact IDs', async () => {
    const [a, b] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    await stack.emu.ok('PUT', '/user/nickname', { token: b.token, query: { nick_name: 'Bea' } });
    const g = await stack.emu.ok<Group>('POST', '/group/create', { token: a.token, body: { name: 'club', user_list: [b.id] } });
    const group = await stack.gql(NODE, { id: String(g.group_id) }, { 'access-token': a.token });
    expect(group).toEqual({ data: { node: { __typename: 'Group', id: String(g.group_id), name: 'club' } } });
    const user = await stack.gql(NODE, { id: String(b.id) }, { 'access-token': a.token });
    expect(user).toEqual({ data: { node: { __typename: 'User', id: String(b.id), nickName: 'Bea' } } });
  });

  it('answers null, without an error, for an ID that names nothing', async () => {
    const a = await stack.emu.user();
    const reply = await stack.gql(NODE, { id: '1' }, { 'access-token': a.token });
    expect(reply).toEqual({ data: { node: null } });
  });
});

describe('message parties', () => {
  it('names the sender as a User, the receiver as a User or Group, and the device on the message', async () => {
    const [a, b] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    const g = await stack.emu.ok<Group>('POST', '/group/create', { token: a.token, body: { name: 'club', user_list: [b.id] } });
    const send = (to: number | bigint, type: number) =>
      stack.emu.ok('POST', '/message/send', {
        token: a.token,
        body: { content_type: 0, content: 'hi', attachment: '', targets: [to], type },
      });
    await send(b.id, 1);
    await send(g.group_id, 2);
    const read = async (withId: string) => {
      const reply = await stack.gql<{ me: { conversation: { nodes: unknown[] } } }>(
        `query($w: ID!) { me { conversation(with: $w) { nodes { deviceSn from { __typename id } to { __typename ... on User { id } ... on Group { id } } } } } }`,
        { w: withId },
        { 'access-token': b.token },
      );
      expect(reply.errors).toBeUndefined();
      return reply.data!.me.conversation.nodes;
    };
    expect(await read(String(a.id))).toEqual([
      { deviceSn: 0, from: { __typename: 'User', id: String(a.id) }, to: { __typename: 'User', id: String(b.id) } },
    ]);
    expect(await read(String(g.group_id))).toEqual([
      { deviceSn: 0, from: { __typename: 'User', id: String(a.id) }, to: { __typename: 'Group', id: String(g.group_id) } },
    ]);
  });
});

describe('Member.role', () => {
  it('tells the owner, the admins and the other members apart, with one admin list read', async () => {
    const [a, b, c] = await Promise.all([stack.emu.user(), stack.emu.user(), stack.emu.user()]);
    const g = await stack.emu.ok<Group>('POST', '/group/create', { token: a.token, body: { name: 'club', user_list: [b.id, c.id] } });
    await stack.emu.ok('POST', '/group/admin/add', { token: a.token, body: { group_id: g.group_id, user_list: [b.id] } });
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ group: { members: { nodes: { userId: string; role: string }[] } } }>(
      'query($g: ID!) { group(id: $g) { members { nodes { userId role } } } }',
      { g: String(g.group_id) },
      { 'access-token': c.token },
    );
    expect(reply.errors).toBeUndefined();
    const roles = Object.fromEntries(reply.data!.group.members.nodes.map((n) => [n.userId, n.role]));
    expect(roles).toEqual({ [String(a.id)]: 'OWNER', [String(b.id)]: 'ADMIN', [String(c.id)]: 'MEMBER' });
    expect(stack.emu.server.calls.filter((call) => call.endpoint === 'GET /group/admin_list')).toHaveLength(1);
  });
});
