// Probes against the GraphQL document: thousands of nested selections (once an HTTP 500 with a
// stack trace logged per request), depth and alias limits (once "Syntax Error" without a code),
// 1,000 repetitions of one field (once a bare "Validation aborted."), and a wrong password (once
// NOT_FOUND). Each is refused with a code of its own and nothing is logged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack';
import { expectNoErrorLogs } from '../helpers/no-error-logs';

let stack: Stack;
let user: { id: number; name: string };
beforeAll(async () => {
  stack = await startStack();
  user = await stack.emu.user();
});
afterAll(() => stack.stop());

expectNoErrorLogs();

async function post(query: string): Promise<{ status: number; errors: { message: string; extensions?: Record<string, unknown> }[] }> {
  const res = await fetch(`${stack.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...stack.asUser(user.id) },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as { errors: { message: string; extensions?: Record<string, unknown> }[] };
  return { status: res.status, errors: body.errors };
}

/** `{ me { groups { me { groups ... } } } }`-like nesting `levels` deep (fields need not exist). */
const nested = (levels: number) => `{ ${'me { '.repeat(levels)}id${' }'.repeat(levels)} }`;

describe('document limits', () => {
  it('answers 5,000 nested selections with 400 MAX_TOKENS_EXCEEDED, not a 500', async () => {
    stack.emu.server.resetCalls();
    const reply = await post(nested(5_000));
    expect(reply.status).toBe(400);
    expect(reply.errors).toHaveLength(1);
    expect(reply.errors[0]?.extensions).toMatchObject({ code: 'MAX_TOKENS_EXCEEDED', limit: 2000 });
    expect(reply.errors[0]?.message).toMatch(/more than 2000 tokens/);
    expect(stack.emu.server.calls).toHaveLength(0);
  });

  it('answers a query over MAX_QUERY_DEPTH with MAX_DEPTH_EXCEEDED and a message naming the limit', async () => {
    // 12 levels of `me` and the `id` under them: 13 deep.
    const reply = await post(nested(12));
    expect(reply.status).toBe(400);
    const error = reply.errors.find((e) => e.extensions?.code === 'MAX_DEPTH_EXCEEDED');
    expect(error?.message).toBe('Query depth limit of 12 exceeded, found 13.');
    expect(error?.extensions?.limit).toBe(12);
    expect(JSON.stringify(reply.errors)).not.toContain('Syntax Error');
  });

  it('answers more aliases than MAX_QUERY_ALIASES with MAX_ALIASES_EXCEEDED', async () => {
    const reply = await post(`{ ${Array.from({ length: 51 }, (_, i) => `a${i}: me { id }`).join(' ')} }`);
    expect(reply.status).toBe(400);
    expect(reply.errors).toEqual([
      { message: 'Aliases limit of 50 exceeded, found 51.', extensions: { code: 'MAX_ALIASES_EXCEEDED', limit: 50 } },
    ]);
  });

  it('gives 1,000 repetitions of one field a reason, not a bare "Validation aborted."', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      // The second answer comes from the validation cache: the same reason.
      const reply = await post(`{ me { ${'id '.repeat(1_000)}} }`);
      expect(reply.status).toBe(400);
      expect(reply.errors[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(reply.errors[0]?.message).toMatch(/^Validation aborted: .*repeated/);
    }
  });

  it('still answers an ordinary query, and introspection', async () => {
    const reply = await post('{ me { id } __schema { queryType { name } } }');
    expect(reply.status).toBe(200);
  });
});

describe('login', () => {
  it('reports a wrong password as UNAUTHENTICATED', async () => {
    const reply = await stack.gql<{ loginByName: unknown }>(
      `mutation($u: String!) { loginByName(input: { username: $u, password: "wrong" }) { token { token } userErrors { code } } }`,
      { u: user.name },
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data?.loginByName).toEqual({ token: null, userErrors: [{ code: 'UNAUTHENTICATED' }] });
  });
});
