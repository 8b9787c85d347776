// The user directory: lookup by ID, user name, mobile or e-mail, and registration.
// User names and mobile numbers are both login names (/token/login), so one value names at most
// one user across the two.
import { Code, ImError } from '../errors';
import type { Ids } from '../ids';
import { defaultSettings, hashPassword, type UserRecord } from './model';

export class UserDirectory {
  private readonly byId = new Map<number, UserRecord>();
  private readonly byName = new Map<string, UserRecord>();
  private readonly byMobileNo = new Map<string, UserRecord>();

  constructor(private readonly ids: Ids) {}

  get(id: number): UserRecord | undefined {
    return this.byId.get(id);
  }

  /** Lookup by a validated int64 ID; a bigint is beyond every user ID. */
  find(id: number | bigint): UserRecord | undefined {
    return typeof id === 'number' ? this.byId.get(id) : undefined;
  }

  /** The user, or 10000. */
  require(id: number | bigint): UserRecord {
    const user = this.find(id);
    if (!user) throw new ImError(Code.USER_NOT_FOUND, `user ${id} does not exist`);
    return user;
  }

  byUsername(name: string): UserRecord | undefined {
    return this.byName.get(name);
  }

  /** A login name is a user name, a mobile number or an e-mail address. */
  byLoginName(login: string): UserRecord | undefined {
    // An empty login would otherwise match every user without a mobile or e-mail.
    if (login === '') return undefined;
    const named = this.byName.get(login) ?? this.byMobileNo.get(login);
    if (named) return named;
    for (const user of this.byId.values()) {
      if (user.profile.email === login) return user;
    }
    return undefined;
  }

  /** Sets (or clears, with '') the mobile number; 10004 when it is another user's login name. */
  setMobile(user: UserRecord, mobile: string): void {
    if (mobile !== '') this.assertLoginNameFree(mobile, user, 'mobile');
    if (user.profile.mobile !== '') this.byMobileNo.delete(user.profile.mobile);
    user.profile.mobile = mobile;
    if (mobile !== '') this.byMobileNo.set(mobile, user);
  }

  private assertLoginNameFree(name: string, owner: UserRecord | undefined, what: 'user name' | 'mobile'): void {
    const holder = this.byName.get(name) ?? this.byMobileNo.get(name);
    if (holder && holder !== owner) throw new ImError(Code.USER_EXISTS, `${what} ${name} is taken`);
  }

  all(): IterableIterator<UserRecord> {
    return this.byId.values();
  }

  get size(): number {
    return this.byId.size;
  }

  register(username: string, password: string, now: number): UserRecord {
    if (username.trim() === '') throw new ImError(Code.INVALID_PARAMETER, 'invalid parameter username: must not be empty');
    if (password === '') throw new ImError(Code.INVALID_PARAMETER, 'invalid parameter password: must not be empty');
    this.assertLoginNameFree(username, undefined, 'user name');
    const user: UserRecord = {
      id: this.ids.user.take(),
      username,
      password: hashPassword(password),
      status: 0,
      settingsId: this.ids.settings.take(),
      profile: { avatar: '', description: '', email: '', mobile: '', nick_name: '', private_info: '', public_info: '' },
      settings: defaultSettings(),
      pushAlias: '',
      badge: 0,
      tags: new Set(),
      devices: new Map(),
      createdAt: now,
    };
    this.byId.set(user.id, user);
    this.byName.set(username, user);
    return user;
  }

  rename(user: UserRecord, username: string): void {
    if (username.trim() === '') throw new ImError(Code.INVALID_PARAMETER, 'invalid parameter username: must not be empty');
    this.assertLoginNameFree(username, user, 'user name');
    this.byName.delete(user.username);
    user.username = username;
    this.byName.set(username, user);
  }

  remove(user: UserRecord): void {
    this.byId.delete(user.id);
    this.byName.delete(user.username);
    if (user.profile.mobile !== '') this.byMobileNo.delete(user.profile.mobile);
  }
}
