// Demo data for a fresh start: three users, a group with an announcement, a conversation, and a
// friendship.
// Made through the REST interface itself (our own client), so it obeys the real semantics.
import { createRestClient } from '../rest/client';
import type { Caller } from '../rest/caller';
import type { Int64 } from '../rest/json';

interface DemoData {
  users: { username: string; id: Int64 }[];
  password: string;
  /** A token of the first demo user. */
  token: string;
  groupId: Int64;
}

const PASSWORD = 'demo-password';
const PEOPLE = [
  { username: 'alice', nick_name: 'Alice', description: 'Product lead' },
  { username: 'bob', nick_name: 'Bob', description: 'Mobile developer' },
  { username: 'carol', nick_name: 'Carol', description: 'Designer' },
];

export async function seedDemo(baseUrl: string, appId: string, adminToken: string): Promise<DemoData> {
  const rest = createRestClient({ baseUrl, appId, retries: 0 });
  try {
    const registered = await rest.call(
      'POST /user/register/batch',
      { list: PEOPLE.map((p) => ({ username: p.username, password: PASSWORD })) },
      {},
    );
    const users = registered.data.map((r, i) => {
      if (!r.success) throw new Error(`seed: cannot register ${PEOPLE[i]!.username}: ${r.reason}`);
      return { username: PEOPLE[i]!.username, id: r.user_id };
    });
    const as = (id: Int64): Caller => ({ token: adminToken, userId: String(id) });
    for (const [i, user] of users.entries()) {
      const { nick_name, description } = PEOPLE[i]!;
      await rest.call('PUT /user/profile', { nick_name, description }, as(user.id));
    }
    const [alice, bob, carol] = users as [(typeof users)[0], (typeof users)[0], (typeof users)[0]];

    const group = await rest.call(
      'POST /group/create',
      { name: 'Demo team', description: 'Everyone in the demo', type: 0, user_list: [bob.id, carol.id] },
      as(alice.id),
    );
    const groupId = group.data.group_id;
    // Bob's auth_mode is the default 0: the application makes Alice and Bob friends at once.
    await rest.call('POST /roster/apply', { user_id: bob.id }, as(alice.id));
    await rest.call(
      'POST /group/announcement/edit',
      { group_id: groupId, title: 'Welcome', content: 'This group was made by the emulator seed. Try sending a message!' },
      as(alice.id),
    );

    const text = (from: Int64, to: Int64, type: 1 | 2, content: string) =>
      rest.call('PUT /message/send', { content_type: 0, content, attachment: '', targets: [to], type }, as(from));
    await text(alice.id, bob.id, 1, 'Hi Bob, the new build is ready.');
    await text(bob.id, alice.id, 1, 'Thanks! Testing it now.');
    await text(alice.id, bob.id, 1, 'Tell me how the login screen feels.');
    await text(carol.id, groupId, 2, 'Mock-ups for the group screen are uploaded.');

    const grant = await rest.call('POST /token/user', { name: alice.username, password: PASSWORD, device_guid: 'graphiql' }, {});
    return { users, password: PASSWORD, token: grant.data.token, groupId };
  } finally {
    await rest.close();
  }
}
