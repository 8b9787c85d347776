// Issue 40 (fairness): a burst of 12 `{ me { id } }` from one new user over two replicas with
// RATE_LIMIT=5/1s let 10 through: its first requests went to the address's bucket until the token
// was proven (per replica), then its own bucket started full. Now a token's requests before its
// proof take from its own bucket as well, so its proof brings no second burst, on either replica.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../helpers/emulator';
import { type Answer, freshLoopback, sendFrom } from '../helpers/http-from';
import { type Replica, startReplicas } from '../helpers/redis-replicas';
import { identity } from '../helpers/users';

/** What a bucket of 5 per 10 s lets through since `started`: the burst, and one more every 2 s (a busy machine is slow). */
const budgetSince = (started: number) => 5 + Math.floor((Date.now() - started) / 2_000);

describe('RATE_LIMIT=5/10s on two replicas sharing one Redis (the probe ran 5/1s: slower refills keep a busy machine honest)', () => {
  let emu: TestEmulator;
  let replicas: Replica[];
  beforeAll(async () => {
    emu = await startEmulator();
    replicas = await startReplicas(emu, {
      redisUrl: inject('redisUrl'),
      prefix: `fresh-token:${randomBytes(4).toString('hex')}:`,
      intervalMs: 60_000,
      count: 2,
      env: { RATE_LIMIT: '5/10s' },
    });
  });
  afterAll(async () => {
    for (const r of replicas ?? []) await r.gateway.stop();
    await emu?.stop();
  });

  it('gives a new user one burst, not one per replica and one more once proven', async () => {
    const user = await emu.user();
    const from = freshLoopback();
    const started = Date.now();
    // One after another, alternately: each replica proves the token on its first answer.
    const answers: Answer[] = [];
    for (let i = 0; i < 12; i++) {
      answers.push(
        await sendFrom(replicas[i % 2]!.url, { headers: identity(emu, user), body: { query: '{ me { id } }' }, localAddress: from }),
      );
    }
    const through = answers.filter((a) => a.status === 200).length;
    expect(through).toBeGreaterThan(0);
    expect(through).toBeLessThanOrEqual(budgetSince(started));
    expect(answers.filter((a) => a.status === 429)).toHaveLength(12 - through);
  });
});
