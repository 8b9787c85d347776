// Demand control over real HTTP (and one refusal over graphql-ws): the static estimate and
// MAX_COST, COST_MODE=measure, the run-time MAX_REST_CALLS budget, duplicate IDs, the caps on
// errors and answer size, and the REST-call histograms in /metrics.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  isObjectType,
  Kind,
  parse,
  typeFromAST,
  type GraphQLInputType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_COST } from '../../src/config';
import { estimateCost, LIST_SIZES } from '../../src/gateway/execution/cost-estimate';
import { schema } from '../../src/schema';
import { SCAN_PAGES } from '../../src/schema/group/loaders';
import type { TestUser } from '../helpers/emulator';
import { createGroup } from '../helpers/groups';
import { captureLog } from '../helpers/log-capture';
import { createLogger, setLogger } from '../../src/log/logger';
import { startStack, type Stack } from '../helpers/stack';
import { wsClient } from '../helpers/subscriptions/clients';
import { postAs, type StatusReply } from './post-as';

const estimate = (query: string, variables?: Record<string, unknown>) => estimateCost(schema, parse(query), undefined, variables).calls;

describe('the static estimate', () => {
  it('counts fields read from the parent as 0 and the fields of one record as one call', () => {
    expect(estimate('{ me { id } }')).toBe(0);
    expect(estimate('{ me { nickName avatar email } }')).toBe(1);
    expect(estimate('{ me { nickName online } }')).toBe(2);
  });

  it('multiplies a connection by first, from a literal, a variable or its default', () => {
    const query = 'query($n: Int) { me { joinedGroups(first: $n) { nodes { description } } } }';
    expect(estimate(query, { n: 10 })).toBe(11);
    expect(estimate(query.replace('$n: Int', '$n: Int = 7'))).toBe(8);
    // joinedGroups' own default page: 100.
    expect(estimate('{ me { joinedGroups { nodes { description } } } }')).toBe(101);
    expect(estimate('{ me { joinedGroups(first: 3) { edges { node { description } } } } }')).toBe(4);
  });

  it("multiplies by a list variable's length", () => {
    const query = 'query($ids: [ID!]!) { groups(ids: $ids) { description } }';
    expect(estimate(query, { ids: ['1', '2', '3'] })).toBe(1 + 3);
    expect(estimate(query, { ids: ['1'] })).toBe(1 + 1);
  });

  it('counts a batch endpoint once per batch of the whole operation', () => {
    const ids = Array.from({ length: 1500 }, (_, i) => String(i + 1));
    // POST /group/info/batch: 1,000 groups a call.
    expect(estimate('query($ids: [ID!]!) { groups(ids: $ids) { name memberCount } }', { ids })).toBe(2);
    expect(estimate('{ a: group(id: 1) { name } b: group(id: 2) { name } }')).toBe(1);
  });

  it('counts every alias of a field with arguments, and fields in fragments and inline fragments', () => {
    expect(estimate('{ me { a: joinedGroups(first: 1) { totalCount } b: joinedGroups(first: 2) { totalCount } } }')).toBe(2);
    expect(estimate('{ me { ...F } } fragment F on User { joinedGroups(first: 2) { nodes { description } } }')).toBe(3);
    // node(id:) reads one kind's object, the most a list searched page by page (SCAN_PAGES calls).
    expect(estimate('{ node(id: 1) { ... on Group { description } ... on User { online } } }')).toBe(SCAN_PAGES + 1 + 1);
  });

  it('counts a repeated ID once: the calls for it are collapsed', () => {
    expect(estimate('{ groups(ids: [1, 2, 1, 2, 1]) { description } }')).toBe(1 + 2);
  });

  it('takes the default of an argument whose variable the request leaves out', () => {
    expect(estimate('query($n: Int) { me { joinedGroups(first: $n) { nodes { description } } } }')).toBe(101);
  });

  it('knows the size of every list of objects that neither arguments nor a connection bound', () => {
    const unsized: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__') || 'pageInfo' in type.getFields()) continue;
      for (const field of Object.values(type.getFields())) {
        if (!isListType(getNullableType(field.type)) || !isCompositeType(getNamedType(field.type))) continue;
        if (field.args.some((a) => ['first', 'last'].includes(a.name) || isListType(getNullableType(a.type)))) continue;
        if (field.name !== 'userErrors' && !LIST_SIZES.has(`${type.name}.${field.name}`)) unsized.push(`${type.name}.${field.name}`);
      }
    }
    expect(unsized).toEqual([]);
  });

  it('gives every operation of examples/ room under the default MAX_COST (list variables of 10 IDs)', () => {
    const costs: Record<string, number> = {};
    for (const file of readdirSync('examples')) {
      const document = parse(readFileSync(join('examples', file), 'utf8'));
      for (const operation of document.definitions) {
        if (operation.kind !== Kind.OPERATION_DEFINITION) continue;
        const variables: Record<string, unknown> = {};
        for (const v of operation.variableDefinitions ?? []) {
          const type = typeFromAST(schema, v.type as never) as GraphQLInputType | undefined;
          if (type && isListType(getNullableType(type)) && getNamedType(type).name === 'ID') {
            variables[v.variable.name.value] = Array.from({ length: 10 }, (_, i) => String(i + 1));
          }
        }
        costs[operation.name!.value] = estimateCost(schema, document, operation.name!.value, variables).calls;
      }
    }
    expect(Object.keys(costs).length).toBeGreaterThan(10);
    for (const cost of Object.values(costs)) expect(cost).toBeLessThanOrEqual(DEFAULT_MAX_COST / 5);
  });
});

type Reply = StatusReply;
const post = postAs;

const codes = (reply: Reply) => (reply.body.errors ?? []).map((e) => e.extensions?.code);

describe('MAX_COST, enforced', () => {
  let stack: Stack;
  let user: TestUser;
  beforeAll(async () => {
    stack = await startStack({ MAX_COST: '20' });
    user = await stack.emu.user();
    await createGroup(stack.emu, user);
  });
  afterAll(() => stack.stop());

  it('refuses an operation over the limit with 400, its cost and the limit, before any REST call', async () => {
    stack.emu.mark();
    const reply = await post(stack, user, '{ me { joinedGroups(first: 50) { nodes { description } } } }');
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'MAX_COST_EXCEEDED', cost: 51, limit: 20 }) }),
    ]);
    expect(stack.emu.calls()).toHaveLength(0);
  });

  it('runs the same operation within the limit', async () => {
    const reply = await post(stack, user, '{ me { joinedGroups(first: 19) { nodes { description } } } }');
    expect(reply.status).toBe(200);
    expect(reply.body.errors).toBeUndefined();
  });

  it('collapses repeated IDs before the calls and still answers every position', async () => {
    const id = String(await createGroup(stack.emu, user, { name: 'twice' }));
    stack.emu.mark();
    // 20 positions of one group: within the limit of 20, since they cost what one does.
    const ids = Array.from({ length: 20 }, () => id);
    const reply = await post(stack, user, 'query($ids: [ID!]!) { groups(ids: $ids) { name description } }', { ids });
    expect(reply.body.errors).toBeUndefined();
    expect(reply.body.data?.groups).toEqual(ids.map(() => ({ name: 'twice', description: expect.anything() as unknown })));
    expect(stack.emu.calls().map((c) => c.endpoint)).toEqual(['POST /group/info/batch', 'GET /group/info']);
  });

  it('refuses over graphql-ws too, for that operation only', async () => {
    const client = wsClient(stack.url, { 'access-token': user.token, app_id: stack.emu.appId });
    try {
      const refused = client.feed('{ me { joinedGroups(first: 50) { nodes { description } } } }');
      const result = await refused.next();
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'MAX_COST_EXCEEDED', cost: 51, limit: 20 });
      const fine = await client.feed<{ me: { id: string } }>('{ me { id nickName } }').next();
      expect(fine.data?.me.id).toBe(String(user.id));
    } finally {
      await client.dispose();
    }
  });

  it('shows estimated and made REST calls per operation in /metrics', async () => {
    await post(stack, user, 'query Profile { me { nickName online } }');
    const text = await (await fetch(`${stack.url}/metrics`)).text();
    expect(text).toMatch(/im_gateway_operation_rest_calls_estimated_sum\{operationName="Profile",operationType="query"\} 2/);
    expect(text).toMatch(/im_gateway_operation_rest_calls_sum\{operationName="Profile",operationType="query"\} 2/);
    expect(text).toMatch(/im_gateway_cost_over_limit_total\{mode="enforce"\} [1-9]/);
  });
});

describe('COST_MODE=measure', () => {
  let stack: Stack;
  let user: TestUser;
  const captured = captureLog('warn');
  beforeAll(async () => {
    setLogger(captured.logger);
    stack = await startStack({ MAX_COST: '20', COST_MODE: 'measure' });
    user = await stack.emu.user();
  });
  afterAll(async () => {
    await stack.stop();
    setLogger(createLogger());
  });

  it('runs an operation over the limit, logs it and counts it', async () => {
    const reply = await post(stack, user, 'query Wide { me { joinedGroups(first: 50) { nodes { description } } } }');
    expect(reply.status).toBe(200);
    expect(reply.body.errors).toBeUndefined();
    expect(captured.entries).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: expect.stringMatching(/operation Wide estimated at 51 REST calls, limit 20/) }),
    );
    const text = await (await fetch(`${stack.url}/metrics`)).text();
    expect(text).toMatch(/im_gateway_cost_over_limit_total\{mode="measure"\} 1/);
  });
});

describe('MAX_REST_CALLS', () => {
  let stack: Stack;
  let user: TestUser;
  beforeAll(async () => {
    stack = await startStack({ MAX_REST_CALLS: '2' });
    user = await stack.emu.user();
  });
  afterAll(() => stack.stop());

  it('fails the fields past the budget with UPSTREAM_BUDGET_EXCEEDED while their siblings keep their data', async () => {
    stack.emu.mark();
    // Three calls: the profile, the online status, the push tags; the first two are made.
    const reply = await post(stack, user, '{ me { id nickName online pushTags } }');
    expect(reply.status).toBe(200);
    const me = reply.body.data?.me as Record<string, unknown>;
    expect(me.id).toBe(String(user.id));
    expect(me.nickName).toEqual(expect.any(String));
    expect(me.online).toEqual(expect.any(Boolean));
    expect(me.pushTags).toBeNull();
    expect(reply.body.errors).toEqual([
      expect.objectContaining({
        path: ['me', 'pushTags'],
        extensions: { code: 'UPSTREAM_BUDGET_EXCEEDED', endpoint: 'GET /user/push/tag', limit: 2 },
      }),
    ]);
    expect(stack.emu.calls()).toHaveLength(2);
  });

  it('counts the writes of one mutation against the same budget (a write does not renew it)', async () => {
    stack.emu.mark();
    const reply = await post(
      stack,
      user,
      'mutation { a: setNickname(input: { nickName: "a" }) { ok } b: setNickname(input: { nickName: "b" }) { ok } c: setNickname(input: { nickName: "c" }) { ok } }',
    );
    expect(reply.body.data?.a).toEqual({ ok: true });
    expect(reply.body.data?.b).toEqual({ ok: true });
    expect(reply.body.data?.c).toBeNull();
    expect(codes(reply)).toEqual(['UPSTREAM_BUDGET_EXCEEDED']);
    expect(stack.emu.calls()).toHaveLength(2);
  });

  it('gives each request a budget of its own', async () => {
    const reply = await post(stack, user, '{ me { nickName online } }');
    expect(reply.body.errors).toBeUndefined();
  });
});

describe('answer caps', () => {
  let stack: Stack;
  let user: TestUser;
  beforeAll(async () => {
    stack = await startStack({ MAX_ERRORS: '3', MAX_RESPONSE_BYTES: '4096' });
    user = await stack.emu.user();
  });
  afterAll(() => stack.stop());

  it('keeps MAX_ERRORS - 1 errors and sums up the rest in one TOO_MANY_ERRORS error', async () => {
    const ids = Array.from({ length: 6 }, (_, i) => String(2_900_000_000_000 + i));
    const reply = await post(stack, user, 'query($ids: [ID!]!) { groups(ids: $ids) { name } }', { ids });
    expect(reply.body.data?.groups).toEqual([null, null, null, null, null, null]);
    expect(codes(reply)).toEqual(['NOT_FOUND', 'NOT_FOUND', 'TOO_MANY_ERRORS']);
    expect(reply.body.errors![2]!.extensions).toMatchObject({ count: 4, total: 6, limit: 3 });
  });

  it('replaces an answer over MAX_RESPONSE_BYTES with one RESPONSE_TOO_LARGE error', async () => {
    const reply = await post(stack, user, '{ __schema { types { name description } } }');
    expect(reply.body.data ?? null).toBeNull();
    expect(reply.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'RESPONSE_TOO_LARGE', limit: 4096 } })]);
  });

  it('leaves a small answer alone', async () => {
    const reply = await post(stack, user, '{ __type(name: "PageInfo") { name } }');
    expect(reply.body).toEqual({ data: { __type: { name: 'PageInfo' } } });
  });
});

describe('the estimate against the calls made', () => {
  let stack: Stack;
  let alice: TestUser;
  let bob: TestUser;
  let group: number;
  const examples = ['me', 'groups', 'home', 'messages'].map((f) => readFileSync(join('examples', `${f}.graphql`), 'utf8')).join('\n');
  beforeAll(async () => {
    stack = await startStack({}, { serviceCredential: true });
    alice = await stack.emu.user();
    bob = await stack.emu.user();
    group = await createGroup(stack.emu, alice, { members: [bob] });
    // Type 1: to users, 2: to a group.
    for (const [to, type] of [
      [bob.id, 1],
      [group, 2],
    ] as const) {
      await stack.emu.ok('POST', '/message/send', {
        token: alice.token,
        body: { content_type: 0, content: 'hello', attachment: '', targets: [to], type },
      });
    }
  });
  afterAll(() => stack.stop());

  /** Runs an operation as bob; answers the REST calls the emulator received and the estimate. */
  async function measured(query: string, operationName: string | undefined, variables: Record<string, unknown>) {
    stack.emu.mark();
    const res = await fetch(`${stack.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'access-token': bob.token, app_id: stack.emu.appId },
      body: JSON.stringify({ query, operationName, variables }),
    });
    const body = (await res.json()) as Reply['body'];
    expect(body.errors).toBeUndefined();
    return { made: stack.emu.calls().length, estimated: estimateCost(schema, parse(query), operationName, variables).calls };
  }

  it.each([
    ['Me', {}],
    ['GroupScreen', () => ({ id: String(group) })],
    ['ChatHome', {}],
    ['Conversation', () => ({ with: String(alice.id) })],
  ] as const)('bounds the calls of the example %s', async (name, vars) => {
    const { made, estimated } = await measured(examples, name, typeof vars === 'function' ? vars() : vars);
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThanOrEqual(estimated);
  });

  it('bounds the calls of a walk over groups, members and their profiles', async () => {
    const query = `query($ids: [ID!]!) {
      me { joinedGroups(first: 5) { nodes { name description members(first: 10) { nodes { role user { nickName online } } } } } }
      groups(ids: $ids) { name owner { nickName } latestAnnouncement { id } }
    }`;
    const { made, estimated } = await measured(query, undefined, { ids: [String(group)] });
    expect(made).toBeGreaterThan(3);
    expect(made).toBeLessThanOrEqual(estimated);
  });
});
