// updateGroup writes one setting after another. A failure that is not a refusal (the service
// failing, not saying no) stops there: the error names the setting and those already applied, and
// no later setting is attempted, so a client knows exactly what changed. The service fails here
// through a proxy in front of the emulator that answers one endpoint with an HTTP 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator, type TestUser } from '../../helpers/emulator';
import { createGroup } from '../../helpers/groups';
import { forward, listen, type Listening } from '../../helpers/proxy';
import { gatewayVia } from '../../helpers/stack';

let emu: TestEmulator;
let owner: TestUser;
let upstream: Listening;
let gw: Awaited<ReturnType<typeof gatewayVia>>;
/** Paths of the calls that reached the proxy, in order. */
const seen: string[] = [];
const FAILING = '/group/settings/enable_read_ack';

beforeAll(async () => {
  emu = await startEmulator();
  owner = await emu.user();
  upstream = await listen(async (req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    seen.push(`${req.method} ${path}`);
    if (path === FAILING) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('storage unavailable');
      return;
    }
    await forward(emu.url, req, res);
  });
  // No retries: the one failing call is the whole story.
  gw = await gatewayVia(upstream.url, { IM_RETRIES: '0' });
});
afterAll(async () => {
  await gw?.gateway.stop();
  upstream?.server.close();
  await emu?.stop();
});

async function updateGroup(input: string) {
  const res = await fetch(`${gw.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', app_id: emu.appId, 'access-token': owner.token },
    body: JSON.stringify({ query: `mutation { updateGroup(input: { ${input} }) { ok updated } }` }),
  });
  return (await res.json()) as {
    data?: { updateGroup: unknown };
    errors?: { message: string; path?: unknown[]; extensions?: Record<string, unknown> }[];
  };
}

describe('updateGroup when the service fails a setting', () => {
  it('stops at that setting, names it and those applied, and attempts none after it', async () => {
    const group = await createGroup(emu, owner, { name: 'before' });
    seen.length = 0;
    const reply = await updateGroup(`groupId: "${group}", name: "after", memberInvite: true, readAck: true, historyVisible: true`);

    expect(reply.data?.updateGroup ?? null).toBeNull();
    expect(reply.errors).toHaveLength(1);
    const [error] = reply.errors!;
    expect(error!.path).toEqual(['updateGroup']);
    expect(error!.message).toMatch(/^input\.readAck: .*settings applied before it: name, memberInvite; later ones not attempted/);
    expect(error!.extensions).toMatchObject({ field: 'input.readAck', updated: ['name', 'memberInvite'] });
    // The writes before it happened; the one after it was never sent. (These endpoints list PUT
    // and POST: the client sends POST.)
    expect(seen.filter((call) => call.startsWith('POST '))).toEqual([
      'POST /group/info/name',
      'POST /group/settings/allow_member_invitation',
      `POST ${FAILING}`,
    ]);
    const info = await emu.ok<{ name: string; settings?: unknown }>('GET', '/group/info', {
      token: owner.token,
      query: { group_id: group },
    });
    expect(info.name).toBe('after');
  });
});
