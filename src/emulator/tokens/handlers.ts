// Section 2: user tokens by ID, login name or user name. A device_guid registers (or finds) the
// device and returns its push token.
import { randomBytes } from 'node:crypto';
import type { TokenRecord } from '../../rest/records';
import { Code, ImError } from '../errors';
import type { Ctx, HandlerMap } from '../handler';
import { type DeviceRecord, passwordMatches, type UserRecord } from '../users/model';

function platformOf(userAgent: string): number {
  if (/iphone|ipad|ios/i.test(userAgent)) return 1;
  if (/android/i.test(userAgent)) return 2;
  if (/windows/i.test(userAgent)) return 3;
  if (/mac ?os|macintosh/i.test(userAgent)) return 4;
  if (/linux/i.test(userAgent)) return 5;
  return 6;
}

/** The user's device with this guid, registered on first sight. */
export function deviceFor(user: UserRecord, guid: string, userAgent = ''): DeviceRecord {
  for (const device of user.devices.values()) if (device.guid === guid) return device;
  const sn = Math.max(0, ...user.devices.keys()) + 1;
  const device: DeviceRecord = {
    sn,
    platform: platformOf(userAgent),
    userAgent,
    guid,
    pushToken: randomBytes(16).toString('hex'),
    online: false,
  };
  user.devices.set(sn, device);
  return device;
}

function grant(ctx: Ctx, user: UserRecord | undefined, password: string, deviceGuid?: string): TokenRecord {
  // One answer for "no such user" and "wrong password", so names cannot be probed.
  if (!user || !passwordMatches(user, password)) {
    throw new ImError(Code.USER_NOT_FOUND, 'user does not exist or the password is wrong');
  }
  if (user.status === 1) throw new ImError(Code.NO_PERMISSION, 'user is banned');
  const device = deviceGuid ? deviceFor(user, deviceGuid, ctx.userAgent) : undefined;
  if (device) device.online = true;
  const { token, grant } = ctx.state.tokens.issue(user.id, ctx.now, device?.sn);
  return {
    token,
    user_id: user.id,
    expire: grant.expire,
    store_token: token,
    access_key_secret: randomBytes(12).toString('base64url'),
    encrypt_type: 0,
    public_key: '',
    ...(device ? { push_token: device.pushToken } : {}),
  };
}

export const tokenHandlers: HandlerMap = {
  'POST /token/id': (p, ctx) => grant(ctx, ctx.state.users.get(Number(p.user_id)), p.password, p.device_guid),
  'POST /token/login': (p, ctx) => grant(ctx, ctx.state.users.byLoginName(p.login_name), p.password, p.device_guid),
  'POST /token/user': (p, ctx) => grant(ctx, ctx.state.users.byUsername(p.name), p.password, p.device_guid),
};
