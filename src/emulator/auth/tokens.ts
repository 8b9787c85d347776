// User tokens issued by /token/*. The admin token comes from configuration, never from here.
import { randomBytes } from 'node:crypto';

interface TokenGrant {
  userId: number;
  /** Expiry in milliseconds since the epoch (upstream-notes: treat `expire` as ms). */
  expire: number;
  deviceSn?: number;
}

export class TokenStore {
  private readonly grants = new Map<string, TokenGrant>();

  constructor(private readonly ttlMs: number) {}

  issue(userId: number, now: number, deviceSn?: number): { token: string; grant: TokenGrant } {
    const token = randomBytes(24).toString('base64url');
    const grant: TokenGrant = { userId, expire: now + this.ttlMs, ...(deviceSn === undefined ? {} : { deviceSn }) };
    this.grants.set(token, grant);
    return { token, grant };
  }

  get(token: string): TokenGrant | undefined {
    return this.grants.get(token);
  }

  /** Whether the user holds an unexpired token (the emulator's notion of online). */
  hasLive(userId: number, now: number): boolean {
    for (const grant of this.grants.values()) if (grant.userId === userId && grant.expire > now) return true;
    return false;
  }

  /** Revokes the user's tokens; with a device, only that device's. */
  revoke(userId: number, deviceSn?: number): void {
    for (const [token, grant] of this.grants) {
      if (grant.userId === userId && (deviceSn === undefined || grant.deviceSn === deviceSn)) this.grants.delete(token);
    }
  }
}
