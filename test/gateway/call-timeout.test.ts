// IM_CALL_TIMEOUT_MS as a GraphQL client sees it: a field whose REST call answers too late fails
// with UPSTREAM_UNAVAILABLE soon after the limit, not when the answer finally comes.
import { describe, expect, it } from 'vitest';
import { gatewayOver } from '../helpers/scripted-gateway';
import { envelope } from '../helpers/scripted-server';
import { sleep } from '../helpers/wait';

describe('IM_CALL_TIMEOUT_MS', () => {
  it('answers UPSTREAM_UNAVAILABLE within 100-200 ms of a 100 ms limit when the service takes 400 ms, and data when it takes 50 ms', async () => {
    let delay = 400;
    const g = await gatewayOver(
      async () => {
        await sleep(delay);
        return envelope({ user_id: 1 });
      },
      { IM_CALL_TIMEOUT_MS: '100' },
    );
    try {
      await g.query(); // warm-up: the first request compiles the schema's paths
      const started = performance.now();
      const slow = await g.query();
      const ms = performance.now() - started;
      expect(slow.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', endpoint: 'GET /user/profile' });
      expect(slow.errors?.[0]?.message).toBe('GET /user/profile failed: no answer within 100 ms');
      expect(ms).toBeGreaterThanOrEqual(95);
      expect(ms).toBeLessThan(200);
      delay = 50;
      const quick = await g.query();
      expect(quick.errors).toBeUndefined();
      expect(quick.data).toEqual({ me: { id: '1' } });
    } finally {
      await g.stop();
    }
  });
});
