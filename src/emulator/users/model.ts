// Users as the emulator keeps them: account, password hash, profile, settings, devices and push
// preferences. The wire shapes (records.ts) are derived from these on read.
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { Device, UserProfile, UserSettings } from '../../rest/records';

/** Settings fields a user owns; `id` and `user_id` of the wire object are derived. */
export type SettingsFields = Omit<UserSettings, 'id' | 'user_id'>;

export interface DeviceRecord {
  sn: number;
  platform: number;
  userAgent: string;
  guid: string;
  /** Push token the service issued for this device (returned with the token record). */
  pushToken: string;
  /** Vendor device token bound by /user/token/bind. */
  deviceToken?: string;
  notifierName?: string;
  /** Logged in (false after a kick until the next token issue). */
  online: boolean;
}

export interface UserRecord {
  id: number;
  username: string;
  password: { salt: Buffer; hash: Buffer };
  status: 0 | 1;
  settingsId: number;
  /** The profile fields the user owns; `username` and `user_id` of the wire object are derived. */
  profile: Omit<UserProfile, 'username' | 'user_id'>;
  settings: SettingsFields;
  pushAlias: string;
  badge: number;
  tags: Set<string>;
  devices: Map<number, DeviceRecord>;
  createdAt: number;
}

// A light scrypt cost: the emulator hashes for real, but tests register many users.
const SCRYPT = { N: 1024, r: 8, p: 1 } as const;

export function hashPassword(password: string): UserRecord['password'] {
  const salt = randomBytes(16);
  return { salt, hash: scryptSync(password, salt, 32, SCRYPT) };
}

export function passwordMatches(user: UserRecord, password: string): boolean {
  const hash = scryptSync(password, user.password.salt, 32, SCRYPT);
  return timingSafeEqual(hash, user.password.hash);
}

export function defaultSettings(): SettingsFields {
  return {
    auth_mode: 0,
    auth_question: '',
    auth_answer: '',
    auto_download: true,
    group_confirm: false,
    no_push: false,
    no_push_detail: false,
    no_push_start_hour: 0,
    no_push_end_hour: 0,
    silence_start_time: 0,
    silence_end_time: 0,
    no_sounds: false,
    vibratory: true,
    push_nick_name: '',
    push_token: '',
  };
}

export function settingsOf(user: UserRecord): UserSettings {
  return { id: user.settingsId, user_id: user.id, ...user.settings };
}

export function profileOf(user: UserRecord): UserProfile {
  return { ...user.profile, username: user.username, user_id: user.id };
}

export function deviceOf(user: UserRecord, device: DeviceRecord): Device {
  return { device_sn: device.sn, platform: device.platform, user_agent: device.userAgent, user_id: user.id };
}
