// The one record of proven tokens (src/rest/proven-tokens.ts) on a clock the test moves: one
// lifetime from the last accepted call, one invalidation for every use, whom a token acts as
// remembered from its own-profile read (shared by concurrent askers), the service token proven.
import { describe, expect, it } from 'vitest';
import { PROOF_TTL_MS, provenTokens } from '../../src/rest/proven-tokens';

const alice = { appId: 'app', token: 'token-a' };

function clocked() {
  const clock = { now: 1_000_000 };
  const tokens = provenTokens({ defaultAppId: 'app', serviceToken: 'admin', now: () => clock.now });
  return { clock, tokens };
}

describe('the record of proven tokens', () => {
  it('holds a token proven for PROOF_TTL_MS after the last call the service accepted with it', () => {
    const { clock, tokens } = clocked();
    expect(tokens.isProven(alice)).toBe(false);
    tokens.accepted(alice);
    expect(tokens.isProven(alice)).toBe(true);
    // Another app's token of the same text is another identity.
    expect(tokens.isProven({ appId: 'other', token: 'token-a' })).toBe(false);
    clock.now += PROOF_TTL_MS / 2;
    tokens.accepted(alice);
    clock.now += PROOF_TTL_MS - 1;
    expect(tokens.isProven(alice)).toBe(true);
    clock.now += 1;
    expect(tokens.isProven(alice)).toBe(false);
  });

  it('forgets a refused token for every use at once: the proof and whom it acts as', async () => {
    const { tokens } = clocked();
    expect(await tokens.prove(alice, async () => 7n)).toBe(7n);
    expect(tokens.actingOf(alice)).toBe(7n);
    tokens.refused(alice);
    expect(tokens.isProven(alice)).toBe(false);
    expect(tokens.actingOf(alice)).toBeUndefined();
  });

  it('reads whom a token acts as once for concurrent askers, then answers without a read', async () => {
    const { tokens } = clocked();
    let reads = 0;
    const read = async () => {
      reads++;
      return null;
    };
    expect(await Promise.all([tokens.prove(alice, read), tokens.prove(alice, read)])).toEqual([null, null]);
    expect(await tokens.prove(alice, read)).toBeNull();
    expect(reads).toBe(1);
    // A token acting through a user_id header is read each time.
    const acting = { ...alice, userId: '5' };
    await tokens.prove(acting, read);
    await tokens.prove(acting, read);
    expect(reads).toBe(3);
  });

  it('remembers nothing of a read that failed, or that a refusal overtook', async () => {
    const { tokens } = clocked();
    await expect(tokens.prove(alice, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(tokens.isProven(alice)).toBe(false);
    let answer!: (id: bigint) => void;
    const reading = tokens.prove(alice, () => new Promise((resolve) => (answer = resolve)));
    tokens.refused(alice);
    answer(7n);
    await reading;
    expect(tokens.actingOf(alice)).toBeUndefined();
  });

  it("holds the gateway's own token proven from the start", () => {
    const { tokens } = clocked();
    expect(tokens.isProven({ token: 'admin' })).toBe(true);
  });
});
