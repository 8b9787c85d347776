// Which channel reaches a device, and what the statistics count for it.
//
// Vendor channel: iOS (platform 1, or bound to an apns notifier) → apns; Android (platform 2, or
// bound to a vendor notifier) → the first ospush_sequence entry it can use: 'ups' = its bound
// domestic vendor, 'fcm' = FCM unless bound to another vendor, a vendor name = that vendor if
// bound to it. Desktop and web devices have no vendor channel.
//
// Strategy: combined = nativepush when the device is online, else its vendor channel;
// nativepush_only = nativepush; ospush_only = the vendor channel. No channel: not a target.
//
// Counters (a deterministic rule, the emulator reaches no vendor): target = devices assigned;
// sent = nativepush always (the service's own channel queues it), a vendor channel only with a
// bound device token; received = nativepush when the device is online, a vendor channel = sent.
import type { PushChannel } from '../../rest/records';
import type { DeviceRecord } from '../users/model';
import { channelOfNotifier, channelOfVendor, DOMESTIC_CHANNELS } from './providers';

export type Strategy = 'combined' | 'nativepush_only' | 'ospush_only';

const PLATFORM_IOS = 1;
const PLATFORM_ANDROID = 2;

function vendorChannel(device: DeviceRecord, sequence: readonly string[]): PushChannel | undefined {
  const bound = device.notifierName ? channelOfNotifier(device.notifierName) : undefined;
  if (bound === 'apns' || (bound === undefined && device.platform === PLATFORM_IOS)) return 'apns';
  if (bound === undefined && device.platform !== PLATFORM_ANDROID) return undefined;
  for (const entry of sequence) {
    if (entry === 'ups') {
      if (bound !== undefined && DOMESTIC_CHANNELS.has(bound)) return bound;
    } else if (entry === 'fcm') {
      if (bound === undefined || bound === 'fcm') return 'fcm';
    } else if (bound !== undefined && channelOfVendor(entry) === bound) {
      return bound;
    }
  }
  return undefined;
}

export function channelFor(device: DeviceRecord, strategy: Strategy, sequence: readonly string[]): PushChannel | undefined {
  if (strategy === 'nativepush_only') return 'nativepush';
  if (strategy === 'combined' && device.online) return 'nativepush';
  return vendorChannel(device, sequence);
}

export interface Outcome {
  sent: boolean;
  received: boolean;
}

export function outcomeOf(device: DeviceRecord, channel: PushChannel): Outcome {
  if (channel === 'nativepush') return { sent: true, received: device.online };
  const sent = device.deviceToken !== undefined && device.deviceToken !== '';
  return { sent, received: sent };
}
