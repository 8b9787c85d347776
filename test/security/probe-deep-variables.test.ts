// Probe: deeply nested `variables`. 100,000 nested arrays (0.2 MB, no token) once overflowed the
// stack in the shared-execution key: HTTP 500 with a stack, and over WebSocket a 4500 close. Now
// every transport refuses them before any work with 400 BAD_REQUEST naming MAX_JSON_DEPTH (64):
// a JSON body from its bytes, a GET's query string and a WebSocket operation once parsed; the
// socket stays open for the next operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/gateway/http/body-limits';
import { startStack, type Stack } from '../helpers/stack';
import { openRawSocket, sendRaw } from '../helpers/raw-socket';
import { identity } from '../helpers/users';
import { expectNoErrorLogs } from '../helpers/no-error-logs';

let stack: Stack;
beforeAll(async () => void (stack = await startStack()));
afterAll(() => stack.stop());

expectNoErrorLogs();

/** `depth` nested arrays as JSON text (JSON.stringify itself would overflow on such a value). */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
/** A request body whose unused variable `deep` nests `depth` arrays. */
const bodyWith = (depth: number) => `{"query":"{ __typename }","variables":{"deep":${nested(depth)}}}`;

interface Reply {
  status: number;
  body: { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };
}

async function post(body: string, contentType = 'application/json'): Promise<Reply> {
  const res = await fetch(`${stack.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': contentType, accept: 'application/graphql-response+json', 'x-graphql-yoga-csrf': 'form' },
    body,
  });
  return { status: res.status, body: (await res.json()) as Reply['body'] };
}

const refusal = { code: 'BAD_REQUEST', limit: MAX_JSON_DEPTH };

describe('deeply nested variables over HTTP', () => {
  it('refuses 100,000 nested arrays in a JSON body with 400 naming the depth limit', async () => {
    const reply = await post(bodyWith(100_000));
    expect(reply.status).toBe(400);
    expect(reply.body.errors?.[0]).toMatchObject({
      message: `the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`,
      extensions: refusal,
    });
  });

  it('refuses them in a form body and in a GET query string (parsed, then checked)', async () => {
    const form = await post(
      new URLSearchParams({ query: '{ __typename }', variables: `{"deep":${nested(100_000)}}` }).toString(),
      'application/x-www-form-urlencoded',
    );
    expect(form.status).toBe(400);
    expect(form.body.errors?.[0]?.extensions).toMatchObject(refusal);

    // A URL holds at most ~16 KB (Node's header limit), each bracket escaped in three: 2,000 levels, past the bound.
    const query = new URLSearchParams({ query: '{ __typename }', variables: `{"deep":${nested(2_000)}}` });
    const res = await fetch(`${stack.url}/graphql?${query}`, {
      headers: { accept: 'application/graphql-response+json', 'x-graphql-yoga-csrf': 'get' },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as Reply['body'];
    expect(body.errors?.[0]).toMatchObject({
      message: `\`variables\` is nested deeper than ${MAX_JSON_DEPTH} levels`,
      extensions: refusal,
    });
  });

  it('answers a request nested within the bound', async () => {
    const reply = await post(bodyWith(MAX_JSON_DEPTH - 4));
    expect(reply).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
  });
});

describe('deeply nested variables over WebSocket', () => {
  it('ends that operation with an error and keeps the socket open for the next', async () => {
    const me = await stack.emu.user();
    const raw = await openRawSocket(stack.url);
    sendRaw(raw, { type: 'connection_init', payload: identity(stack.emu, me) });
    expect(await raw.next()).toMatchObject({ type: 'connection_ack' });

    raw.socket.send(`{"id":"1","type":"subscribe","payload":{"query":"{ me { id } }","variables":{"deep":${nested(100_000)}}}}`);
    expect(await raw.next()).toMatchObject({
      type: 'error',
      id: '1',
      payload: [{ message: `\`variables\` is nested deeper than ${MAX_JSON_DEPTH} levels`, extensions: { code: 'BAD_REQUEST' } }],
    });

    sendRaw(raw, { id: '2', type: 'subscribe', payload: { query: '{ me { id } }' } });
    expect(await raw.next()).toMatchObject({ type: 'next', id: '2', payload: { data: { me: { id: String(me.id) } } } });
    expect(await raw.next()).toMatchObject({ type: 'complete', id: '2' });
    raw.socket.close();
    expect((await raw.closed).code).toBe(1005);
  });
});
