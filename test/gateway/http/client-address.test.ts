// The client's address behind TRUSTED_PROXIES: X-Forwarded-For read from the right past trusted
// proxies, only when the peer itself is one; IPv4 peers as dual-stack sockets write them; a bad
// list refused; the sign-in limits on by default.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config';
import { clientAddress } from '../../../src/gateway/http/client-address';

describe('the client address', () => {
  const behind = clientAddress(['10.0.0.0/8', '192.0.2.1', 'fd00::/8']);

  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress([])('10.0.0.1', '203.0.113.1')).toBe('10.0.0.1');
    expect(behind('198.51.100.1', '203.0.113.1')).toBe('198.51.100.1');
  });

  it('is the nearest address a trusted proxy saw, past the trusted ones', () => {
    expect(behind('10.1.2.3', '203.0.113.1')).toBe('203.0.113.1');
    expect(behind('::ffff:10.1.2.3', '198.51.100.9, 203.0.113.1, 192.0.2.1')).toBe('203.0.113.1');
    expect(behind('fd00::1', ['203.0.113.1', '10.0.0.2'])).toBe('203.0.113.1');
    // Nothing forwarded, or garbage nearest: the last address a trusted hop vouched for.
    expect(behind('10.1.2.3', undefined)).toBe('10.1.2.3');
    expect(behind('10.1.2.3', '203.0.113.1, not-an-ip')).toBe('10.1.2.3');
  });
});

describe('the configuration', () => {
  it('refuses a TRUSTED_PROXIES entry that is no address or block', () => {
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, ::1' }).trustedProxies).toEqual(['10.0.0.0/8', '::1']);
    for (const bad of ['10.0.0.0/33', 'proxy.local', '10.0.0.1/8/1'])
      expect(() => loadConfig({ TRUSTED_PROXIES: bad })).toThrow(ConfigError);
  });

  it('has the sign-in limits on unless turned off', () => {
    expect(loadConfig({})).toMatchObject({
      signInLimitAddress: { limit: 10, windowMs: 60_000 },
      signInLimitName: { limit: 5, windowMs: 60_000 },
    });
    expect(loadConfig({ SIGN_IN_LIMIT_NAME: 'off' }).signInLimitName).toBeUndefined();
  });
});
