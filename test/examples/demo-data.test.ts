// npm start's demo data shows every flow of examples/ as GraphiQL runs them: each file is a tab
// whose operations share the variables the seed gives (src/gateway/http/graphiql.ts), run with the
// tab's headers (alice's token; the admin token for admin.graphql). Every operation GraphiQL can
// run answers without an error or a userError, and the screens show what they are for: a friend
// request waiting for alice, a pinned conversation on top, a group hiding member details, a reply
// that was streamed.
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoData, seedDemo } from '../../src/emulator/seed';
import { DEFAULT_DOCUMENT, graphiqlOptions } from '../../src/gateway/http/graphiql';
import { startStack, type Stack } from '../helpers/stack';

let stack: Stack;
let demo: DemoData;
beforeAll(async () => {
  stack = await startStack({}, { serviceCredential: true });
  demo = await seedDemo(stack.emu.url, stack.emu.appId, stack.emu.adminToken);
});
afterAll(() => stack.stop());

type Reply = { data?: Record<string, unknown> | null; errors?: { message: string }[] };

/** GraphiQL's tabs with npm start's demo: the query, the variables and the headers of each. */
function tabs() {
  const options = graphiqlOptions({
    headers: { app_id: stack.emu.appId, 'access-token': demo.token },
    variables: demo.variables,
    adminHeaders: { app_id: stack.emu.appId, 'access-token': stack.emu.adminToken },
  });
  return options.defaultTabs!.map((tab) => ({
    query: tab.query!,
    variables: JSON.parse(tab.variables ?? '{}') as Record<string, unknown>,
    headers: JSON.parse(tab.headers!) as Record<string, string>,
  }));
}

async function run(tab: ReturnType<typeof tabs>[number], operationName: string): Promise<Reply> {
  const res = await fetch(`${stack.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...tab.headers },
    body: JSON.stringify({ query: tab.query, variables: tab.variables, operationName }),
  });
  return (await res.json()) as Reply;
}

const operationsOf = (text: string) =>
  parse(text).definitions.flatMap((d) => (d.kind === 'OperationDefinition' ? [{ name: d.name!.value, type: d.operation }] : []));

/** What GraphiQL cannot run here: an upload (a file part), a download of an uploaded file, streams. */
const NOT_IN_GRAPHIQL = new Set(['UploadChatFile', 'ChatFileDownload']);

describe("npm start's demo data", () => {
  it('has a tab per example file, their operations all of the default document', () => {
    const names = tabs().flatMap((t) => operationsOf(t.query).map((o) => o.name));
    expect(names).toEqual(operationsOf(DEFAULT_DOCUMENT).map((o) => o.name));
  });

  it('shows each flow before anything is run: a pending request for alice, a pinned conversation, hidden member details, a streamed reply', async () => {
    const [me, home, groups, contacts, messages] = tabs();
    expect(me!.headers['access-token']).toBe(demo.token);

    const requests = (await run(contacts!, 'FriendRequestsScreen')).data as {
      me: { friendRequests: { edges: { node: { fromId: string; status: string; message: string } }[] } };
    };
    expect(requests.me.friendRequests.edges.map((e) => e.node)).toContainEqual(
      expect.objectContaining({ fromId: String(demo.users[3]!.id), status: 'PENDING' }),
    );

    const chats = (await run(home!, 'ChatHome')).data as {
      me: { conversations: { edges: { node: { pinned: boolean; peer: { id: string } } }[] } };
    };
    expect(chats.me.conversations.edges[0]!.node).toMatchObject({ pinned: true, peer: { id: String(demo.users[1]!.id) } });

    const group = (await run(groups!, 'GroupScreen')).data as {
      group: { id: string; members: { edges: { node: { userId: string; displayName: string | null } }[] } };
    };
    expect(group.group.id).toBe(String(demo.hiddenGroupId));
    const others = group.group.members.edges.filter((e) => e.node.userId !== String(demo.users[0]!.id));
    expect(others.length).toBeGreaterThan(0);
    for (const { node } of others) expect(node.displayName).toBeNull();

    const history = (await run(messages!, 'Conversation')).data as {
      me: { conversation: { edges: { node: { id: string; content: string } }[] } };
    };
    expect(history.me.conversation.edges.map((e) => e.node)).toContainEqual(
      expect.objectContaining({ id: String(demo.streamedMessageId), content: 'The login screen feels fast on both phones.' }),
    );
  });

  it('runs every operation of every tab with its variables and headers, with no error and no userError', async () => {
    for (const tab of tabs()) {
      for (const { name, type } of operationsOf(tab.query)) {
        if (NOT_IN_GRAPHIQL.has(name) || type === 'subscription') continue;
        const reply = await run(tab, name);
        expect({ name, errors: reply.errors }).toEqual({ name, errors: undefined });
        const payload = Object.values(reply.data ?? {})[0] as { userErrors?: unknown[] } | null;
        expect({ name, userErrors: payload?.userErrors ?? [] }).toEqual({ name, userErrors: [] });
      }
    }
  });
});
