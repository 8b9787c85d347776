// The fan-out queries of issue 20, replayed: each was accepted and made hundreds of REST calls
// (1,122 for the first, minutes and gigabytes for the others). Each is now refused before
// execution, HTTP 400, with at most one REST call counted at the emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/emulator';
import { createGroup } from '../helpers/groups';
import { startStack, type Stack } from '../helpers/stack';
import { postAs, type StatusReply } from './post-as';

let stack: Stack;
let user: TestUser;
let groups: number[];
beforeAll(async () => {
  stack = await startStack({}, { serviceCredential: true });
  user = await stack.emu.user();
  const other = await stack.emu.user();
  groups = [await createGroup(stack.emu, user, { members: [other] }), await createGroup(stack.emu, other, { members: [user] })];
});
afterAll(() => stack.stop());

const post = (query: string, variables?: Record<string, unknown>) => postAs(stack, user, query, variables);

const MEMBERS = 'members(first: 1000) { nodes { role user { nickName avatar online } } }';
const joined = (first: number) => `joinedGroups(first: ${first}) { nodes { ${MEMBERS} } }`;

/** Sends the query with the emulator's call count marked; answers the reply and the calls it caused. */
async function probe(query: string, variables?: Record<string, unknown>): Promise<StatusReply & { calls: number }> {
  stack.emu.mark();
  const reply = await post(query, variables);
  return { ...reply, calls: stack.emu.calls().length };
}

describe('fan-out queries of issue 20', () => {
  it('refuses every member of every joined group with their profiles: MAX_COST_EXCEEDED, HTTP 400, no REST call', async () => {
    const reply = await probe(`{ me { ${joined(1000)} } }`);
    expect(reply.status).toBe(400);
    expect(reply.body.data).toBeUndefined();
    expect(reply.body.errors).toHaveLength(1);
    expect(reply.body.errors![0]!.extensions).toMatchObject({ code: 'MAX_COST_EXCEEDED', limit: 1000 });
    expect(reply.body.errors![0]!.extensions!.cost).toBeGreaterThan(1_000_000);
    expect(reply.calls).toBeLessThanOrEqual(1);
  });

  it('refuses the same under 49 aliases, each with another first', async () => {
    const aliases = Array.from({ length: 49 }, (_, i) => `a${i}: ${joined(1000 - i)}`).join(' ');
    const reply = await probe(`{ me { ${aliases} } }`);
    expect(reply.status).toBe(400);
    expect(reply.body.errors![0]!.extensions!.code).toBe('MAX_COST_EXCEEDED');
    expect(reply.body.errors![0]!.extensions!.cost).toBeGreaterThan(49_000_000);
    expect(reply.calls).toBeLessThanOrEqual(1);
  });

  it('refuses groups(ids:) with 1,000 IDs of 2 groups repeated: each distinct group still costs its members', async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => String(groups[i % groups.length]));
    const reply = await probe(`query($ids: [ID!]!) { groups(ids: $ids) { ${MEMBERS} } }`, { ids });
    expect(reply.status).toBe(400);
    expect(reply.body.errors![0]!.extensions).toMatchObject({ code: 'MAX_COST_EXCEEDED', limit: 1000 });
    // Two groups' members with their profiles, not a thousand positions' worth.
    expect(reply.body.errors![0]!.extensions!.cost).toBeLessThan(10_000);
    expect(reply.calls).toBeLessThanOrEqual(1);
  });

  it('refuses groups(ids:) with 1,000 distinct IDs and their members: MAX_COST_EXCEEDED', async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => String(2_000_000_000_000 + i));
    const reply = await probe(`query($ids: [ID!]!) { groups(ids: $ids) { ${MEMBERS} } }`, { ids });
    expect(reply.status).toBe(400);
    expect(reply.body.errors![0]!.extensions).toMatchObject({ code: 'MAX_COST_EXCEEDED', limit: 1000 });
    expect(reply.calls).toBeLessThanOrEqual(1);
  });

  it('still answers the same walk over small pages', async () => {
    const reply = await probe(`{ me { joinedGroups(first: 5) { nodes { members(first: 20) { nodes { role user { nickName } } } } } } }`);
    expect(reply.status).toBe(200);
    expect(reply.body.errors).toBeUndefined();
    const nodes = (reply.body.data as { me: { joinedGroups: { nodes: { members: { nodes: unknown[] } }[] } } }).me.joinedGroups.nodes;
    expect(nodes).toHaveLength(2);
    expect(nodes.every((g) => g.members.nodes.length === 2)).toBe(true);
  });
});
