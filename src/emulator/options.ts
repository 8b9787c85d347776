// What the emulator can be configured with; src/config.ts fills it from the environment.
export interface EmulatorOptions {
  appId: string;
  adminToken: string;
  /** More admin tokens of the app (the service's console can make several). */
  otherAdminTokens?: readonly string[];
  /** Lifetime of user tokens. */
  tokenTtlMs: number;
  /** Window in which a repeated transaction_id (messages) is ignored. */
  dedupWindowMs: number;
  /** Lifetime of pending group applications and invitations, and of friend applications. */
  requestTtlMs: number;
  /** Lifetime of a signed group QR code. */
  qrTtlMs: number;
  /** Largest accepted upload. */
  maxUploadBytes: number;
}

export const defaultEmulatorOptions: Omit<EmulatorOptions, 'adminToken'> = {
  appId: 'im-demo',
  tokenTtlMs: 7 * 24 * 3600_000,
  dedupWindowMs: 60_000,
  requestTtlMs: 7 * 24 * 3600_000,
  qrTtlMs: 7 * 24 * 3600_000,
  maxUploadBytes: 100 * 1024 * 1024,
};
