// The per-account sign-in limit's spellings (sign-in-accounts.ts, sign-in-limiter.ts): `id:` is
// its user's bucket at once; a name, mobile or e-mail becomes it once a sign-in proved whose it is
// (the spelling tried, then the user's own profile read in the background); a success gives its
// try back. In memory, on a clock of the test's own.
import { describe, expect, it } from 'vitest';
import { signInAccounts } from '../../../src/gateway/rate-limit/sign-in-accounts';
import { createSignInLimiter } from '../../../src/gateway/rate-limit/sign-in-limiter';

const rate = { limit: 3, windowMs: 60_000 };

describe('sign-in accounts', () => {
  it('keys `id:` spellings by the user, and others by themselves until learned', () => {
    const accounts = signInAccounts(() => 0);
    expect(accounts.accountOf('app', 'id:42')).toBe('user:42');
    expect(accounts.accountOf('app', 'alice')).toBe('alice');
    accounts.learn('app', '42', ['alice']);
    expect(accounts.accountOf('app', 'alice')).toBe('user:42');
    // Per app.
    expect(accounts.accountOf('other-app', 'alice')).toBe('alice');
  });

  it("learns the user's own spellings from its profile, read once per user", async () => {
    const accounts = signInAccounts(() => 0);
    let reads = 0;
    let answer!: (p: { username: string; mobile: string; email: string }) => void;
    const profile = () => {
      reads++;
      return new Promise<{ username: string; mobile: string; email: string }>((resolve) => (answer = resolve));
    };
    accounts.learn('app', '42', ['alice'], profile);
    accounts.learn('app', '42', ['alice'], profile);
    expect(reads).toBe(1);
    answer({ username: 'Alice', mobile: '13900000001', email: 'Alice@Example.com' });
    await Promise.resolve();
    for (const spelling of ['alice', '13900000001', 'alice@example.com']) expect(accounts.accountOf('app', spelling)).toBe('user:42');
  });

  it('forgets nothing on a failed profile read, and reads again at the next sign-in', async () => {
    const accounts = signInAccounts(() => 0);
    let reads = 0;
    const failing = () => {
      reads++;
      return Promise.reject(new Error('down'));
    };
    accounts.learn('app', '7', ['bob'], failing);
    await new Promise((resolve) => setImmediate(resolve));
    expect(accounts.accountOf('app', 'bob')).toBe('user:7');
    accounts.learn('app', '7', ['bob'], failing);
    expect(reads).toBe(2);
  });
});

describe('sign-in limiter', () => {
  const tried = (fields: string[][]) => ({ address: '10.0.0.1', appId: 'app', fields });

  it('shares one bucket between the spellings of a learned account, and gives a success its try back', async () => {
    const limiter = createSignInLimiter({ address: undefined, name: rate, now: () => 1_000 });
    const first = await limiter.admit(tried([['alice']]), 'http');
    expect('charged' in first).toBe(true);
    if (!('charged' in first)) return;
    // alice signed in as user 42: the try is given back, and alice is user 42 from now on.
    await limiter.succeeded(tried([['alice']]), first.charged, 0, { userId: '42' });
    for (const spelling of ['alice', 'id:42', 'alice']) expect('charged' in (await limiter.admit(tried([[spelling]]), 'http'))).toBe(true);
    const fourth = await limiter.admit(tried([['id:42']]), 'http');
    expect('refused' in fourth && fourth.refused.extensions).toMatchObject({ code: 'RATE_LIMITED', limit: 3 });
  });
});
