// IM_CALL_TIMEOUT_MS as a GraphQL client sees it: a field whose REST call answers too late fails
// with UPSTREAM_UNAVAILABLE at the limit, not when the answer finally comes.
import { describe, expect, it } from 'vitest';
import { gatewayOver } from '../helpers/scripted-gateway';
import { envelope } from '../helpers/scripted-server';

const LIMIT_MS = 1_000;

describe('IM_CALL_TIMEOUT_MS', () => {
  it('answers UPSTREAM_UNAVAILABLE at the limit while the service holds its answer, and data when it answers at once', async () => {
    let release = () => {};
    let held = false;
    const g = await gatewayOver(
      async () => {
        if (held) await new Promise<void>((resolve) => (release = resolve));
        return envelope({ user_id: 1 });
      },
      { IM_CALL_TIMEOUT_MS: String(LIMIT_MS) },
    );
    try {
      await g.query(); // warm-up: the first request compiles the schema's paths
      held = true;
      const started = performance.now();
      const slow = await g.query();
      const ms = performance.now() - started;
      expect(slow.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', endpoint: 'GET /user/profile' });
      expect(slow.errors?.[0]?.message).toBe(`GET /user/profile failed: no answer within ${LIMIT_MS} ms`);
      // The answer never came: the limit ended the call. (How precisely the limit is kept is
      // proven with fake timers in test/rest/deadlines.test.ts; a busy machine delays timers.)
      expect(ms).toBeGreaterThanOrEqual(LIMIT_MS - 5);
      held = false;
      release();
      const quick = await g.query();
      expect(quick.errors).toBeUndefined();
      expect(quick.data).toEqual({ me: { id: '1' } });
    } finally {
      release();
      await g.stop();
    }
  });
});
