// 1.7, 1.8, 1.12, 1.16, 1.38, 1.39: the acting user's devices, sessions and device tokens.
// A device is registered when a token is issued with a device_guid (tokens/handlers.ts).
//
// Choices where the spec is silent:
// - An unknown device number is 10002 naming the parameter (device_sn, or deviceSn for 1.39).
// - Online (1.16) means: not banned and holding an unexpired token (with or without a device).
//   Kicking (1.12) and removing a device (1.8) revoke the tokens concerned, so both show there.
//   auth/online.ts holds the notion; online_only sends use it too.
// - The device list is one page (no cursor) and its version is 0: the spec does not say what
//   the version counts, and nothing here pages.
// - 1.39 answers {device_sn, unbound: true}; unbinding a device with nothing bound succeeds.
import { actingUser } from '../auth/actor';
import { isOnline } from '../auth/online';
import { invalidParam } from '../errors';
import type { Ctx, HandlerMap } from '../handler';
import { nonEmpty } from './checks';
import { type DeviceRecord, deviceOf, type UserRecord } from './model';

function requireDevice(user: UserRecord, sn: number, field: string): DeviceRecord {
  const device = user.devices.get(sn);
  if (!device) throw invalidParam(field, `user ${user.id} has no device ${sn}`);
  return device;
}

/** Logs the user out of one device, or of every device and every token. */
function logOut(ctx: Ctx, user: UserRecord, device?: DeviceRecord): void {
  ctx.state.tokens.revoke(user.id, device?.sn);
  for (const d of device ? [device] : user.devices.values()) d.online = false;
}

export const deviceHandlers: HandlerMap = {
  'GET /user/device/list': (_p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    ctx.setExtras({ version: 0 });
    return [...user.devices.values()].sort((a, b) => a.sn - b.sn).map((d) => deviceOf(user, d));
  },

  'DELETE /user/device/remove': (p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    const device = requireDevice(user, p.device_sn, 'device_sn');
    logOut(ctx, user, device);
    user.devices.delete(device.sn);
    return true;
  },

  // device_sn comes from the query or the web SDK's JSON body (server.ts reads both): when given,
  // only that device goes (an unknown one is 10002 and nobody goes); only its absence means all.
  'PUT /user/kick': (p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    logOut(ctx, user, p.device_sn === undefined ? undefined : requireDevice(user, p.device_sn, 'device_sn'));
    return true;
  },

  'GET /user/online_status': (_p, ctx) => ({ online: isOnline(ctx.state, actingUser(ctx.state, ctx.actor).id, ctx.now) }),

  'PUT /user/token/bind': (p, ctx) => {
    const user = actingUser(ctx.state, ctx.actor);
    const device = requireDevice(user, p.device_sn, 'device_sn');
    const deviceToken = nonEmpty('device_token', p.device_token);
    const notifierName = nonEmpty('notifier_name', p.notifier_name);
    device.deviceToken = deviceToken;
    device.notifierName = notifierName;
    return true;
  },

  'DELETE /user/token/unbind': (p, ctx) => {
    const device = requireDevice(actingUser(ctx.state, ctx.actor), p.deviceSn, 'deviceSn');
    delete device.deviceToken;
    delete device.notifierName;
    return { device_sn: device.sn, unbound: true };
  },
};
