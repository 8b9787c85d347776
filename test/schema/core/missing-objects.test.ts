// A missing object fetched by ID is null, as client caches expect: `group(id:)` (decided by the
// request's one POST /group/info/batch) and `user(id:)` (by the user's profile), without an
// error; lists by IDs keep one NOT_FOUND per missing ID. A user token without the service
// credential cannot tell a missing user from one it may not read: it gets the object.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../../helpers/emulator';
import { createGroup } from '../../helpers/groups';
import { type Stack, useCredentialStacks } from '../../helpers/stack';
import { MISSING_USER, tokenOf } from '../../helpers/users';

/** A group ID no group has (real IDs are around 2e12). */
const MISSING_GROUP = '999999999';

const { withCredential, without } = useCredentialStacks();

const endpointsOf = (stack: Stack) => stack.emu.calls().map((c) => c.endpoint);

describe('group(id:)', () => {
  let owner: TestUser;
  let groupId: number;
  beforeAll(async () => {
    owner = await without.emu.user();
    groupId = await createGroup(without.emu, owner, { name: 'kept' });
  });

  it('answers null without an error for a missing group, a sibling group keeping its data', async () => {
    without.emu.mark();
    const reply = await without.gql(
      `{ known: group(id: "${groupId}") { id name } unknown: group(id: "${MISSING_GROUP}") { id name description readAck } }`,
      {},
      tokenOf(owner),
    );
    expect(reply).toEqual({ data: { known: { id: String(groupId), name: 'kept' }, unknown: null } });
    // Both groups in the one batch; the missing one's record and settings fields are never read.
    expect(endpointsOf(without)).toEqual(['POST /group/info/batch']);
    expect(without.emu.calls('POST /group/info/batch')[0]?.body).toEqual({ group_list: [groupId, Number(MISSING_GROUP)] });
  });

  it('reads a missing group selecting name and memberCount with exactly one POST /group/info/batch', async () => {
    without.emu.mark();
    const reply = await without.gql(`{ group(id: "${MISSING_GROUP}") { name memberCount } }`, {}, tokenOf(owner));
    expect(reply).toEqual({ data: { group: null } });
    expect(endpointsOf(without)).toEqual(['POST /group/info/batch']);
  });

  it('answers an existing group as before: its summary fields from the same one batch call', async () => {
    without.emu.mark();
    const reply = await without.gql(`{ group(id: "${groupId}") { id name memberCount ownerId } }`, {}, tokenOf(owner));
    expect(reply).toEqual({ data: { group: { id: String(groupId), name: 'kept', memberCount: 1, ownerId: String(owner.id) } } });
    expect(endpointsOf(without)).toEqual(['POST /group/info/batch']);
  });

  it('answers null for a user ID: groups and users never share an ID', async () => {
    without.emu.mark();
    const reply = await without.gql(`{ group(id: "${owner.id}") { id } }`, {}, tokenOf(owner));
    expect(reply).toEqual({ data: { group: null } });
  });
});

describe('groups(ids:)', () => {
  it('keeps one NOT_FOUND, at the missing ID and naming it, beside the group found', async () => {
    const owner = await without.emu.user();
    const groupId = await createGroup(without.emu, owner, { name: 'found' });
    without.emu.mark();
    const reply = await without.gql<{ groups: ({ id: string; name: string } | null)[] }>(
      'query($ids: [ID!]!) { groups(ids: $ids) { id name } }',
      { ids: [String(groupId), MISSING_GROUP] },
      tokenOf(owner),
    );
    expect(reply.data?.groups).toEqual([{ id: String(groupId), name: 'found' }, null]);
    expect(reply.errors).toHaveLength(1);
    expect(reply.errors![0]).toMatchObject({ path: ['groups', 1], extensions: { code: 'NOT_FOUND', upstreamCode: 20001 } });
    expect(reply.errors![0]!.message).toContain(MISSING_GROUP);
    expect(without.emu.calls('POST /group/info/batch')).toHaveLength(1);
  });
});

describe('user(id:)', () => {
  it('answers null without an error for a missing user (admin token), an existing one unchanged', async () => {
    const u = await without.emu.user();
    without.emu.mark();
    const reply = await without.gql(
      `{ known: user(id: "${u.id}") { id username } unknown: user(id: "${MISSING_USER}") { id username } }`,
      {},
      { 'access-token': without.emu.adminToken },
    );
    expect(reply).toEqual({ data: { known: { id: String(u.id), username: u.name }, unknown: null } });
    // One profile read per user, as that user: the existence check and the fields share it; and the
    // caller proof (its own profile, no user_id), which tells the admin token before a user_id is sent.
    expect(
      without.emu
        .calls()
        .map((c) => `${c.endpoint} ${c.headers.user_id}`)
        .sort(),
    ).toEqual([`GET /user/profile ${MISSING_USER}`, `GET /user/profile ${u.id}`, 'GET /user/profile undefined'].sort());
  });

  it('answers null for a missing user to a user token when the gateway holds the service credential', async () => {
    const [a, b] = [await withCredential.emu.user(), await withCredential.emu.user()];
    await withCredential.emu.ok('PUT', '/user/nickname', { token: b.token, query: { nick_name: 'Bee' } });
    const reply = await withCredential.gql(
      `{ peer: user(id: "${b.id}") { id nickName } unknown: user(id: "${MISSING_USER}") { id nickName } }`,
      {},
      tokenOf(a),
    );
    expect(reply).toEqual({ data: { peer: { id: String(b.id), nickName: 'Bee' }, unknown: null } });
  });

  it('answers the object, its public fields null, to a user token without the credential: it cannot tell', async () => {
    const a = await without.emu.user();
    const b = await without.emu.user();
    without.emu.mark();
    const reply = await without.gql(
      `{ peer: user(id: "${b.id}") { id nickName } unknown: user(id: "${MISSING_USER}") { id nickName } me: user(id: "${a.id}") { id username } }`,
      {},
      tokenOf(a),
    );
    expect(reply).toEqual({
      data: {
        peer: { id: String(b.id), nickName: null },
        unknown: { id: MISSING_USER, nickName: null },
        me: { id: String(a.id), username: a.name },
      },
    });
    // A user token reads no other user's profile (the service refuses a user_id header but with the
    // admin token): the caller's own profile is read once, without one, for the proof, the check and username.
    expect(without.emu.calls().map((c) => `${c.endpoint} ${c.headers.user_id}`)).toEqual(['GET /user/profile undefined']);
  });
});
