// Cache-safe identity: every object type with an identity answers an `id`, so that a normalized
// client cache keeps one entry per object. Objects named by several IDs (a member: its group and
// its user) answer them joined; value objects (payloads, pages, counts) are listed as such here.
import { isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../../src/schema';
import { createGroup } from '../../helpers/groups';
import { useStack } from '../../helpers/stack';

/** Object types that are values, not things with an identity: no `id` is expected of them. */
const VALUES = new Set([
  'FriendRequestResult',
  'GroupFileResult',
  'GroupQrCode',
  'GroupUserResult',
  'KeyValue',
  'MessageAttachment',
  'MessageRead',
  'MessageRecalled',
  'MessageReceived',
  'PageInfo',
  'PushCertificate',
  'PushChannelStats',
  'PushCounts',
  'Token',
  'UnreadConversation',
  'UploadTarget',
  'UploadedFile',
  'UserBatchResult',
  'UserError',
]);
const ROOTS = new Set(['Query', 'Mutation', 'Subscription']);
const isWrapper = (name: string) => /(Payload|Connection|Edge)$/.test(name);

describe('the schema', () => {
  it('gives every object type with an identity an id field', () => {
    const missing = Object.values(schema.getTypeMap())
      .filter(isObjectType)
      .filter((t) => !t.name.startsWith('__') && !ROOTS.has(t.name) && !isWrapper(t.name) && !VALUES.has(t.name))
      .filter((t) => !('id' in t.getFields()))
      .map((t) => t.name);
    expect(missing).toEqual([]);
  });
});

describe('ids of objects named by several IDs', () => {
  const stack = useStack();

  it("answers a member's id as group and user, the same however the member is read, and distinct per group", async () => {
    const [owner, member] = [await stack.emu.user(), await stack.emu.user()];
    const first = await createGroup(stack.emu, owner, { members: [member] });
    const second = await createGroup(stack.emu, owner, { members: [member] });
    const query = `query($a: ID!, $b: ID!, $u: ID!) {
      a: group(id: $a) { members(first: 10) { nodes { id userId } } member(userId: $u) { id } }
      b: group(id: $b) { member(userId: $u) { id } }
    }`;
    type Reply = { a: { members: { nodes: { id: string; userId: string }[] }; member: { id: string } }; b: { member: { id: string } } };
    const reply = await stack.gql<Reply>(query, { a: String(first), b: String(second), u: String(member.id) }, stack.asUser(owner.id));
    expect(reply.errors).toBeUndefined();
    const listed = reply.data!.a.members.nodes.find((m) => m.userId === String(member.id));
    expect(listed?.id).toBe(`${first}:${member.id}`);
    expect(reply.data!.a.member.id).toBe(listed?.id);
    expect(reply.data!.b.member.id).toBe(`${second}:${member.id}`);
  });

  it("answers a device's id as user and device number", async () => {
    const user = await stack.emu.user();
    await stack.emu.ok('POST', '/token/user', { body: { name: user.name, password: user.password, device_guid: `guid-${user.id}` } });
    const reply = await stack.gql<{ me: { devices: { nodes: { id: string; deviceSn: number }[] } } }>(
      '{ me { devices { nodes { id deviceSn } } } }',
      {},
      stack.asUser(user.id),
    );
    expect(reply.errors).toBeUndefined();
    const devices = reply.data!.me.devices.nodes;
    expect(devices.length).toBeGreaterThan(0);
    for (const d of devices) expect(d.id).toBe(`${user.id}:${d.deviceSn}`);
  });
});
