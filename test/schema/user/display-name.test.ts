// User.displayName is never null: the nickname; else the user name to callers the service lets
// read it (the user itself, an admin token), never through the gateway's service credential;
// else "User <id>". With and without a service credential, over real HTTP.
import { describe, expect, it } from 'vitest';
import { type Stack, useCredentialStacks } from '../../helpers/stack';

const { withCredential, without } = useCredentialStacks();

const NAME = 'query($id: ID!) { user(id: $id) { id displayName } }';
type Named = { user: { id: string; displayName: string } | null };

async function pair(stack: Stack, nick?: string) {
  const [named, other] = await Promise.all([stack.emu.user(), stack.emu.user()]);
  if (nick) await stack.emu.ok('PUT', '/user/nickname', { token: named.token, query: { nick_name: nick } });
  return { named, other };
}

describe.each([
  // Without the credential another user's profile is not the caller's to read: nickName is null too.
  ['with a service credential', () => withCredential, true],
  ['without a service credential', () => without, false],
])('User.displayName, %s', (_what, stackOf, peersReadable) => {
  it('is the nickname wherever nickName is readable', async () => {
    const stack = stackOf();
    const { named, other } = await pair(stack, 'Ann');
    const reply = await stack.gqlAs<{ user: { nickName: string | null; displayName: string } }>(
      other,
      'query($id: ID!) { user(id: $id) { nickName displayName } }',
      { id: String(named.id) },
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.user).toEqual(
      peersReadable ? { nickName: 'Ann', displayName: 'Ann' } : { nickName: null, displayName: `User ${named.id}` },
    );
    const own = await stack.gqlAs<{ me: { displayName: string } }>(named, '{ me { displayName } }');
    expect(own.data).toEqual({ me: { displayName: 'Ann' } });
  });

  it('is the user name for the user itself and for an admin token when there is no nickname', async () => {
    const stack = stackOf();
    const { named } = await pair(stack);
    const me = await stack.gqlAs<{ me: { displayName: string } }>(named, '{ me { displayName } }');
    expect(me.data).toEqual({ me: { displayName: named.name } });
    const admin = await stack.gqlAs<Named>('admin', NAME, { id: String(named.id) });
    expect(admin.data!.user!.displayName).toBe(named.name);
  });

  it('is "User <id>" for another user when there is no nickname: the private user name is not shown', async () => {
    const stack = stackOf();
    const { named, other } = await pair(stack);
    const reply = await stack.gqlAs<Named>(other, NAME, { id: String(named.id) });
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.user).toEqual({ id: String(named.id), displayName: `User ${named.id}` });
  });
});
