// The gateway shell: endpoints, identity forwarding, error mapping, ID validation, start-up.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../src/gateway/create-gateway';
import { loadConfig } from '../../src/config';
import { startStack, useStack } from '../helpers/stack';
import { EVENT_DEADLINE_MS } from '../helpers/wait';

const stack = useStack();

describe('gateway endpoints', () => {
  it('answers /health while the process is up', async () => {
    const res = await fetch(`${stack.url}/health`);
    expect(res.status).toBe(200);
  });

  it('answers /ready when the IM service is reachable', async () => {
    expect((await fetch(`${stack.url}/ready`)).status).toBe(200);
  });

  it('answers /ready with an error once calls to the IM service fail because it is down', async () => {
    const config = { ...loadConfig({ READY_FAILED_CALLS: '2', IM_RETRIES: '0' }), port: 0 };
    const orphan = createGateway(config, { imBaseUrl: 'http://127.0.0.1:9' });
    const url = await orphan.start();
    try {
      for (let i = 0; i < 2; i++)
        await fetch(`${url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"query":"{ me { id } }"}',
        });
      expect((await fetch(`${url}/ready`)).status).toBeGreaterThanOrEqual(500);
    } finally {
      await orphan.stop();
    }
  });

  it('serves GraphiQL to a browser at /graphql', async () => {
    const res = await fetch(`${stack.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('IM GraphQL gateway');
  });
});

describe('caller identity', () => {
  it('reads the acting user through the REST service with the admin token and user_id header', async () => {
    const user = await stack.emu.user();
    stack.emu.mark();
    const reply = await stack.gql<{ me: { id: string; username: string } }>('{ me { id username } }', {}, stack.asUser(user.id));
    expect(reply.errors).toBeUndefined();
    expect(reply.data?.me).toEqual({ id: String(user.id), username: user.name });
    // Two fields of the profile, one REST call.
    expect(stack.emu.calls().map((c) => c.endpoint)).toEqual(['GET /user/profile']);
  });

  it('accepts Authorization: Bearer as the access-token', async () => {
    const user = await stack.emu.user();
    const reply = await stack.gql<{ me: { username: string } }>('{ me { username } }', {}, { authorization: `Bearer ${user.token}` });
    expect(reply.data?.me.username).toBe(user.name);
  });

  it('maps a missing token to UNAUTHENTICATED with the upstream code and endpoint', async () => {
    const reply = await stack.gql('{ me { username } }');
    expect(reply.errors?.[0]?.extensions).toMatchObject({
      code: 'UNAUTHENTICATED',
      upstreamCode: 10003,
      endpoint: 'GET /user/profile',
    });
  });
});

describe('scalars', () => {
  it('documents ID as an exact int64 decimal', async () => {
    const reply = await stack.gql<{ __type: { description: string } }>('{ __type(name: "ID") { description } }');
    expect(reply.data?.__type.description).toContain('2^53');
  });
});

describe('start-up', () => {
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: EVENT_DEADLINE_MS,
    });

  it('stops with one clear line on a non-numeric PORT', () => {
    const run = start({ PORT: 'abc' });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe('Configuration error: PORT must be an integer from 1 to 65535 (got "abc")');
  });

  it('stops with one clear line on a malformed IM_BASE_URL', () => {
    const run = start({ IM_BASE_URL: 'not a url' });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toMatch(/^Configuration error: IM_BASE_URL must be a URL/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('query limits', () => {
  it('refuses a query deeper than MAX_QUERY_DEPTH before any REST call', async () => {
    const shallow = await startStack({ MAX_QUERY_DEPTH: '2' });
    try {
      const user = await shallow.emu.user();
      shallow.emu.mark();
      const ok = await shallow.gql('{ me { id } }', {}, shallow.asUser(user.id));
      expect(ok.errors).toBeUndefined();
      const tooDeep = await shallow.gql('{ me { settings { noPush } } }', {}, shallow.asUser(user.id));
      expect(tooDeep.errors?.[0]?.message).toMatch(/depth/i);
      expect(shallow.emu.calls()).toHaveLength(1);
    } finally {
      await shallow.stop();
    }
  });

  it('refuses more aliases than MAX_QUERY_ALIASES before any REST call', async () => {
    const few = await startStack({ MAX_QUERY_ALIASES: '2' });
    try {
      few.emu.mark();
      const reply = await few.gql('{ a: me { id } b: me { id } c: me { id } }');
      expect(reply.errors?.[0]?.message).toMatch(/alias/i);
      expect(few.emu.calls()).toHaveLength(0);
    } finally {
      await few.stop();
    }
  });
});
