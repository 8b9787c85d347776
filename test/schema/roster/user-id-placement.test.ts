// The gateway never sends what the service refuses (issue 42, item 5): a user_id header only with
// the admin token. A user token reading another user's username and description gets what its
// roster shows it (POST /roster/list), the private fields null, with no FORBIDDEN error and no
// call carrying a user_id; the admin token acting as a user (user_id header) on the six roster
// endpoints without that header (document 4) is refused before any call, naming why.
import { describe, expect, it } from 'vitest';
import { useStack } from '../../helpers/stack';
import { identity } from '../../helpers/users';

const stack = useStack();

describe('user_id placement', () => {
  it("reads another user's username and description from the caller's roster for a user token, private fields null, no user_id sent", async () => {
    const [me, other] = [await stack.emu.user(), await stack.emu.user()];
    await stack.emu.ok('PUT', '/user/profile', { token: other.token, body: { description: 'hello there' } });
    const profile = await stack.emu.ok<{ username: string }>('GET', '/user/profile', { token: other.token });
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ findUser: Record<string, string | null> }>(
      `query($id: ID!) { findUser(id: $id) { id username description email mobile privateInfo } }`,
      { id: String(other.id) },
      identity(stack.emu, me),
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.findUser).toEqual({
      id: String(other.id),
      username: profile.username,
      description: 'hello there',
      email: null,
      mobile: null,
      privateInfo: null,
    });
    expect(stack.emu.server.calls.filter((c) => c.headers.user_id !== undefined)).toEqual([]);
    // The acting user's own fields, read as a listed user, come from its own profile.
    const own = await stack.gql<{ user: { username: string } }>(
      `query($id: ID!) { user(id: $id) { username } }`,
      { id: String(me.id) },
      identity(stack.emu, me),
    );
    expect(own.errors).toBeUndefined();
    expect(stack.emu.server.calls.filter((c) => c.headers.user_id !== undefined)).toEqual([]);
  });

  it("refuses another user's private reads (settings, push tags, devices) to a user token before any call, and serves its own by ID", async () => {
    const [me, other] = [await stack.emu.user(), await stack.emu.user()];
    stack.emu.server.resetCalls();
    const reply = await stack.gql<{ user: { settings: unknown; devices: unknown } | null }>(
      `query($id: ID!) { user(id: $id) { id settings { id } pushTags devices(first: 5) { nodes { deviceSn } } } }`,
      { id: String(other.id) },
      identity(stack.emu, me),
    );
    const codes = (reply.errors ?? []).map((e) => e.extensions?.code);
    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes)).toEqual(new Set(['FORBIDDEN']));
    expect(reply.errors![0]!.message).toMatch(/of another user needs the admin token/);
    const sent = stack.emu.server.calls.map((c) => c.endpoint);
    expect(sent).not.toContain('GET /user/settings');
    expect(sent).not.toContain('GET /user/device/list');
    expect(sent).not.toContain('GET /user/push/tag');
    expect(stack.emu.server.calls.filter((c) => c.headers.user_id !== undefined)).toEqual([]);
    // The same fields of the caller itself, asked by its ID, are read with its own token.
    const own = await stack.gql<{ user: { settings: { id: string } } }>(
      `query($id: ID!) { user(id: $id) { settings { id } } }`,
      { id: String(me.id) },
      identity(stack.emu, me),
    );
    expect(own.errors).toBeUndefined();
    expect(own.data!.user.settings.id).toBeTruthy();
    expect(stack.emu.server.calls.filter((c) => c.headers.user_id !== undefined)).toEqual([]);
  });

  it('refuses the admin token acting as a user on a roster endpoint without a user_id header, before any call', async () => {
    const [me, other] = [await stack.emu.user(), await stack.emu.user()];
    stack.emu.server.resetCalls();
    const block = await stack.gql(`mutation($id: ID!) { blockUser(userId: $id) { ok } }`, { id: String(other.id) }, stack.asUser(me.id));
    expect(block.errors?.[0]?.message).toMatch(/PUT \/roster\/block takes no user_id header/);
    expect(block.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    const find = await stack.gql(`query($id: ID!) { findUser(id: $id) { id } }`, { id: String(other.id) }, stack.asUser(me.id));
    expect(find.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    const endpoints = stack.emu.server.calls.map((c) => c.endpoint);
    expect(endpoints).not.toContain('PUT /roster/block');
    expect(endpoints).not.toContain('GET /roster/id');
    // With the user's own token the same write goes through.
    const own = await stack.gql<{ blockUser: { ok: boolean } }>(
      `mutation($id: ID!) { blockUser(userId: $id) { ok } }`,
      { id: String(other.id) },
      identity(stack.emu, me),
    );
    expect(own.data!.blockUser.ok).toBe(true);
  });
});
