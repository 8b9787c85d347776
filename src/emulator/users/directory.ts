// The user directory: lookup by ID, user name, mobile or e-mail, and registration.
import { Code, ImError } from '../errors';
import type { Ids } from '../ids';
import { defaultSettings, hashPassword, type UserRecord } from './model';

export class UserDirectory {
  private readonly byId = new Map<number, UserRecord>();
  private readonly byName = new Map<string, UserRecord>();

  constructor(private readonly ids: Ids) {}

  get(id: number): UserRecord | undefined {
    return this.byId.get(id);
  }

  /** The user, or 10000. */
  require(id: number): UserRecord {
    const user = this.byId.get(id);
    if (!user) throw new ImError(Code.USER_NOT_FOUND, `user ${id} does not exist`);
    return user;
  }

  byUsername(name: string): UserRecord | undefined {
    return this.byName.get(name);
  }

  /** A login name is a user name, a mobile number or an e-mail address. */
  byLoginName(login: string): UserRecord | undefined {
    const named = this.byName.get(login);
    if (named) return named;
    for (const user of this.byId.values()) {
      if (user.profile.mobile === login || user.profile.email === login) return user;
    }
    return undefined;
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
    if (this.byName.has(username)) throw new ImError(Code.USER_EXISTS, `user name ${username} is taken`);
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
    const holder = this.byName.get(username);
    if (holder && holder !== user) throw new ImError(Code.USER_EXISTS, `user name ${username} is taken`);
    this.byName.delete(user.username);
    user.username = username;
    this.byName.set(username, user);
  }

  remove(user: UserRecord): void {
    this.byId.delete(user.id);
    this.byName.delete(user.username);
  }
}
