// Devices and sessions of a user: User.devices, User.online, and the writes on devices
// (remove, kick, device token bind/unbind).
import type { GatewayContext } from '../../context';
import type { Device } from '../../rest/records';
import { builder, reaches } from '../core/builder';
import { connectionOf } from '../core/connection';
import { wholeListField } from '../core/keyset';
import { nonBlank } from '../core/inputs';
import { Platform } from './enums';
import { NodeRef, type UserParent, UserRef } from '../core/refs';
import { PUBLIC, publicOnlineOf } from './peers';
import { restFor } from '../core/profile';
import { UserPayloadRef, byActingUser, orUndefined } from './writes';
import { mutation } from '../core/mutation';
import { recordField } from '../core/record-field';
import { cacheIdField } from '../core/cache-id';
import { fetchableNode } from '../core/node-kinds';

const DeviceRef = builder.objectRef<Device>('Device').implement({
  description: 'A device the user has logged in on.',
  interfaces: [NodeRef],
  fields: (t) => ({
    id: cacheIdField(t, 'Device', 'user ID and device number', (d) => [d.user_id, d.device_sn]),
    deviceSn: t.exposeInt('device_sn', { nullable: false, description: "Device number, within the user's devices." }),
    // The spec's int32 codes as the enum's values; graphql-js reports an unknown code on this field.
    platform: t.field({ type: Platform, description: 'Platform of the device.', resolve: (d) => d.platform as 1 | 2 | 3 | 4 | 5 | 6 }),
    userAgent: t.exposeString('user_agent', { description: 'User agent of the device.' }),
    user: t.field({ type: UserRef, nullable: false, description: 'The user the device belongs to.', resolve: (d) => ({ id: d.user_id }) }),
  }),
});

/** The user's devices (GET /user/device/list): the caller's own, or with an admin token any user's. */
const devicesOf = async (u: UserParent, ctx: GatewayContext) => (await restFor(u, ctx).call('GET /user/device/list', {})).data;

// node(id:) reads the user's device list as `devices` does; null when the device is not in it, or
// the caller may not read the list (another user's, with a user token).
fetchableNode('Device', ([userId, sn], ctx) =>
  devicesOf({ id: userId }, ctx).then((list) => list.find((d) => String(d.device_sn) === String(sn)) ?? null),
);

const DeviceConnectionRef = connectionOf('Device', DeviceRef, 'device');
const DEVICE_PAGE = 50;

builder.objectFields(UserRef, (t) => ({
  devices: wholeListField(t, {
    type: DeviceConnectionRef,
    description: "The user's devices, by device number.",
    endpoint: 'GET /user/device/list',
    defaultFirst: DEVICE_PAGE,
    // By device number, which names the device too.
    key: (d) => ({ sort: d.device_sn, id: String(d.device_sn) }),
    order: 'ascending',
    // The reply's cursor cannot be passed back (the endpoint takes no parameters): one page is all there is.
    read: devicesOf,
  }),
  online: t.boolean({
    description: `Whether the user is online. ${PUBLIC}`,
    extensions: reaches('GET /user/online_status'),
    resolve: recordField(publicOnlineOf)((p) => p?.online ?? null),
  }),
}));

const DEVICE_SN = 'Device number (Device.deviceSn).';

mutation('removeDevice', {
  description: "Remove one of the acting user's devices (it is logged out). The payload names it in removedDeviceIds.",
  endpoints: ['DELETE /user/device/remove'],
  payload: UserPayloadRef,
  inputDescription: 'The device to remove.',
  input: (t) => ({ deviceSn: t.int({ required: true, description: DEVICE_SN }) }),
  resolve: async (input, ctx) => ({
    ...(await byActingUser(ctx, ctx.rest.call('DELETE /user/device/remove', { device_sn: input.deviceSn }))),
    removedDevice: input.deviceSn,
  }),
});

mutation('unbindDeviceToken', {
  description: "Unbind the push device token of one of the acting user's devices.",
  endpoints: ['DELETE /user/token/unbind'],
  payload: UserPayloadRef,
  inputDescription: 'The device whose token is unbound.',
  input: (t) => ({ deviceSn: t.int({ required: true, description: DEVICE_SN }) }),
  resolve: (input, ctx) => byActingUser(ctx, ctx.rest.call('DELETE /user/token/unbind', { deviceSn: input.deviceSn })),
});

mutation('kickUser', {
  description: 'Log the acting user out of one device, or of all devices when deviceSn is omitted.',
  endpoints: ['PUT /user/kick'],
  payload: UserPayloadRef,
  inputDescription: 'The device to log out of; empty: all devices.',
  input: (t) => ({ deviceSn: t.int({ required: false, description: `${DEVICE_SN} Omitted: all devices.` }) }),
  resolve: (input, ctx) => byActingUser(ctx, ctx.rest.call('PUT /user/kick', { device_sn: orUndefined(input.deviceSn) })),
});

mutation('bindDeviceToken', {
  description: "Bind a vendor push device token to one of the acting user's devices.",
  endpoints: ['PUT /user/token/bind'],
  payload: UserPayloadRef,
  inputDescription: 'A vendor push token for one device.',
  input: (t) => ({
    deviceSn: t.int({ required: true, description: DEVICE_SN }),
    deviceToken: t.string({ required: true, description: 'The device token issued by the push vendor.' }),
    notifierName: t.string({ required: true, description: 'Name of the push certificate.' }),
  }),
  resolve: (input, ctx) => {
    const params = {
      device_sn: input.deviceSn,
      device_token: nonBlank('input.deviceToken', input.deviceToken),
      notifier_name: nonBlank('input.notifierName', input.notifierName),
    };
    return byActingUser(ctx, ctx.rest.call('PUT /user/token/bind', params));
  },
});
